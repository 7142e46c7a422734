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
// Two builds may share the folder. When there are many segments, Close
// merges them into one. Entries are never evicted: delete the folder to
// reclaim its space.
package cache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
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
	magic     = "sitegen-cache-1\n"
	maxSegs   = 8 // more than this at Close: merged into one
)

type loc struct {
	seg      int
	off, len int64
}

// Store is a cache folder open for one build. A nil *Store caches nothing.
type Store struct {
	dir   string
	segs  []*os.File
	index map[Key]loc

	mu    sync.Mutex
	out   *os.File
	w     *bufio.Writer
	off   int64
	added []indexEntry
	werr  error

	hits, misses atomic.Int64
}

type indexEntry struct {
	key      Key
	off, len int64
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
	s := &Store{dir: dir, index: map[Key]loc{}}
	names, err := filepath.Glob(filepath.Join(dir, segPrefix+"*"+segSuffix))
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		entries, err := readIndex(f)
		if err != nil {
			f.Close()
			continue
		}
		for _, e := range entries {
			s.index[e.key] = loc{seg: len(s.segs), off: e.off, len: e.len}
		}
		s.segs = append(s.segs, f)
	}
	return s, nil
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
	const rec = sha256.Size + 16
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
		if out[i].off < int64(len(magic)) || out[i].off+out[i].len > start {
			return nil, errors.New("bad segment index")
		}
	}
	return out, nil
}

// Get returns the entry of k.
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
	if _, err := s.segs[l.seg].ReadAt(b, l.off); err != nil {
		s.misses.Add(1)
		return nil, false
	}
	s.hits.Add(1)
	return b, true
}

// Put adds v under k to this build's segment. A failure to write is not an
// error of the build: the cache then simply misses next time.
func (s *Store) Put(k Key, v []byte) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.werr != nil {
		return
	}
	if s.out == nil {
		f, err := os.CreateTemp(s.dir, ".tmp-*")
		if err != nil {
			s.werr = err
			return
		}
		s.out, s.w = f, bufio.NewWriterSize(f, 256<<10)
		s.off, s.werr = 0, nil
		s.write([]byte(magic))
	}
	s.added = append(s.added, indexEntry{key: k, off: s.off, len: int64(len(v))})
	s.write(v)
}

func (s *Store) write(b []byte) {
	if s.werr != nil {
		return
	}
	n, err := s.w.Write(b)
	s.off += int64(n)
	s.werr = err
}

// Close ends this build's segment with its index (making it visible to the
// next Open) and merges the segments when there are many.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.out != nil {
		tmp := s.out.Name()
		if err = s.finish(s.out, s.w, s.added); err == nil {
			seg := filepath.Join(s.dir, segPrefix+strings.TrimPrefix(filepath.Base(tmp), ".tmp-")+segSuffix)
			if err = os.Rename(tmp, seg); err != nil {
				os.Remove(tmp)
			}
		}
		s.out = nil
	}
	if err == nil && len(s.segs)+1 > maxSegs {
		err = s.merge()
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

// merge rewrites every segment into one and removes the others (a key's
// value is the same wherever it is stored: keys address content).
func (s *Store) merge() error {
	names, err := filepath.Glob(filepath.Join(s.dir, segPrefix+"*"+segSuffix))
	if err != nil {
		return err
	}
	type src struct {
		f       *os.File
		entries []indexEntry
	}
	var srcs []src
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		entries, err := readIndex(f)
		if err != nil {
			f.Close()
			continue
		}
		srcs = append(srcs, src{f, entries})
	}
	defer func() {
		for _, sr := range srcs {
			sr.f.Close()
		}
	}()
	out, err := os.CreateTemp(s.dir, ".merge-*")
	if err != nil {
		return err
	}
	s.out, s.w, s.off, s.werr, s.added = out, bufio.NewWriterSize(out, 256<<10), 0, nil, nil
	s.write([]byte(magic))
	seen := map[Key]bool{}
	for i := range srcs {
		for _, e := range srcs[i].entries {
			if seen[e.key] {
				continue
			}
			seen[e.key] = true
			b := make([]byte, e.len)
			if _, err := srcs[i].f.ReadAt(b, e.off); err != nil {
				continue
			}
			s.added = append(s.added, indexEntry{key: e.key, off: s.off, len: e.len})
			s.write(b)
		}
	}
	err = s.finish(out, s.w, s.added)
	s.out = nil
	if err != nil {
		return err
	}
	merged := filepath.Join(s.dir, segPrefix+"merged"+segSuffix)
	if err := os.Rename(out.Name(), merged); err != nil {
		os.Remove(out.Name())
		return err
	}
	for _, name := range names {
		if name != merged {
			os.Remove(name)
		}
	}
	return nil
}

// Stats returns the lookups that hit and missed.
func (s *Store) Stats() (hits, misses int64) {
	if s == nil {
		return 0, 0
	}
	return s.hits.Load(), s.misses.Load()
}
