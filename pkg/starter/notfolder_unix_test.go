//go:build unix

package starter

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteRefusesAFile: a path that is a file, a named pipe or a link
// to nothing is not a folder to write into: ErrNotAFolder, saying what it
// is (it was "open afile: not a directory", or "mkdir dangling: file
// exists", issue 36).
func TestWriteRefusesAFile(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(at("file"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(at("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"dangling": "nowhere", "tofile": "file", "todir": "empty"} {
		if err := os.Symlink(target, at(link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(at("empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"file":     "it is a regular file",
		"fifo":     "it is a named pipe (FIFO)",
		"dangling": "it is a symbolic link to nothing",
		"tofile":   "it is a symbolic link to a regular file",
	} {
		_, err := Write(at(name), Options{})
		if !errors.Is(err, ErrNotAFolder) || !strings.Contains(err.Error(), want) ||
			!strings.HasSuffix(err.Error(), "init writes a new site into an empty or new folder") {
			t.Errorf("%s: %v, want ErrNotAFolder saying %q", name, err, want)
		}
	}
	if _, err := Write(at("todir"), Options{}); err != nil {
		t.Errorf("a link to an empty folder: %v", err)
	}
}
