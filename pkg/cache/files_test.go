package cache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestStoreLeavesForeignFilesAlone: in the cache folder, a named pipe
// named like a segment does not block Open (a build once hung there), and
// files the cache did not write (a user's seg-x.sgc, a link named like a
// segment, any other file) survive a build and a merge; a killed build's
// temporary file is removed, a running one's is not.
func TestStoreLeavesForeignFilesAlone(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "seg-00000000000000000001-1.sgc")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	foreign := map[string]string{
		"seg-x.sgc": "my notes",
		"notes.txt": "keep",
		".tmp-mine": "a user's file",
	}
	for name, data := range foreign {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(t.TempDir(), "elsewhere")
	os.WriteFile(target, []byte(magic+"x"), 0o644)
	link := filepath.Join(dir, "seg-00000000000000000002-2.sgc")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	killed := filepath.Join(dir, ".tmp-1234")
	os.WriteFile(killed, []byte(magic), 0o644)
	old := time.Now().Add(-time.Minute)
	os.Chtimes(killed, old, old)

	// A running build holds its temporary file.
	running, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	running.Put(NewKey([]byte("running")), []byte("v"))
	runningTemp := running.out.Name()
	os.Chtimes(runningTemp, old, old)

	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < maxSegs+2; i++ { // enough builds for a merge
			s, err := Open(dir)
			if err != nil {
				t.Error(err)
				return
			}
			s.Put(NewKey([]byte{byte(i)}), []byte("value"))
			s.stale = i == maxSegs+1 // the last one merges everything
			if err := s.Close(); err != nil {
				t.Error(err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Open blocked on the named pipe")
	}
	for name, data := range foreign {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != data {
			t.Errorf("%s: %q %v, want it untouched", name, b, err)
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe: %v %v", st, err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link: %v", err)
	}
	if _, err := os.Stat(killed); err == nil {
		t.Error("a killed build's temporary file was left")
	}
	if _, err := os.Stat(runningTemp); err != nil {
		t.Errorf("a running build's temporary file was removed: %v", err)
	}
	if err := running.Close(); err != nil {
		t.Fatalf("the running build's Close: %v", err)
	}
	s, _ := Open(dir)
	defer s.Close()
	if _, ok := s.Get(NewKey([]byte("running"))); !ok {
		t.Error("the running build's entry was lost")
	}
}
