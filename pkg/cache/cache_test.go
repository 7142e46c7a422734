package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStore: what one build puts, the next finds, byte for byte (an entry
// put in parts as one); a key that
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
		if v := val(i); i%2 == 1 { // an entry in parts is their concatenation
			s.Put(key(i), v[:3], v[3:7], nil, v[7:])
		} else {
			s.Put(key(i), v)
		}
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

// TestStoreDamage: a flipped byte in a value or a segment cut short is a
// miss, never wrong bytes; a later build's entry under a key replaces an
// earlier one; a folder over MaxBytes is merged down, keeping what the last
// build used.
func TestStoreDamage(t *testing.T) {
	dir := t.TempDir()
	k := func(i int) Key { return NewKey([]byte(fmt.Sprint(i))) }
	put := func(vals map[int]string) {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			s.Put(k(i), []byte(v))
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	get := func(i int) (string, bool) {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		b, ok := s.Get(k(i))
		return string(b), ok
	}
	put(map[int]string{1: "old one", 2: "two"})
	put(map[int]string{1: "new one"})
	if v, ok := get(1); !ok || v != "new one" {
		t.Errorf("after a later put: %q %v, want the newer value", v, ok)
	}

	segs, _ := segments(dir)
	b, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte("two"))
	b[i] ^= 1
	if err := os.WriteFile(segs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	if v, ok := get(2); ok {
		t.Errorf("a corrupted entry hit: %q", v)
	}
	if err := os.Truncate(segs[1], int64(len(magic))+5); err != nil {
		t.Fatal(err)
	}
	if v, ok := get(1); ok && v != "old one" {
		t.Errorf("a truncated segment's entry hit: %q", v)
	}
	// That build merged the folder: the truncated segment is gone.
	if segs, _ := segments(dir); len(segs) != 1 {
		t.Errorf("after a build over a truncated segment: %d segments, want 1 (merged)", len(segs))
	}
	put(map[int]string{3: "three"})
	if v, ok := get(3); !ok || v != "three" {
		t.Errorf("after the merge: %q %v", v, ok)
	}

	// Bounded: many large entries, then a build that reads one of them.
	dir = t.TempDir()
	abandoned := filepath.Join(dir, ".tmp-4242")
	if err := os.WriteFile(abandoned, []byte(magic), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * youngTemp)
	os.Chtimes(abandoned, old, old)
	big := strings.Repeat("x", 1000)
	for r := 0; r < 4; r++ {
		vals := map[int]string{}
		for i := 0; i < 50; i++ {
			vals[100*r+i] = big
		}
		put(vals)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.MaxBytes = 60_000
	if _, ok := s.Get(k(5)); !ok { // the oldest build's entry, used now
		t.Fatal("entry 5 missing before the merge")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var size int64
	segs, _ = segments(dir)
	for _, f := range segs {
		st, _ := os.Stat(f)
		size += st.Size()
	}
	if len(segs) != 1 || size > 30_000+int64(len(magic))+10_000 {
		t.Errorf("after a merge over MaxBytes: %d segments, %d bytes", len(segs), size)
	}
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	kept := func(round int) (n int) {
		for i := 0; i < 50; i++ {
			if _, ok := st.index[k(100*round+i)]; ok {
				n++
			}
		}
		return n
	}
	if _, ok := st.index[k(5)]; !ok {
		t.Error("the merge dropped an entry the build used")
	}
	// Half of MaxBytes holds 29 entries: the one used, then the newest.
	if n := kept(3); n < 25 {
		t.Errorf("the merge kept %d of the newest build's 50 entries", n)
	}
	if n := kept(0); n != 1 {
		t.Errorf("the merge kept %d of the oldest build's entries, want only the one used", n)
	}
	st.Close()
	if _, err := os.Stat(abandoned); err == nil {
		t.Error("the merge left a killed build's temporary file")
	}
}

// TestStorePartialMerge: many small builds over a large folder merge their
// own segments and leave the large one as it is; a key they stored again
// keeps its newest value.
func TestStorePartialMerge(t *testing.T) {
	dir := t.TempDir()
	k := func(i int) Key { return NewKey([]byte(fmt.Sprint(i))) }
	build := func(vals map[int]string) {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			s.Put(k(i), []byte(v))
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	base := map[int]string{}
	for i := 0; i < 200; i++ {
		base[i] = strings.Repeat("b", 500)
	}
	build(base)
	segs, _ := segments(dir)
	first := segs[0]
	for r := 0; r < 3*maxSegs; r++ {
		build(map[int]string{7: fmt.Sprint("round ", r)})
	}
	segs, _ = segments(dir)
	if len(segs) > maxSegs || segs[0] != first {
		t.Errorf("after many small builds: %d segments, the first %s (want %s kept)", len(segs), segs[0], first)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if b, ok := s.Get(k(7)); !ok || string(b) != fmt.Sprint("round ", 3*maxSegs-1) {
		t.Errorf("key 7 = %q %v, want the last round's value", b, ok)
	}
	if b, ok := s.Get(k(8)); !ok || len(b) != 500 {
		t.Errorf("a base entry: %d bytes %v", len(b), ok)
	}
}

// TestStorePutBound: a build stores no more than half of MaxBytes, and
// Room says so before an entry is prepared.
func TestStorePutBound(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.MaxBytes = 20_000
	if !s.Room(1000) {
		t.Error("an empty store has no room for 1,000 bytes")
	}
	for i := 0; i < 50; i++ {
		s.Put(NewKey([]byte(fmt.Sprint(i))), bytes.Repeat([]byte("x"), 1000))
	}
	if s.Room(1000) {
		t.Error("Room(1000) after 50,000 bytes under MaxBytes 20,000")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := len(s.index); n == 0 || n > 10 {
		t.Errorf("%d entries stored of 1000 bytes each under MaxBytes 20000, want at most 10", n)
	}
}

// TestStoreKeepsRoomForSmallEntries: once large entries fill 3/8 of
// MaxBytes they are dropped, and small ones are still kept up to half.
func TestStoreKeepsRoomForSmallEntries(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.MaxBytes = 800 << 10
	large := bytes.Repeat([]byte("x"), 2*smallEntry)
	for i := range 100 { // 800 KiB of large entries offered
		s.Put(NewKey([]byte(fmt.Sprint("large ", i))), large)
	}
	if s.Room(len(large)) {
		t.Error("room for a large entry past 3/8 of MaxBytes")
	}
	if !s.Room(100) {
		t.Error("no room for a small entry at 3/8 of MaxBytes")
	}
	small := bytes.Repeat([]byte("s"), 1000)
	for i := range 80 { // 80 KB: within the 100 KB kept for small entries
		s.Put(NewKey([]byte(fmt.Sprint("small ", i))), small)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 80 {
		if _, ok := s.Get(NewKey([]byte(fmt.Sprint("small ", i)))); !ok {
			t.Fatalf("small entry %d was dropped", i)
		}
	}
	if _, ok := s.Get(NewKey([]byte("large 99"))); ok {
		t.Error("a large entry past 3/8 of MaxBytes was kept")
	}
}

// TestCloseReportsWriteErrors: a segment that cannot be written (a full
// disk) or made is Close's error, naming the file; a second Close returns
// it again and writes nothing. Close returned nil for a segment it could
// not make, and the build's report never said (issue 36).
func TestCloseReportsWriteErrors(t *testing.T) {
	for name, create := range map[string]func(dir, pattern string) (*os.File, error){
		// a file open only for reading: every write fails, as on a full disk
		"write": func(dir, pattern string) (*os.File, error) {
			f, err := os.CreateTemp(dir, pattern)
			if err != nil {
				return nil, err
			}
			f.Close()
			return os.Open(f.Name())
		},
		"create": func(dir, pattern string) (*os.File, error) {
			return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.ENOSPC}
		},
	} {
		dir := t.TempDir()
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		s.create = create
		s.Put(NewKey([]byte("k")), make([]byte, 1<<20))
		err = s.Close()
		if err == nil || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: Close: %v, want an error naming a file in %s", name, err, dir)
		}
		if again := s.Close(); again != err {
			t.Errorf("%s: second Close: %v, want the first one's error", name, again)
		}
		if segs, _ := segments(dir); len(segs) > 0 {
			t.Errorf("%s: segments left: %v", name, segs)
		}
	}
}
