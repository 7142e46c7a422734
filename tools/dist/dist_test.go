package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestReproducible: two release builds of the same commit give the same
// bytes (archives and SHA256SUMS). Slow (two builds): skipped with -short.
func TestReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sitegen twice")
	}
	t.Chdir("../..")
	target := []string{runtime.GOOS + "/" + runtime.GOARCH, "windows/arm64"}
	var dirs []string
	for range 2 {
		dir := t.TempDir()
		if err := run(dir, target, "test"); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	names, _ := filepath.Glob(filepath.Join(dirs[0], "*"))
	if len(names) != 3 {
		t.Fatalf("wrote %v, want two archives and SHA256SUMS", names)
	}
	for _, a := range names {
		b := filepath.Join(dirs[1], filepath.Base(a))
		x, err := os.ReadFile(a)
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds", filepath.Base(a))
		}
	}
}

// TestDocFiles: an archive holds README.md and every docs/*.md, so the
// links of README and the page `sitegen init` names resolve in it.
func TestDocFiles(t *testing.T) {
	t.Chdir("../..")
	files, err := docFiles()
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob("docs/*.md")
	for _, want := range append([]string{"README.md", "docs/getting-started.md"}, docs...) {
		if files[filepath.ToSlash(want)] == "" {
			t.Errorf("the archive lacks %s (it has %v)", want, sortedNames(files))
		}
	}
}
