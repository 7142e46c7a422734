package build

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFullCacheDisk: a build whose --cache-dir is on a full file system
// succeeds and warns once, naming the folder and the error; it said
// nothing, and every later build was cold (issue 36). The full file
// system is a small tmpfs (root only: skipped elsewhere).
func TestFullCacheDisk(t *testing.T) {
	full := filepath.Join(t.TempDir(), "full")
	if err := os.Mkdir(full, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", full).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs to fill (mount: %v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("umount", full).Run() })
	cacheDir := filepath.Join(full, "cache")
	if err := os.Mkdir(cacheDir, 0o755); err != nil {
		t.Fatal(err)
	}
	filler, err := os.Create(filepath.Join(full, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = filler.Write(make([]byte, 4096))
	}
	filler.Close()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("filling the tmpfs: %v", err)
	}
	out := filepath.Join(t.TempDir(), "public")
	rep, err := Run(context.Background(), Options{Source: "../../testdata/sites/minimal", Out: out, Date: "2026-01-01", CacheDir: cacheDir})
	if err != nil {
		t.Fatalf("a full cache disk failed the build: %v", err)
	}
	w := rep.CacheWarning
	if !strings.Contains(w, "could not save the cache in "+cacheDir+": ") || !strings.Contains(w, "no space left on device") || strings.Count(w, "could not save") != 1 {
		t.Errorf("warning %q, want one naming %s and the full disk", w, cacheDir)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("the output: %v", err)
	}
}
