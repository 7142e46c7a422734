package output

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// A build that reuses (BeginOptions.Reuse: sitegen build with a cache
// folder) keeps, beside --out, the tree the swap took out of place, in the
// keep folder .sitegen-keep-<out>:
//
//	spare/     the tree before the one at --out, whole
//	spare.idx  its index (treeIndex)
//	live.idx   the index of the tree at --out
//
// The next build stages its tree in spare/ instead of a new folder: a file
// whose bytes are those the spare already holds is left as it is, every
// other is written (the old file unlinked first: a server that opened it
// while it was live still reads the old bytes), the files the new tree does
// not have are removed; then the spare is swapped into place as a new
// tree is (renameat2 RENAME_EXCHANGE), and the tree it replaced becomes the
// spare. A build that changed one page writes that page, its page data and
// the few site-wide files that list it, where it used to write every file.
//
// Nothing is trusted unchecked. An index is only believed for the entries
// whose lstat still matches it (size, inode, modification and change time):
// writing a file or adding, removing or renaming an entry of a folder gives
// it a new change time, which no program but the kernel sets. A spare with
// a folder that changed is removed and the tree written new. spare.idx is
// removed before the spare is touched, so a build killed while it changes
// the spare leaves a spare without an index, which the next build removes.
const keepPrefix = ".sitegen-keep-"

const (
	spareName  = "spare"
	spareIndex = "spare.idx"
	liveIndex  = "live.idx"
)

var errNotRegular = errors.New("not a regular file or folder")

// BeginOptions say how a tree is staged.
type BeginOptions struct {
	// Reuse keeps the replaced tree beside the output and stages the next
	// build's tree in it (see keepPrefix).
	Reuse bool
	// Last, when set, is what ReadLast read of the output before the
	// build took its lock: its index is not read again while the file
	// stays the same.
	Last *Last
}

func keepDir(final string) string {
	return filepath.Join(filepath.Dir(final), keepPrefix+besideName(filepath.Base(final)))
}

// checkKeep refuses a keep folder sitegen did not make: the keep folder of
// final, and its spare, must be real folders (not symbolic links) and its
// indexes regular files, or be absent. Nothing in it is ever followed
// through a link: a link planted there would have a build delete and write
// wherever it points.
func checkKeep(final string) error {
	keep := keepDir(final)
	st, err := os.Lstat(keep)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("check the keep folder: %w", err)
	case !st.IsDir():
		return fmt.Errorf("%s is %s, not the folder sitegen keeps beside --out; sitegen does not follow or remove it: remove it yourself and build again", keep, kind(st.Mode()))
	}
	for _, n := range []string{spareName, spareIndex, liveIndex, spareIndex + ".new", liveIndex + ".new"} {
		p := filepath.Join(keep, n)
		st, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return fmt.Errorf("check the keep folder: %w", err)
		case n == spareName && st.IsDir(), n != spareName && st.Mode().IsRegular():
			continue
		}
		return fmt.Errorf("%s is %s, which sitegen did not make; sitegen does not follow or remove it: remove %s yourself and build again", p, kind(st.Mode()), keep)
	}
	return nil
}

// kind names a file mode for checkKeep's message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// realKeep reports whether the keep folder of final is a real folder (not
// a link) that checkKeep accepts.
func realKeep(final string) bool {
	st, err := os.Lstat(keepDir(final))
	return err == nil && st.IsDir() && checkKeep(final) == nil
}

// openSpare returns the spare in keep and its index with the files that
// changed since it was written marked as not reusable, or "" and nil when
// there is no spare that can be trusted (an untrusted one is removed).
func openSpare(keep string) (string, *treeIndex) {
	spare := filepath.Join(keep, spareName)
	x := readIndex(filepath.Join(keep, spareIndex))
	// From here on the spare changes: its index goes first.
	os.Remove(filepath.Join(keep, spareIndex))
	if x != nil {
		for _, n := range x.verify(spare) {
			if x.recs[n].dir {
				x = nil
				break
			}
			r := x.recs[n]
			r.size = -1 // still removed when the new tree lacks it, never kept
			x.recs[n] = r
		}
	}
	if x == nil {
		os.RemoveAll(spare)
		return "", nil
	}
	return spare, x
}

// Last is what the index of the tree at an output folder says of the build
// that wrote it (Tree.Record).
type Last struct {
	Input   string // the digest of its inputs
	Report  []byte // its report
	Sources []byte // the build's own notes on its sources
	dir     string
	x       *treeIndex
	xID     string // StatID of the index file as read
}

// ReadLast reads the index of the tree at dir; nil when there is none.
func ReadLast(dir string) *Last {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	if !realKeep(abs) {
		return nil
	}
	file := filepath.Join(keepDir(abs), liveIndex)
	id, _ := StatID(file)
	x := readIndex(file)
	if x == nil || id == "" {
		return nil
	}
	return &Last{Input: x.input, Report: x.report, Sources: x.sources, dir: abs, x: x, xID: id}
}

// liveIndexOf reads the index of the tree at dir (absolute), or takes it
// from last when last read it from the same file, unchanged since (a build
// that read it before it took the lock on the folder). The index is the
// caller's own to change.
func liveIndexOf(dir string, last *Last) *treeIndex {
	if last != nil && last.dir == dir && last.current() {
		x := *last.x
		x.recs = maps.Clone(last.x.recs)
		return &x
	}
	return readIndex(filepath.Join(keepDir(dir), liveIndex))
}

// current reports whether the live index file is still the one l read.
func (l *Last) current() bool {
	id, _ := StatID(filepath.Join(keepDir(l.dir), liveIndex))
	return id != "" && id == l.xID
}

// Notes are the last build's notes on its sources; nil without a last build.
func (l *Last) Notes() []byte {
	if l == nil {
		return nil
	}
	return l.Sources
}

// Current reports whether the tree is still, unchanged, the tree a build of
// input wrote. The build's lock on the folder is taken while it looks.
func (l *Last) Current(input string) bool {
	if l == nil || input == "" || input != l.Input {
		return false
	}
	unlock, err := lockOut(l.dir)
	if err != nil {
		return false
	}
	defer unlock()
	return len(l.x.verify(l.dir)) == 0
}

// Guard is Guard for the folder of a tree Current found unchanged: it holds
// nothing sitegen did not write, so it is not walked again.
func (l *Last) Guard(source string) error {
	return guard(source, l.dir, false, nil)
}

// indexed reports whether dir is, unchanged, the tree its live index
// describes (read by last, when given): then it holds no file sitegen did
// not write.
func indexed(dir string, last *Last) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	var x *treeIndex
	if last != nil && last.dir == abs && last.current() {
		x = last.x // only read
	} else if x = readIndex(filepath.Join(keepDir(abs), liveIndex)); x == nil {
		return false
	}
	return len(x.verifyWhere(abs, func(r record) bool { return r.dir })) == 0 // an entry added changes its folder
}

// Record sets what the tree's index says it was built from: the digest of
// the build's inputs, its report and its notes on its sources (see Last).
func (t *Tree) Record(input string, report, sources []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.input, t.report, t.sources = input, report, sources
}

// reusable reports whether the spare already holds rel with these bytes.
func (t *Tree) reusable(rel string, size int, sum [16]byte) bool {
	if t.reuse == nil {
		return false
	}
	r, ok := t.reuse.recs[rel]
	return ok && !r.dir && r.size == int64(size) && r.sum == sum
}

// replaceEntry clears the way for a new file at p in the spare: what is
// there is unlinked, not written over.
func replaceEntry(p string) error {
	err := os.Remove(p)
	if err == nil || gone(err) {
		return nil
	}
	return os.RemoveAll(p) // a folder where the file goes
}

// gone reports whether err says an entry is not there: missing, or below
// a folder that is now a file (a file written where the spare had a
// folder took the folder's entries with it).
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// ensureDir makes p a folder when the spare has a file there.
func ensureDir(p string) error {
	st, err := os.Lstat(p)
	if err == nil && st.IsDir() {
		return nil
	}
	if err == nil {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return os.MkdirAll(p, 0o755)
}

// pruneSpare removes from the spare every file and folder of its old index
// that the new tree does not have (its files are names, written or kept,
// dirs its folders), and returns them.
func (t *Tree) pruneSpare(names []string, dirs map[string]bool) ([]string, error) {
	if t.reuse == nil {
		return nil, nil
	}
	files := make(map[string]bool, len(names))
	for _, n := range names {
		files[n] = true
	}
	var staleDirs, removed []string
	for n, r := range t.reuse.recs {
		if files[n] || dirs[n] || n == ManifestName { // the manifest is written after
			continue
		}
		removed = append(removed, n)
		if r.dir {
			staleDirs = append(staleDirs, n)
			continue
		}
		if err := replaceEntry(filepath.Join(t.tmp, filepath.FromSlash(n))); err != nil {
			return nil, err
		}
	}
	// Deepest first: a folder's folders go before it.
	sort.Slice(staleDirs, func(i, j int) bool {
		return strings.Count(staleDirs[i], "/") > strings.Count(staleDirs[j], "/")
	})
	for _, d := range staleDirs {
		p := filepath.Join(t.tmp, filepath.FromSlash(d))
		if err := os.Remove(p); err != nil && !gone(err) {
			if err := os.RemoveAll(p); err != nil {
				return nil, err
			}
		}
	}
	return removed, nil
}

// written are the files of a finished tree that reuses, written or kept
// (Tree.recs), with the record of its manifest.
type written struct {
	names    []string
	recs     []record
	manifest record
}

// index returns the index of the finished tree, whose files are w and
// folders dirs (before it is swapped: the root is recorded after). A tree
// staged anew states every folder. A tree staged in the spare takes the
// spare's index, checked when the build began, and changes it where the
// build did: the files it wrote or removed, the folders it made, and the
// folders whose entries changed are stated again; the rest (on a small
// edit, nearly every entry) is as the spare's index says.
func (t *Tree) index(w written, dirs map[string]bool, removed []string) (*treeIndex, error) {
	var x *treeIndex
	stat := map[string]bool{} // the folders to state
	if t.reuse == nil {
		x = &treeIndex{recs: make(map[string]record, len(w.names)+len(dirs)+1)}
		for d := range dirs {
			stat[d] = true
		}
	} else {
		x, t.reuse = t.reuse, nil // the spare's index, changed in place: it is not read again
		for _, n := range removed {
			delete(x.recs, n)
			stat[path.Dir(n)] = true
		}
		for _, n := range w.names {
			if t.kept[n] {
				continue
			}
			stat[path.Dir(n)] = true
			// A folder the spare did not have as a folder is new, and so
			// is its parent's entry for it.
			for d := path.Dir(n); d != "."; d = path.Dir(d) {
				if r, ok := x.recs[d]; ok && r.dir {
					break
				}
				stat[d], stat[path.Dir(d)] = true, true
			}
		}
	}
	for i, n := range w.names {
		if !t.kept[n] { // a kept file's record is the spare's, in x already
			x.recs[n] = w.recs[i]
		}
	}
	if !t.kept[ManifestName] {
		x.recs[ManifestName] = w.manifest
	}
	names := make([]string, 0, len(stat))
	for d := range stat {
		if d != "." && dirs[d] { // the root is stated once swapped; a folder removed is gone
			names = append(names, d)
		}
	}
	recs := make([]record, len(names))
	errs := make([]error, len(names))
	statBelow(t.tmp, func(statRel func(string) (record, error)) {
		parallel(len(names), func(i int) { recs[i], errs[i] = statRel(names[i]) })
	})
	for i, n := range names {
		if errs[i] != nil {
			return nil, fmt.Errorf("index the new output: %w", errs[i])
		}
		x.recs[n] = recs[i]
	}
	x.input, x.report, x.sources = t.input, t.report, t.sources
	return x, nil
}

// keepOld makes old (the tree the swap replaced, now beside the output)
// the spare when its index is known, and records the new tree's index;
// without an index old is removed, as a build that does not reuse does.
func (t *Tree) keepOld(old string, x *treeIndex) error {
	root, err := statRecord(t.final)
	if err != nil {
		return err
	}
	x.recs["."] = root
	keep := keepDir(t.final)
	if err := os.Mkdir(keep, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return errors.Join(fmt.Errorf("keep the previous output: %w", err), os.RemoveAll(old))
	}
	if err := checkKeep(t.final); err != nil { // never written through a link
		return errors.Join(err, os.RemoveAll(old))
	}
	spare := filepath.Join(keep, spareName)
	// The new tree's index is written while the old tree is made the spare
	// (each index is written whole or not at all, in either order).
	liveDone := make(chan error, 1)
	go func() { liveDone <- writeIndex(filepath.Join(keep, liveIndex), x) }()
	var removeErr error
	switch {
	case old == "": // there was no tree at --out
	case t.prevLive == nil:
		removeErr = os.RemoveAll(old)
	default:
		if old != spare {
			os.RemoveAll(spare) // nothing there but a leftover
			if err := os.Rename(old, spare); err != nil {
				return errors.Join(fmt.Errorf("keep the previous output: %w", err), os.RemoveAll(old), <-liveDone)
			}
		}
		if r, err := statRecord(spare); err == nil {
			t.prevLive.recs["."] = r
			t.prevLive.input, t.prevLive.report, t.prevLive.sources = "", nil, nil
			removeErr = writeIndex(filepath.Join(keep, spareIndex), t.prevLive)
		}
	}
	return errors.Join(removeErr, <-liveDone)
}

// StatID names the file at name by what an lstat tells (size, inode,
// modification and change time), "" when it cannot: a file replaced or
// changed gets a new one. ctime is its change time (Unix nanoseconds).
func StatID(name string) (id string, ctime int64) {
	r, err := statRecord(name)
	if err != nil {
		return "", 0
	}
	b := make([]byte, 0, 64) // "size ino mtime ctime"
	b = strconv.AppendInt(b, r.size, 10)
	b = strconv.AppendUint(append(b, ' '), r.ino, 10)
	b = strconv.AppendInt(append(b, ' '), r.mtime, 10)
	b = strconv.AppendInt(append(b, ' '), r.ctime, 10)
	return string(b), r.ctime
}

// Written is how many files were written; the others were kept from the
// spare, as they were.
func (t *Tree) Written() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.files - len(t.kept)
}
