// Package output writes the static output tree: into a temporary directory
// beside the target, then swapped into place, so a failed or interrupted
// build leaves the previous output exactly as it was.
//
// Every tree carries a manifest at its root (ManifestName) naming sitegen and
// listing the files it wrote; a build replaces only a folder that is absent,
// empty or marked that way (see Guard).
package output

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"sitegen/pkg/sitepath"
)

// ManifestName is the mark at the root of every tree sitegen writes.
const ManifestName = sitepath.Manifest

// Generator is the manifest's generator field.
const Generator = "sitegen"

// Prefixes of the folders a build keeps beside --out while it runs; a build
// that was killed may leave them behind, and the next one cleans them up.
const (
	tmpPrefix = ".sitegen-tmp-"
	oldPrefix = ".sitegen-old-"
)

// lockPrefix names the lock file a build holds beside --out while it runs
// (lockOut); it stays there between builds.
const lockPrefix = ".sitegen-lock-"

// Manifest is the content of ManifestName. It holds no time stamp, so two
// builds of the same sources stay byte-identical.
type Manifest struct {
	Generator string   `json:"generator"`
	Version   string   `json:"version"`
	Files     []string `json:"files"`
}

// Steps of writing and committing a tree, named for the fault-injection hook.
const (
	StepWriting   = "file-written"     // one more file of the new tree is written
	StepManifest  = "manifest-written" // the new tree is complete beside --out
	StepAside     = "old-moved-aside"  // two-rename swap: --out moved away, new not yet in place
	StepSwapped   = "swapped"          // the new tree is at --out, the old one beside it
	StepOldRemove = "old-removed"      // the old tree is gone
)

// Tree is an output tree being written. WriteFile may be called from many
// goroutines at once: the order of writes never changes the bytes (the
// manifest lists the files sorted).
type Tree struct {
	final   string
	stage   string // the staging folder beside final (removed by Commit and Abort)
	tmp     string // the new tree, inside stage
	version string
	mu      sync.Mutex // guards dirs, names, files, bytes, aborted and touched
	aborted bool       // Abort was called: WriteFile refuses
	// touched: a write or a folder was made in the tree (Keep touches
	// nothing). An untouched spare is kept, with its index, on Abort.
	touched bool
	// dirs are the folders known to hold or to be going to hold more than
	// one entry (Prepare's, and those a second file found existing). A
	// page's own folder, which holds its one file, is made and forgotten:
	// a large site does not keep a map entry per page.
	dirs map[string]bool
	// names are the written paths, each ended by a 0 byte, for the
	// manifest: one growing block rather than a string per file. recs,
	// in a tree that reuses, are their records in the same order (the
	// index's: a file kept from the spare is in kept, its record is the
	// spare's): a block without pointers, which the collector does not
	// scan, where a map by path held a string and an entry per file.
	names  []byte
	recs   []record
	files  int
	bytes  int64
	unlock func()
	// writing counts the WriteFile calls under way, which Abort waits for
	// before it removes the tree (a write racing the removal would make
	// its folder again, and leave a tree behind).
	writing sync.WaitGroup
	// abortOnce makes Abort's removal happen once; stopAbort cancels
	// AbortOn's watch (it reports false when Abort already ran).
	abortOnce sync.Once
	stopAbort func() bool

	// hook, when set, is called at each step of Commit (tests use it to
	// kill the process there).
	hook func(step string)
	// exchange swaps two paths atomically; nil uses the platform's
	// (renameat2 RENAME_EXCHANGE on Linux). A test sets errExchange to force
	// the two-rename fallback.
	exchange func(a, b string) error

	// A tree that reuses (BeginOptions.Reuse; see keepPrefix): keep is
	// the keep folder; reuse the index of the spare the tree is staged in
	// (nil: a new folder); prevLive the index of the tree at final, which
	// becomes the spare; kept the files left as the spare held them
	// (guarded by mu); input and report what Record gave.
	keep     string
	reuse    *treeIndex
	prevLive *treeIndex
	kept     map[string]bool
	input    string
	report   []byte
	sources  []byte
}

// Begin starts a tree that will replace dir on Commit. Leftovers of an
// interrupted build into dir are cleaned up first (see Recover). The caller
// must have checked dir with Guard.
func Begin(dir, version string) (*Tree, error) {
	return BeginWith(dir, version, BeginOptions{})
}

// BeginWith is Begin with options.
func BeginWith(dir, version string, opts BeginOptions) (*Tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", parent, err)
	}
	unlock, err := lockOut(abs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abs, err)
	}
	if err := Recover(abs); err != nil {
		unlock()
		return nil, err
	}
	if err := checkKeep(abs); err != nil {
		unlock()
		return nil, err
	}
	if opts.Reuse {
		t, err := beginReusing(abs, version, unlock, opts.Last)
		if t != nil || err != nil {
			return t, err
		}
	} else if err := os.RemoveAll(keepDir(abs)); err != nil { // kept by a build with the cache
		unlock()
		return nil, fmt.Errorf("remove the kept previous output: %w", err)
	}
	// The new tree is made inside a staging folder beside dir, marked so
	// that the file system places the tree away from the previous output
	// (see spreadFolders), and moved out of it into place on Commit.
	stage, err := os.MkdirTemp(parent, tmpPrefix+besideName(filepath.Base(abs))+"-")
	if err != nil {
		unlock()
		return nil, fmt.Errorf("create temporary output directory: %w", err)
	}
	spreadFolders(stage)
	// A new name each time: ext4 starts its search for the folder's block
	// group from a hash of the name.
	tmp, err := os.MkdirTemp(stage, "tree-")
	if err == nil {
		err = os.Chmod(tmp, 0o755) // whatever the umask: what Commit moves into place
	} else {
		err = fmt.Errorf("create temporary output directory: %w", err)
	}
	if err != nil {
		os.RemoveAll(stage)
		unlock()
		return nil, err
	}
	t := &Tree{final: abs, stage: stage, tmp: tmp, version: version, dirs: map[string]bool{}, unlock: unlock}
	if opts.Reuse {
		t.startIndex(nil, opts.Last)
	}
	return t, nil
}

// beginReusing stages the tree in the spare, when there is one that can be
// trusted; else it returns no tree (the tree is staged in a new folder).
func beginReusing(abs, version string, unlock func(), last *Last) (*Tree, error) {
	keep := keepDir(abs)
	if _, err := os.Lstat(keep); err != nil { // made when a tree is kept (Commit)
		return nil, nil
	}
	spare, x := openSpare(keep)
	if x == nil {
		return nil, nil
	}
	t := &Tree{final: abs, stage: spare, tmp: spare, version: version, dirs: map[string]bool{}, unlock: unlock}
	t.startIndex(x, last)
	return t, nil
}

// startIndex readies a reusing tree's bookkeeping; spare is the index of
// the spare it is staged in, or nil; last what ReadLast read, or nil.
func (t *Tree) startIndex(spare *treeIndex, last *Last) {
	t.keep = keepDir(t.final)
	t.reuse = spare
	t.prevLive = liveIndexOf(t.final, last)
	t.kept = map[string]bool{}
}

// Recover cleans up after a build into dir that was interrupted: when dir is
// missing and an old tree was moved aside, that tree is put back; every other
// leftover (.sitegen-tmp-*, .sitegen-old-* beside dir) is removed.
func Recover(dir string) error {
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	ents, err := os.ReadDir(parent)
	if err != nil {
		return fmt.Errorf("look for leftovers of an interrupted build: %w", err)
	}
	var olds, tmps []string
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() {
			continue
		}
		switch {
		case leftoverOf(name, oldPrefix, base):
			olds = append(olds, filepath.Join(parent, name))
		case leftoverOf(name, tmpPrefix, base):
			tmps = append(tmps, filepath.Join(parent, name))
		}
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		for i, o := range olds {
			if Marked(o) {
				if err := os.Rename(o, dir); err != nil {
					return fmt.Errorf("restore the previous output from %s: %w", o, err)
				}
				olds = append(olds[:i], olds[i+1:]...)
				break
			}
		}
	}
	for _, p := range append(olds, tmps...) {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("remove the leftover %s of an interrupted build: %w", p, err)
		}
	}
	return nil
}

// besideName is the part of the names beside --out that stands for its
// name base: base itself, or, when it is long, its first bytes and a hash
// of the whole, so that a prefix, the name and MkdirTemp's random suffix
// stay within the 255 bytes a file name may have (a 250-byte --out could
// not be built, issue 36).
func besideName(base string) string {
	const keep = 150 // bytes of base kept; the longest prefix is 14, the suffix 11
	if len(base) <= keep+10 {
		return base
	}
	cut := keep
	for cut > 0 && !utf8.RuneStart(base[cut]) {
		cut--
	}
	h := fnv.New32a()
	h.Write([]byte(base))
	return fmt.Sprintf("%s~%08x", base[:cut], h.Sum32())
}

// leftoverOf reports whether name is prefix+base+"-"+random (MkdirTemp's form).
func leftoverOf(name, prefix, base string) bool {
	rest, ok := strings.CutPrefix(name, prefix+besideName(base)+"-")
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Dir is the final directory.
func (t *Tree) Dir() string { return t.final }

// Files and Bytes count what was written.
func (t *Tree) Files() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.files
}

func (t *Tree) Bytes() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bytes
}

func cleanRel(rel string) (string, error) {
	if !fs.ValidPath(rel) { // else already clean: kept, not copied
		rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
	}
	if rel == "" || rel == "." || strings.HasPrefix(rel, "..") || rel == ManifestName {
		return "", fmt.Errorf("invalid output path %q", rel)
	}
	return rel, nil
}

// Prepare creates, once each and in order, every folder that holds another
// folder of the files about to be written (rels: slash-separated paths below
// the root). The leaf folders (one per page) are left to WriteFile, which
// then creates each with a single mkdir, in parallel.
func (t *Tree) Prepare(rels []string) error {
	parents := map[string]bool{}
	size := 0 // of the names of these files
	for _, rel := range rels {
		rel, err := cleanRel(rel)
		if err != nil {
			return err
		}
		size += len(rel) + 1
		for d := path.Dir(path.Dir(rel)); d != "."; d = path.Dir(d) {
			if parents[d] {
				break
			}
			parents[d] = true
		}
	}
	dirs := make([]string, 0, len(parents))
	for d := range parents {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs) // a parent sorts before its children
	if !t.startWrite() {
		return errors.New("the build was stopped")
	}
	defer t.writing.Done()
	for _, d := range dirs {
		if t.reuse != nil && t.reuse.recs[d].dir {
			continue // the spare has it
		}
		p := filepath.Join(t.tmp, filepath.FromSlash(d))
		err := os.Mkdir(p, 0o755)
		if errors.Is(err, fs.ErrExist) && t.reuse != nil {
			err = ensureDir(p)
		} else if errors.Is(err, fs.ErrExist) {
			err = nil
		}
		if err != nil {
			return err
		}
	}
	t.mu.Lock()
	for _, d := range dirs {
		t.dirs[d] = true
	}
	// The files' names (and records) are kept from here on: made once at
	// their size, not grown.
	t.names = slices.Grow(t.names, size)
	if t.keep != "" {
		t.recs = slices.Grow(t.recs, len(rels))
	}
	t.mu.Unlock()
	return nil
}

// WriteFile writes one file; rel is a slash-separated path below the root.
// It is safe for concurrent use.
func (t *Tree) WriteFile(rel string, data []byte) error {
	return t.write(rel, data, nil)
}

// WriteSum is WriteFile for bytes whose Sum the caller knows already.
func (t *Tree) WriteSum(rel string, data []byte, sum [16]byte) error {
	return t.write(rel, data, &sum)
}

// Reuses reports whether the tree is staged in a spare (Keep can keep).
func (t *Tree) Reuses() bool { return t.reuse != nil }

// Holds reports whether the spare the tree is staged in holds a file of
// this size and Sum at rel (Keep would keep it).
func (t *Tree) Holds(rel string, size int, sum [16]byte) bool {
	rel, err := cleanRel(rel)
	return err == nil && t.reusable(rel, size, sum)
}

// Keep records rel as written with the bytes the spare the tree is staged
// in holds there already, when it holds a file of this size and Sum (see
// keepPrefix), and reports whether it did; otherwise the caller writes the
// file. The caller need not have the bytes: a page taken from the cache is
// kept without its page data being made again.
func (t *Tree) Keep(rel string, size int, sum [16]byte) bool {
	rel, err := cleanRel(rel)
	if err != nil || !t.reusable(rel, size, sum) {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.aborted {
		return false
	}
	t.kept[rel] = true
	t.added(rel, size, record{})
	return true
}

// write writes one file; sum, when known, is Sum(data).
func (t *Tree) write(rel string, data []byte, sum *[16]byte) error {
	rel, err := cleanRel(rel)
	if err != nil {
		return err
	}
	if !t.startWrite() {
		return fmt.Errorf("%s: the build was stopped", rel)
	}
	defer t.writing.Done()
	if dir := path.Dir(rel); dir != "." {
		t.mu.Lock()
		known := t.dirs[dir]
		t.mu.Unlock()
		if t.reuse != nil && t.reuse.recs[dir].dir { // the spare has it (read only: no lock)
			known = true
		}
		if !known {
			existed, err := t.mkdir(dir)
			if err != nil {
				return err
			}
			if existed { // a folder shared by files: remember it
				t.mu.Lock()
				t.dirs[dir] = true
				t.mu.Unlock()
			}
		}
	}
	r, kept, err := t.put(rel, data, sum)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if kept {
		t.kept[rel] = true
	}
	t.added(rel, len(data), r)
	return nil
}

// added counts a file of the tree, with its record in a tree that reuses
// (t.mu held).
func (t *Tree) added(rel string, size int, r record) {
	t.names = append(append(t.names, rel...), 0)
	if t.keep != "" {
		t.recs = append(t.recs, r)
	}
	t.files++
	t.bytes += int64(size)
	t.step(StepWriting)
}

// startWrite counts a write under way, unless Abort was called (false);
// the caller calls t.writing.Done when it is done.
func (t *Tree) startWrite() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.aborted {
		return false
	}
	t.writing.Add(1)
	t.touched = true
	return true
}

// put writes one file of the tree, or leaves it when the spare the tree is
// staged in holds these bytes there already (kept); known, when set, is
// Sum(data). In a tree that reuses, r is the file's record as written,
// with its Sum, for the index.
func (t *Tree) put(rel string, data []byte, known *[16]byte) (r record, kept bool, err error) {
	p := filepath.Join(t.tmp, filepath.FromSlash(rel))
	if t.keep == "" {
		return record{}, false, writeNewFile(p, data)
	}
	var sum [16]byte
	if known != nil {
		sum = *known
	} else {
		sum = Sum(data)
	}
	if t.reusable(rel, len(data), sum) {
		return record{sum: sum}, true, nil
	}
	if t.reuse != nil {
		if err := replaceEntry(p); err != nil {
			return record{}, false, err
		}
	}
	if r, err = writeNewFileStat(p, data, true); err != nil {
		return record{}, false, err
	}
	r.sum = sum
	return r, false, nil
}

// mkdir creates dir with one system call when its parent exists (Prepare
// made sure of that for planned files), else with its missing parents. It
// reports whether dir existed already.
func (t *Tree) mkdir(dir string) (existed bool, err error) {
	p := filepath.Join(t.tmp, filepath.FromSlash(dir))
	err = os.Mkdir(p, 0o755)
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, fs.ErrExist) && t.reuse != nil:
		return true, ensureDir(p)
	case errors.Is(err, fs.ErrExist):
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, os.MkdirAll(p, 0o755)
	}
	return false, err
}

// Abort removes the temporary tree; the previous output stays untouched.
// It may be called more than once, from any goroutine (on Ctrl+C, while
// pages are still written): it refuses writes from then on, waits for the
// ones under way (each one file) and removes the tree; later calls return
// when the first is done. A spare the tree was staged in but nothing was
// written to yet (a build that stopped at errors in the site) is not
// removed: its index is put back, and the next build reuses it.
func (t *Tree) Abort() {
	t.mu.Lock()
	t.aborted = true
	t.mu.Unlock()
	t.abortOnce.Do(func() {
		t.writing.Wait()
		t.mu.Lock()
		untouched := !t.touched
		t.mu.Unlock()
		if untouched && t.reuse != nil && t.stage == filepath.Join(t.keep, spareName) &&
			writeIndex(filepath.Join(t.keep, spareIndex), t.reuse) == nil {
			t.release()
			return
		}
		os.RemoveAll(t.stage)
		t.release()
	})
}

// AbortOn aborts the tree as soon as ctx is done (Ctrl+C), while the build
// may still be busy elsewhere: writes are refused from then on and the
// temporary tree is removed at once. Commit no longer aborts once it has
// started.
func (t *Tree) AbortOn(ctx context.Context) {
	t.stopAbort = context.AfterFunc(ctx, t.Abort)
}

func (t *Tree) release() {
	t.mu.Lock()
	unlock := t.unlock
	t.unlock = nil
	t.mu.Unlock()
	if unlock != nil {
		unlock()
	}
}

func (t *Tree) step(name string) {
	if t.hook != nil {
		t.hook(name)
	}
}

// Commit writes the manifest and swaps the new tree into place. At no
// instant is the final directory missing where the platform can exchange two
// directories atomically (Linux); elsewhere it is missing between two
// renames, and the next build restores it if the process dies there.
func (t *Tree) Commit() error {
	if t.stopAbort != nil && !t.stopAbort() {
		return errors.New("the build was stopped; its temporary tree is removed")
	}
	defer t.release()
	t.mu.Lock()
	t.touched = true // from here on the spare changes, whatever happens
	t.mu.Unlock()
	idx, err := t.finishTree()
	if err != nil {
		t.Abort()
		return err
	}
	t.step(StepManifest)
	if _, err := os.Lstat(t.final); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(t.tmp, t.final); err != nil {
			t.Abort()
			return fmt.Errorf("move new output into place: %w", err)
		}
		t.step(StepSwapped)
		if t.stage != t.tmp {
			os.Remove(t.stage)
		}
		if idx != nil {
			return t.keepOld("", idx)
		}
		return nil
	}
	old, err := t.swap()
	if err != nil {
		t.Abort()
		return err
	}
	t.step(StepSwapped)
	return t.dropOld(old, idx)
}

// finishTree writes the manifest into the new tree and, with a spare kept,
// prunes the spare and returns the index of the new tree.
func (t *Tree) finishTree() (*treeIndex, error) {
	// The names point into the block (no copy each): it is not written
	// to again.
	names := make([]string, 0, t.files)
	for rest := t.names; len(rest) > 0; {
		i := bytes.IndexByte(rest, 0)
		names = append(names, unsafe.String(&rest[0], i))
		rest = rest[i+1:]
	}
	recs := t.recs
	t.names, t.recs = nil, nil
	// The manifest is made while the spare is pruned (it lists the files
	// sorted: a copy of the names is).
	type manifest struct {
		b   []byte
		err error
	}
	made := make(chan manifest, 1)
	go func() {
		sorted := slices.Clone(names)
		sort.Strings(sorted)
		m, err := json.MarshalIndent(Manifest{Generator: Generator, Version: t.version, Files: sorted}, "", "  ")
		made <- manifest{append(m, '\n'), err}
	}()
	var dirs map[string]bool
	var removed []string
	var pruneErr error
	if t.keep != "" {
		dirs = parents(names, ManifestName)
		removed, pruneErr = t.pruneSpare(names, dirs)
	}
	m := <-made
	if err := cmp.Or(m.err, pruneErr); err != nil {
		return nil, err
	}
	mrec, kept, err := t.put(ManifestName, m.b, nil)
	if err != nil {
		return nil, fmt.Errorf("write the output manifest: %w", err)
	}
	if t.keep == "" {
		return nil, nil
	}
	t.mu.Lock()
	if kept {
		t.kept[ManifestName] = true
	}
	t.mu.Unlock()
	return t.index(written{names, recs, mrec}, dirs, removed)
}

// swap exchanges the new tree with the output in place and returns where
// the old tree now is.
func (t *Tree) swap() (string, error) {
	exchange := t.exchange
	if exchange == nil {
		exchange = exchangeDirs
	}
	err := exchange(t.tmp, t.final)
	if err == nil {
		return t.tmp, nil // the old tree sits at the temporary name
	}
	if !errors.Is(err, errExchange) {
		return "", fmt.Errorf("swap the new output into place: %w", err)
	}
	// Two renames: --out is missing in between.
	o, err := os.MkdirTemp(filepath.Dir(t.final), oldPrefix+besideName(filepath.Base(t.final))+"-")
	if err != nil {
		return "", err
	}
	os.Remove(o)
	if err := os.Rename(t.final, o); err != nil {
		return "", fmt.Errorf("move old output aside: %w", err)
	}
	t.step(StepAside)
	if err := os.Rename(t.tmp, t.final); err != nil {
		os.Rename(o, t.final)
		return "", fmt.Errorf("move new output into place: %w", err)
	}
	return o, nil
}

// dropOld keeps the old tree as the spare (idx set) or removes it.
func (t *Tree) dropOld(old string, idx *treeIndex) error {
	if idx != nil {
		err := t.keepOld(old, idx)
		if t.stage != t.tmp {
			os.Remove(t.stage)
		}
		t.step(StepOldRemove)
		return err
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("remove the previous output %s: %w", old, err)
	}
	if err := os.Remove(t.stage); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove the staging folder %s: %w", t.stage, err)
	}
	t.step(StepOldRemove)
	return nil
}

// errExchange means the platform or file system cannot exchange two paths
// atomically; Commit falls back to two renames.
var errExchange = errors.New("atomic exchange not supported")

// ReadManifest reads the mark at the root of dir.
func ReadManifest(dir string) (*Manifest, error) {
	f := filepath.Join(dir, ManifestName)
	st, err := os.Lstat(f)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > 64<<20 {
		return nil, fmt.Errorf("%s is not a sitegen manifest", f)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	if m.Generator != Generator {
		return nil, fmt.Errorf("%s names generator %q, not %q", f, m.Generator, Generator)
	}
	return &m, nil
}

// Marked reports whether dir carries sitegen's mark. Only the manifest's
// generator is read (its list of files may be long).
func Marked(dir string) bool {
	f := filepath.Join(dir, ManifestName)
	st, err := os.Lstat(f)
	if err != nil || !st.Mode().IsRegular() || st.Size() > 64<<20 {
		return false
	}
	file, err := os.Open(f)
	if err != nil {
		return false
	}
	defer file.Close()
	dec := json.NewDecoder(file)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		if key == "generator" {
			var g string
			return dec.Decode(&g) == nil && g == Generator
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}
