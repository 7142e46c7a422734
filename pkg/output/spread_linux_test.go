//go:build linux

package output

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTreeStagedSpread: the new tree is made in a staging folder marked for
// ext4's spreading allocator (FS_TOPDIR_FL), under a new name each build
// (ext4 starts its search from a hash of the name), and nothing of the
// staging is left beside --out after Commit or Abort. Skipped where the
// file system keeps no such flags (tmpfs).
func TestTreeStagedSpread(t *testing.T) {
	parent := t.TempDir()
	if !flagsSupported(parent) {
		t.Skipf("%s keeps no inode flags (not ext2/3/4)", parent)
	}
	out := filepath.Join(parent, "public")
	var names []string
	for i := 0; i < 2; i++ {
		tr, err := Begin(out, "test")
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(tr.tmp) != tr.stage || filepath.Dir(tr.stage) != parent {
			t.Fatalf("tree %s, staging %s: want the tree in a staging folder beside %s", tr.tmp, tr.stage, out)
		}
		if !hasTopdir(t, tr.stage) {
			t.Errorf("the staging folder %s lacks FS_TOPDIR_FL", tr.stage)
		}
		names = append(names, filepath.Base(tr.tmp))
		if err := tr.WriteFile("pl/a/index.html", []byte("a")); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			err = tr.Commit()
		} else {
			tr.Abort()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if names[0] == names[1] {
		t.Errorf("two builds staged their trees under the same name %q", names[0])
	}
	ents, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != "public" && e.Name()[0] == '.' && e.IsDir() {
			t.Errorf("left beside the output: %s", e.Name())
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, "pl/a/index.html")); err != nil || string(b) != "a" {
		t.Errorf("committed tree: %q, %v", b, err)
	}
}

func flagsSupported(dir string) bool {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	_, err = unix.IoctlGetInt(fd, unix.FS_IOC_GETFLAGS)
	return err == nil
}

func hasTopdir(t *testing.T, dir string) bool {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	flags, err := unix.IoctlGetInt(fd, unix.FS_IOC_GETFLAGS)
	if err != nil {
		t.Fatal(err)
	}
	return flags&fsTopdirFlag != 0
}
