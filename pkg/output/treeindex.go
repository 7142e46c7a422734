package output

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"sort"
	"sync"

	"github.com/zeebo/xxh3"

	parallelpkg "sitegen/pkg/internal/parallel"
	"sitegen/pkg/internal/wire"
)

// record is what a tree index knows of one entry of a tree: enough to tell,
// with one lstat, that the entry is still exactly as sitegen left it. Any
// change to a file's bytes, or to a folder's list of entries, gives it a new
// change time (ctime), which no user program can set back; a file replaced
// by another gets a new inode number.
type record struct {
	dir          bool
	size         int64
	ino          uint64
	mtime, ctime int64 // nanoseconds
	sum          [16]byte
}

// treeIndex describes one complete tree sitegen wrote: each file and folder
// (slash paths below the root, "." for the root) with its record and, for a
// file, the digest of its content (Sum).
type treeIndex struct {
	// input is the digest of everything the tree was built from (the
	// sources, the options and sitegen itself; see build's inputDigest),
	// "" when not known.
	input string
	// report is the build's report, as the build encoded it, for a later
	// build that finds nothing changed.
	report []byte
	// sources are the build's notes on its sources (build keeps what
	// each source file's digest was).
	sources []byte
	recs    map[string]record
}

const indexMagic = "sitegen-tree-index-3\n"

// Sum is a file's content digest in a tree index: its 128-bit XXH3, about
// fifty times cheaper than SHA-256 on this job. It tells whether a file
// sitegen made from the site's sources has the bytes of the file a spare
// holds at its path (a file whose lstat shows it is the one sitegen
// wrote): no one but the site's author chooses those bytes, and no chance
// collision of 128 bits is to be expected. A caller that keeps it (the
// page cache) hands it to Tree.WriteSum and Tree.Keep instead of having the
// bytes hashed again.
func Sum(data []byte) [16]byte {
	return xxh3.Hash128(data).Bytes()
}

// encode writes x; its entries come in no particular order (nothing
// reads the file but decodeIndex).
func (x *treeIndex) encode() []byte {
	b := make([]byte, 0, 64*len(x.recs)+len(x.report)+len(x.sources)+64)
	b = append(b, indexMagic...)
	putBytes := func(v []byte) {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	putBytes([]byte(x.input))
	putBytes(x.report)
	putBytes(x.sources)
	b = binary.AppendUvarint(b, uint64(len(x.recs)))
	for n, r := range x.recs {
		putBytes([]byte(n))
		dir := byte(0)
		if r.dir {
			dir = 1
		}
		b = append(b, dir)
		b = binary.AppendVarint(b, r.size)
		b = binary.AppendUvarint(b, r.ino)
		b = binary.AppendVarint(b, r.mtime)
		b = binary.AppendVarint(b, r.ctime)
		b = append(b, r.sum[:]...)
	}
	return b
}

var errBadIndex = errors.New("not a tree index")

func decodeIndex(b []byte) (*treeIndex, error) {
	rest, ok := bytes.CutPrefix(b, []byte(indexMagic))
	if !ok {
		return nil, errBadIndex
	}
	r := wire.NewReader(rest)
	x := &treeIndex{}
	x.input = string(r.Prefixed())
	x.report = r.Prefixed()
	x.sources = r.Prefixed()
	n := r.Int(r.Len())
	if r.Bad() {
		return nil, errBadIndex
	}
	x.recs = make(map[string]record, n)
	for i := 0; i < n && !r.Bad(); i++ {
		name := string(r.Prefixed())
		d := r.Bytes(1)
		var rec record
		rec.dir = len(d) == 1 && d[0] == 1
		rec.size, rec.ino, rec.mtime, rec.ctime = r.Varint(), r.Uvarint(), r.Varint(), r.Varint()
		copy(rec.sum[:], r.Bytes(16))
		x.recs[name] = rec
	}
	if !r.Done() {
		return nil, errBadIndex
	}
	return x, nil
}

// readIndex reads an index file; a missing or damaged one is nil.
func readIndex(file string) *treeIndex {
	f, err := os.OpenFile(file, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil
	}
	x, err := decodeIndex(b)
	if err != nil {
		return nil
	}
	return x
}

// writeIndex replaces file with x, whole or not at all.
func writeIndex(file string, x *treeIndex) error {
	tmp := file + ".new"
	os.Remove(tmp) // a leftover (a link is removed, not followed)
	// O_EXCL: a link planted at tmp meanwhile is not written through.
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
	if err != nil {
		return fmt.Errorf("write the tree index: %w", err)
	}
	_, err = f.Write(x.encode())
	if err = errors.Join(err, f.Close()); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the tree index: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the tree index: %w", err)
	}
	return nil
}

// verify stats every entry x lists below root and reports those that are
// no longer as recorded (changed, replaced or gone), sorted. A folder that
// changed means entries were added, removed or renamed in it.
func (x *treeIndex) verify(root string) []string {
	return x.verifyWhere(root, func(record) bool { return true })
}

// verifyWhere is verify for the entries whose record keep selects.
func (x *treeIndex) verifyWhere(root string, keep func(record) bool) []string {
	names := make([]string, 0, len(x.recs))
	for n, r := range x.recs {
		if keep(r) {
			names = append(names, n)
		}
	}
	var mu sync.Mutex
	var changed []string
	statBelow(root, func(stat func(string) (record, error)) {
		parallel(len(names), func(i int) {
			n := names[i]
			got, err := stat(n)
			if err != nil || !got.same(x.recs[n]) {
				mu.Lock()
				changed = append(changed, n)
				mu.Unlock()
			}
		})
	})
	sort.Strings(changed)
	return changed
}

// same reports whether two records describe the same entry, unchanged (the
// digest is not compared: a stat does not give it).
func (r record) same(o record) bool {
	return r.dir == o.dir && r.size == o.size && r.ino == o.ino && r.mtime == o.mtime && r.ctime == o.ctime
}

// parallel calls f(0..n-1) on a few goroutines: stats and links are system
// calls that wait on the file system as often as they use a core.
func parallel(n int, f func(i int)) {
	parallelpkg.For(n, max(4, 2*runtime.GOMAXPROCS(0)), f)
}

// parents is the set of folders holding one of files or more ("."
// included).
func parents(files []string, more ...string) map[string]bool {
	seen := map[string]bool{".": true}
	for _, list := range [][]string{files, more} {
		for _, f := range list {
			for d := path.Dir(f); d != "." && !seen[d]; d = path.Dir(d) {
				seen[d] = true
			}
		}
	}
	return seen
}
