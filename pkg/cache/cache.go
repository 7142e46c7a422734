// Package cache is a persistent, content-addressed store of build results
// (rendered Markdown, island SSR). A key is the SHA-256 of everything the
// result depends on (inputs, options, sitegen's version), never a file's
// modification time, so a hit is always the value a fresh computation would
// give.
//
// Entries live in a few segment files, not one file each (on a disk a file
// per page would cost as much as the page itself): a build appends what it
// computed to a temporary file and, on Close, ends it with an index and
// renames it into a segment; Open reads only the indexes of the segments.
// Two builds may share the folder: a segment appears whole (rename) or not
// at all. Each entry carries a CRC-32C: a corrupted or truncated entry is a
// miss, and a segment without a valid index is ignored (and removed at the
// next merge).
//
// Segment names sort by the time they were closed, and a later segment's
// entry wins over an earlier one's under the same key (a page's cache entry
// is replaced when what it depends on changes).
//
// The folder is bounded: when it holds more than Store.MaxBytes or a
// segment it cannot read, Close merges the segments into one, keeping first
// the entries this build used or stored, then the newest others, up to half
// of MaxBytes; the rest is dropped, and so are the temporary files of builds
// killed more than a day before. When it holds more than maxSegs segments,
// Close merges them too, leaving out the oldest when that is the bulk of the
// folder (the last full merge's). Deleting the folder is always safe.
package cache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Key names one entry.
type Key [sha256.Size]byte

// NewKey hashes parts, each prefixed with its length (so that ("ab","c")
// and ("a","bc") differ).
func NewKey(parts ...[]byte) Key {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var k Key
	h.Sum(k[:0])
	return k
}

const (
	segPrefix = "seg-"
	segSuffix = ".sgc"
	magic     = "sitegen-cache-2\n"
	maxSegs   = 8 // more than this at Close: merged into one
	// DefaultMaxBytes bounds a cache folder (see Store.MaxBytes): a build
	// stores up to half of it, about 17,000 pages of the benchmark's kind
	// (an entry per page and one per Markdown body, ~15 KB together).
	DefaultMaxBytes = 512 << 20
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

type loc struct {
	seg      int
	off, len int64
	sum      uint32
	slot     int // its bit in Store.used
}

// Store is a cache folder open for one build. A nil *Store caches nothing.
type Store struct {
	// MaxBytes bounds the folder's segments (DefaultMaxBytes from Open):
	// past it, Close merges them and drops the entries used least recently.
	MaxBytes int64

	dir   string
	segs  []*os.File
	size  int64 // bytes of the segments read by Open
	stale bool  // Open met a segment it cannot read (damaged, or another format)
	index map[Key]loc
	used  []atomic.Uint64 // a bit per entry of index (loc.slot): read by this build

	mu    sync.Mutex
	out   *os.File
	w     *bufio.Writer
	off   int64
	added []indexEntry
	werr  error
	// create makes the temporary files (createTemp; a test's may fail).
	create func(dir, pattern string) (*os.File, error)
	// closed: Close ran and returned closeErr.
	closed   bool
	closeErr error

	hits, misses atomic.Int64
}

type indexEntry struct {
	key      Key
	off, len int64
	sum      uint32 // CRC-32C of the value
}

// DefaultDir is sitegen's folder in the user's cache folder
// ($XDG_CACHE_HOME/sitegen or ~/.cache/sitegen on Linux).
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sitegen"), nil
}

// Open reads the indexes of the segments in dir (created if missing).
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache folder: %w", err)
	}
	s := &Store{dir: dir, index: map[Key]loc{}, MaxBytes: DefaultMaxBytes, create: createTemp}
	names, err := segments(dir)
	if err != nil {
		return nil, err
	}
	removeAbandoned(dir)
	for _, name := range names { // oldest first: a later entry wins
		f, err := openRegular(name)
		if err != nil {
			continue
		}
		entries, err := readIndex(f)
		if err != nil {
			f.Close()
			s.stale = true
			continue
		}
		for _, e := range entries {
			slot := len(s.index)
			if l, ok := s.index[e.key]; ok {
				slot = l.slot
			}
			s.index[e.key] = loc{seg: len(s.segs), off: e.off, len: e.len, sum: e.sum, slot: slot}
		}
		if st, err := f.Stat(); err == nil {
			s.size += st.Size()
		}
		s.segs = append(s.segs, f)
	}
	s.used = make([]atomic.Uint64, (len(s.index)+63)/64)
	return s, nil
}

// segName is the name of a segment closed now; tag tells apart segments
// closed in the same nanosecond.
func segName(dir, tag string) string {
	return filepath.Join(dir, fmt.Sprintf("%s%020d-%s%s", segPrefix, time.Now().UnixNano(), tag, segSuffix))
}

// readIndex reads a segment's index: the file ends with the index entries
// (key, offset, length), their count and the magic line.
func readIndex(f *os.File) ([]indexEntry, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	tail := int64(8 + len(magic))
	if st.Size() < int64(len(magic))+tail {
		return nil, errors.New("short segment")
	}
	buf := make([]byte, tail)
	if _, err := f.ReadAt(buf, st.Size()-tail); err != nil {
		return nil, err
	}
	if string(buf[8:]) != magic {
		return nil, errors.New("segment without index")
	}
	n := int64(binary.LittleEndian.Uint64(buf[:8]))
	const rec = sha256.Size + 20
	start := st.Size() - tail - n*rec
	if n < 0 || start < int64(len(magic)) {
		return nil, errors.New("bad segment index")
	}
	raw := make([]byte, n*rec)
	if _, err := f.ReadAt(raw, start); err != nil {
		return nil, err
	}
	out := make([]indexEntry, n)
	for i := range out {
		r := raw[int64(i)*rec:]
		copy(out[i].key[:], r[:sha256.Size])
		out[i].off = int64(binary.LittleEndian.Uint64(r[sha256.Size:]))
		out[i].len = int64(binary.LittleEndian.Uint64(r[sha256.Size+8:]))
		out[i].sum = binary.LittleEndian.Uint32(r[sha256.Size+16:])
		if out[i].off < int64(len(magic)) || out[i].off+out[i].len > start {
			return nil, errors.New("bad segment index")
		}
	}
	return out, nil
}

// Get returns the entry of k. An entry that cannot be read whole, or whose
// checksum does not match, is a miss.
func (s *Store) Get(k Key) ([]byte, bool) {
	if s == nil {
		return nil, false
	}
	l, ok := s.index[k]
	if !ok {
		s.misses.Add(1)
		return nil, false
	}
	b := make([]byte, l.len)
	if _, err := s.segs[l.seg].ReadAt(b, l.off); err != nil || crc32.Checksum(b, crcTable) != l.sum {
		s.misses.Add(1)
		return nil, false
	}
	s.hits.Add(1)
	s.used[l.slot/64].Or(1 << (l.slot % 64))
	return b, true
}

// Room reports whether an entry of n bytes would still be kept by Put, so
// that a caller can skip preparing one that would be dropped.
func (s *Store) Room(n int) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.room(n)
}

func (s *Store) room(n int) bool {
	limit := s.MaxBytes / 2
	if n > smallEntry {
		limit = s.MaxBytes * 3 / 8
	}
	return s.werr == nil && (s.MaxBytes <= 0 || s.off+int64(n) <= limit)
}

// smallEntry is the size up to which an entry is small. Large entries
// (a page's HTML) stop being kept once a build's segment holds 3/8 of
// MaxBytes, small ones (what says whether a result still holds, and the
// digests of its files) only at half: a site too large for the cache keeps
// the small entry of every page.
const smallEntry = 4 << 10

// Put adds the concatenation of parts under k to this build's segment. A
// failure to write is not an error of the build: the cache then simply
// misses next time. Once the segment holds half of MaxBytes (what a merge
// keeps at most; 3/8 for a large entry, see smallEntry), further entries
// are dropped: a build larger than the cache's bound does not write
// entries only to evict them.
func (s *Store) Put(k Key, parts ...[]byte) {
	if s == nil {
		return
	}
	n := 0
	for _, v := range parts {
		n += len(v)
	}
	// The checksum is taken before the lock: the builds' workers put their
	// pages at once, and only the append to the segment is shared.
	sum := uint32(0)
	for _, v := range parts {
		sum = crc32.Update(sum, crcTable, v)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.room(n) {
		return
	}
	if s.out == nil {
		f, err := s.create(s.dir, ".tmp-*")
		if err != nil {
			s.werr = err
			return
		}
		s.out, s.w = f, bufio.NewWriterSize(f, 256<<10)
		s.off, s.werr = 0, nil
		s.write([]byte(magic))
	}
	s.added = append(s.added, indexEntry{key: k, off: s.off, len: int64(n), sum: sum})
	for _, v := range parts {
		s.write(v)
	}
}

func (s *Store) write(b []byte) {
	if s.werr != nil {
		return
	}
	n, err := s.w.Write(b)
	s.off += int64(n)
	s.werr = err
}

// Dir is the cache folder.
func (s *Store) Dir() string { return s.dir }

// Close ends this build's segment with its index (making it visible to the
// next Open) and merges the segments when there are many or they are too
// large. Its error says why what this build learned was not saved (a full
// disk): the build goes on, the next one misses; the caller warns. A
// second Close does nothing and returns the first one's error.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.closeErr
	}
	s.closed = true
	err := s.close()
	s.closeErr = err
	return err
}

func (s *Store) close() error {
	var err error
	if s.out == nil && s.werr != nil { // the segment could not even be made
		err = fmt.Errorf("cache: %w", s.werr)
	}
	var added []indexEntry
	if s.out != nil {
		tmp := s.out.Name()
		added = s.added
		if err = s.finish(s.out, s.w, s.added); err == nil {
			if err = os.Rename(tmp, segName(s.dir, strings.TrimPrefix(filepath.Base(tmp), ".tmp-"))); err != nil {
				os.Remove(tmp)
			}
		}
		s.out = nil
		s.size += s.off
	}
	full := s.stale || (s.MaxBytes > 0 && s.size > s.MaxBytes)
	if err == nil && (full || len(s.segs)+1 > maxSegs) {
		err = s.merge(added, full)
	}
	for _, f := range s.segs {
		f.Close()
	}
	s.segs = nil
	return err
}

func (s *Store) finish(f *os.File, w *bufio.Writer, entries []indexEntry) error {
	var buf bytes.Buffer
	var n [8]byte
	for _, e := range entries {
		buf.Write(e.key[:])
		binary.LittleEndian.PutUint64(n[:], uint64(e.off))
		buf.Write(n[:])
		binary.LittleEndian.PutUint64(n[:], uint64(e.len))
		buf.Write(n[:])
		binary.LittleEndian.PutUint32(n[:4], e.sum)
		buf.Write(n[:4])
	}
	binary.LittleEndian.PutUint64(n[:], uint64(len(entries)))
	buf.Write(n[:])
	buf.WriteString(magic)
	s.write(buf.Bytes())
	err := s.werr
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// merge rewrites the segments into one and removes them (a segment that
// cannot be read is removed too). It keeps, in this order, the entries this
// build used or added and then the others, newest first, while the merged
// segment stays under half of MaxBytes; of two entries under one key the
// newer is kept.
//
// A merge that is not full leaves the oldest segment alone when it holds
// half the folder or more (the base a full merge made): the newer ones are
// merged into one that sorts after it, so rewriting the base is left to the
// full merges the size bound asks for.
func (s *Store) merge(added []indexEntry, full bool) error {
	names, err := segments(s.dir)
	if err != nil || len(names) == 0 {
		return err
	}
	if !full {
		names = partialMerge(names)
	}
	srcs, bad := openSegments(names)
	defer func() {
		for _, sr := range srcs {
			sr.f.Close()
		}
	}()
	out, err := s.create(s.dir, ".merge-*")
	if err != nil {
		return err
	}
	s.out, s.w, s.off, s.werr, s.added = out, bufio.NewWriterSize(out, 256<<10), 0, nil, nil
	s.write([]byte(magic))
	limit := int64(0) // no bound: a partial merge only joins files
	if full {
		limit = s.MaxBytes / 2
	}
	s.copyEntries(srcs, s.recentKeys(added), limit)
	err = s.finish(out, s.w, s.added)
	s.out = nil
	if err != nil {
		return err
	}
	// Named after the newest segment it holds, so that a segment another
	// build closes meanwhile (not merged) stays newer.
	merged := strings.TrimSuffix(names[len(names)-1], segSuffix) + "-m" + segSuffix
	if err := os.Rename(out.Name(), merged); err != nil {
		os.Remove(out.Name())
		return err
	}
	for _, name := range append(names, bad...) {
		if name != merged {
			os.Remove(name)
		}
	}
	removeAbandoned(s.dir)
	return nil
}

// partialMerge leaves out the oldest segment when it holds at least half of
// the bytes, so that a partial merge joins the small segments only.
func partialMerge(names []string) []string {
	if len(names) <= 2 {
		return names
	}
	var total, base int64
	for i, name := range names {
		if st, err := os.Stat(name); err == nil {
			total += st.Size()
			if i == 0 {
				base = st.Size()
			}
		}
	}
	if 2*base >= total {
		return names[1:]
	}
	return names
}

// segmentSource is an open segment and its index.
type segmentSource struct {
	f       *os.File
	entries []indexEntry
}

// openSegments opens names newest first; bad lists those whose index
// cannot be read (removed after the merge).
func openSegments(names []string) (srcs []segmentSource, bad []string) {
	for i := len(names) - 1; i >= 0; i-- {
		f, err := openRegular(names[i])
		if err != nil {
			continue
		}
		entries, err := readIndex(f)
		if err != nil {
			f.Close()
			bad = append(bad, names[i])
			continue
		}
		srcs = append(srcs, segmentSource{f, entries})
	}
	return srcs, bad
}

// recentKeys are the keys this build added or used.
func (s *Store) recentKeys(added []indexEntry) map[Key]bool {
	recent := map[Key]bool{}
	for _, e := range added {
		recent[e.key] = true
	}
	for k, l := range s.index {
		if s.used[l.slot/64].Load()&(1<<(l.slot%64)) != 0 {
			recent[k] = true
		}
	}
	return recent
}

// copyEntries writes each key's newest intact entry, the recent ones first;
// the others only while the output stays under limit (0: no limit).
func (s *Store) copyEntries(srcs []segmentSource, recent map[Key]bool, limit int64) {
	seen := map[Key]bool{}
	for _, pass := range []bool{true, false} {
		for i := range srcs {
			for _, e := range srcs[i].entries {
				if seen[e.key] || recent[e.key] != pass {
					continue
				}
				if !pass && limit > 0 && s.off+e.len > limit {
					continue
				}
				b := make([]byte, e.len)
				if _, err := srcs[i].f.ReadAt(b, e.off); err != nil || crc32.Checksum(b, crcTable) != e.sum {
					continue
				}
				seen[e.key] = true
				s.added = append(s.added, indexEntry{key: e.key, off: s.off, len: e.len, sum: e.sum})
				s.write(b)
			}
		}
	}
}

// Stats returns the lookups that hit and missed.
func (s *Store) Stats() (hits, misses int64) {
	if s == nil {
		return 0, 0
	}
	return s.hits.Load(), s.misses.Load()
}
