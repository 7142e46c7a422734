package cache

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestStore: what one build puts, the next finds, byte for byte; a key that
// was never put misses; a build that never closed its store leaves nothing
// the next one reads; many builds' segments are merged without losing an
// entry.
func TestStore(t *testing.T) {
	dir := t.TempDir()
	open := func() *Store {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	val := func(i int) []byte { return []byte(fmt.Sprintf("value %d <p>ł</p>", i)) }
	key := func(i int) Key { return NewKey([]byte("test"), []byte(fmt.Sprint(i))) }

	s := open()
	for i := 0; i < 100; i++ {
		if _, ok := s.Get(key(i)); ok {
			t.Fatalf("empty store hit %d", i)
		}
		s.Put(key(i), val(i))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// A build killed before Close: its entries are not visible.
	s = open()
	s.Put(key(1000), val(1000))
	s.mu.Lock()
	s.w.Flush()
	s.mu.Unlock()

	for round := 0; round < 2*maxSegs; round++ {
		s = open()
		for i := 0; i < 100; i++ {
			b, ok := s.Get(key(i))
			if !ok || string(b) != string(val(i)) {
				t.Fatalf("round %d: Get(%d) = %q, %v", round, i, b, ok)
			}
		}
		if _, ok := s.Get(key(1000)); ok {
			t.Fatal("an unfinished segment was read")
		}
		s.Put(key(200+round), val(200+round))
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	s = open()
	defer s.Close()
	for r := 0; r < 2*maxSegs; r++ {
		if b, ok := s.Get(key(200 + r)); !ok || string(b) != string(val(200+r)) {
			t.Errorf("entry of round %d lost: %q %v", r, b, ok)
		}
	}
	segs, _ := filepath.Glob(filepath.Join(dir, segPrefix+"*"))
	if len(segs) > maxSegs {
		t.Errorf("%d segments: not merged", len(segs))
	}
	if h, m := s.Stats(); h != 2*maxSegs || m != 0 {
		t.Errorf("Stats = %d hits, %d misses", h, m)
	}
	if NewKey([]byte("ab"), []byte("c")) == NewKey([]byte("a"), []byte("bc")) {
		t.Error("NewKey ignores where parts end")
	}
	var nilStore *Store
	nilStore.Put(key(1), val(1))
	if _, ok := nilStore.Get(key(1)); ok {
		t.Error("a nil store hit")
	}
}
