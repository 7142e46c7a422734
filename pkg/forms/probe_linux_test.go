package forms

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProbeWriteFullDisk: on a full file system the write probe fails,
// though its one row still fits in the space the WAL file has (it did,
// and /healthz said ok while every post got 503, issue 36). The full file
// system is a small tmpfs (root only: skipped elsewhere).
func TestProbeWriteFullDisk(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs to fill (mount: %v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	st := openTest(t, "sqlite:"+filepath.Join(dir, "f.db"))
	// The WAL grows with commits, and is copied into the database in the
	// background (every half second): the next commits reuse its space.
	for range 20 {
		if err := st.ProbeWrite(context.Background()); err != nil {
			t.Fatalf("probe on a file system with room: %v", err)
		}
	}
	time.Sleep(1500 * time.Millisecond)
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = f.Write(make([]byte, 64<<10))
	}
	f.Close()
	if err := st.ProbeWrite(context.Background()); err == nil || !strings.Contains(err.Error(), dir+" has 0 KB free") {
		t.Errorf("probe on a full file system: %v, want it to say %s has 0 KB free", err, dir)
	}
}
