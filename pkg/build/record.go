package build

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"sitegen/pkg/output"
	"sitegen/pkg/sitefs"
)

// A record is what one build read of its site, with a digest of each
// thing as it was read (see the package's trust model in unchanged.go). It
// is filled by recFS, the file layer every read of the site goes through,
// by knownPages for the page files it did not need to read, and, at the
// end, by the files esbuild read (its metafile's inputs). Its keys are
// slash paths below the site folder (or, for files esbuild read outside
// it, absolute paths).
type record struct {
	root  string // the site folder, absolute ("" for a tree not on disk)
	began int64  // when the build began (Unix nanoseconds)
	mu    sync.Mutex
	deps  map[depKey]dep
	// bad says why the record cannot be trusted (a file changed while the
	// build read it, a read that failed for another reason than absence):
	// such a record is not kept, and the next build does all the work.
	bad string
	// dirs are the folders of what it holds, kept in a dev session only
	// (trackFolders).
	dirs map[string]bool
}

type depKind byte

const (
	depFile    depKind = 'f' // a file of the site read: the SHA-256 of its bytes
	depDir     depKind = 'd' // a folder of the site listed: the SHA-256 of its entries' names and kinds
	depStat    depKind = 's' // a path of the site stated: its kind (and a file's size)
	depAbsent  depKind = 'a' // a path of the site looked up and not found
	depOSFile  depKind = 'F' // a file esbuild read (node_modules too): the SHA-256 of its bytes
	depOSDir   depKind = 'D' // a folder holding one: what esbuild resolves could change with it
	depOSGone  depKind = 'A' // a file esbuild looked for and did not find (package-lock.json)
	depProgram depKind = 'p' // a program an encoder runs (avifenc): the SHA-256 of its ID (images.ProgramID)
)

type depKey struct {
	kind depKind
	path string
}

// dep is one dependency as read: id is the lstat (output.StatID) taken
// before it was read, "" when it cannot stand for the bytes (see trusted).
type dep struct {
	id  string
	sum [32]byte
}

func newRecord(root string, began time.Time) *record {
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
	}
	return &record{root: root, began: began.UnixNano(), deps: map[depKey]dep{}}
}

// add notes a dependency; the same one read again with other bytes makes
// the record untrustworthy.
func (r *record) add(k depKey, d dep) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.deps[k]; ok {
		if old.sum != d.sum && r.bad == "" {
			r.bad = k.path + " changed during the build"
		}
		if old.id != d.id {
			old.id = ""
			r.deps[k] = old
		}
		return
	}
	r.deps[k] = d
	r.noteFolder(k)
}

func (r *record) fail(why string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.bad == "" {
		r.bad = why
	}
	r.mu.Unlock()
}

// full is the file system path of a record key.
func (r *record) full(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.root, filepath.FromSlash(p))
}

// id is the lstat of p when it can stand for what is read next: its change
// time is more than two seconds before the build began. A file changed
// twice within the clock's step keeps its times (a coarse file system, or
// the kernel's tick), so a recent change time says nothing.
func (r *record) id(p string) string {
	if r == nil || r.root == "" {
		return ""
	}
	id, ctime := output.StatID(r.full(p))
	return trusted(id, ctime, r.began)
}

func trusted(id string, ctime, began int64) string {
	if id == "" || ctime >= began-2e9 {
		return ""
	}
	return id
}

// listingSum is the digest of a folder's listing.
func listingSum(ents []fs.DirEntry) [32]byte {
	h := sha256.New()
	for _, e := range ents {
		fmt.Fprintf(h, "%s\x00%d\x00", e.Name(), e.Type())
	}
	return [32]byte(h.Sum(nil))
}

// statSum is the digest of what a stat told: the kind and a file's size.
func statSum(st fs.FileInfo) [32]byte {
	size := int64(0)
	if st.Mode().IsRegular() {
		size = st.Size()
	}
	return kindSizeSum(st.Mode().Type(), size)
}

func kindSizeSum(kind fs.FileMode, size int64) [32]byte {
	return sha256.Sum256(fmt.Appendf(nil, "%d %d", kind, size))
}

// recFS is the site's file system with every read recorded: files read
// (ReadFile, Open), folders listed, paths stated and paths found absent.
type recFS struct {
	fsys fs.FS
	rec  *record
}

func (f *recFS) missing(name string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		f.rec.add(depKey{depAbsent, name}, dep{})
		return
	}
	f.rec.fail(fmt.Sprintf("%s: %v", name, err))
}

func (f *recFS) ReadFile(name string) ([]byte, error) {
	id := f.rec.id(name)
	b, err := fs.ReadFile(f.fsys, name)
	if err != nil {
		f.missing(name, err)
		return nil, err
	}
	f.rec.add(depKey{depFile, name}, dep{id: id, sum: sha256.Sum256(b)})
	return b, nil
}

// ReadPage reads a page file of at most max bytes and records it, with
// the identity id when the caller took it before (content.PageReader): the
// same digest stands for the record and for the page (Page.Sum). A larger
// file is not read; what is recorded of it is its kind and size, as a Stat
// records them.
func (f *recFS) ReadPage(buf []byte, name, id string, max int64) ([]byte, [32]byte, error) {
	if id == "" {
		id = f.rec.id(name)
	}
	b, err := readFileBuf(f.fsys, buf, name, max)
	var tl *sitefs.TooLargeError
	switch {
	case errors.As(err, &tl):
		f.rec.add(depKey{depStat, name}, dep{sum: kindSizeSum(0, tl.Size)})
		return nil, [32]byte{}, err
	case err != nil:
		f.missing(name, err)
		return nil, [32]byte{}, err
	}
	sum := sha256.Sum256(b)
	f.rec.add(depKey{depFile, name}, dep{id: id, sum: sum})
	return b, sum, nil
}

// readFileBuf reads a file of fsys of at most max bytes (a larger one is
// not read: a *sitefs.TooLargeError), into buf when fsys can and buf has
// room (sitefs.FS.ReadFileBuf).
func readFileBuf(fsys fs.FS, buf []byte, name string, max int64) ([]byte, error) {
	if r, ok := fsys.(interface {
		ReadFileBuf([]byte, string, int64) ([]byte, error)
	}); ok {
		return r.ReadFileBuf(buf, name, max)
	}
	if st, err := fs.Stat(fsys, name); err == nil && st.Mode().IsRegular() && st.Size() > max {
		return nil, &sitefs.TooLargeError{Size: st.Size()}
	}
	return fs.ReadFile(fsys, name)
}

func (f *recFS) ReadDir(name string) ([]fs.DirEntry, error) {
	id := f.rec.id(name)
	ents, err := fs.ReadDir(f.fsys, name)
	if err != nil {
		f.missing(name, err)
		return nil, err
	}
	f.rec.add(depKey{depDir, name}, dep{id: id, sum: listingSum(ents)})
	return ents, nil
}

func (f *recFS) Stat(name string) (fs.FileInfo, error) {
	st, err := fs.Stat(f.fsys, name)
	if err != nil {
		f.missing(name, err)
		return nil, err
	}
	f.rec.add(depKey{depStat, name}, dep{sum: statSum(st)})
	return st, nil
}

// Open records what the opened file or folder holds, as ReadFile and
// ReadDir do (the build reads through those; this is for the odd caller).
func (f *recFS) Open(name string) (fs.File, error) {
	st, err := f.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		_, err = f.ReadDir(name)
	} else {
		_, err = f.ReadFile(name)
	}
	if err != nil {
		return nil, err
	}
	return f.fsys.Open(name)
}

// loadHash is the build hash (Site.Hash): a digest of every file the load
// read, but the pages' own files (a page's text changes that page alone),
// with sitegen's version, the bundled assets' URLs and the islands
// bundle's hash (esbuild reads those sources itself). What the pages and
// the client runtime show changes with it.
func (r *record) loadHash(pages map[string]bool, extra ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "sitegen %s\n", Version)
	r.mu.Lock()
	var files []string
	for k := range r.deps {
		if k.kind == depFile && !pages[k.path] {
			files = append(files, k.path)
		}
	}
	slices.Sort(files)
	for _, p := range files {
		d := r.deps[depKey{depFile, p}]
		fmt.Fprintf(h, "%q %x\n", p, d.sum)
	}
	r.mu.Unlock()
	for _, e := range extra {
		fmt.Fprintf(h, "%q\n", e)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:20]
}

// addPrograms records the programs outside sitegen whose versions decide
// the image variants (images.Processor.Programs): a new avifenc makes
// other variants, so the next build must not trust an output it made.
func (r *record) addPrograms(ids map[string]string) {
	for name, id := range ids {
		r.add(depKey{depProgram, name}, dep{sum: sha256.Sum256([]byte(id))})
	}
}

// addOS records the files esbuild read (path → the hex SHA-256 it took of
// them, "missing" when there was none) and their folders. prev (the last
// build's record) gives a file's digest while its lstat is unchanged;
// otherwise it is read again, and must be what esbuild read.
func (r *record) addOS(inputs map[string]string, prev map[depKey]dep) {
	dirs := map[string]bool{}
	for _, p := range slices.Sorted(maps.Keys(inputs)) {
		rel := p
		if q, err := filepath.Rel(r.root, p); err == nil && !strings.HasPrefix(q, "..") {
			rel = filepath.ToSlash(q)
		}
		if inputs[p] == "missing" {
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				r.add(depKey{depOSGone, rel}, dep{})
			} else {
				r.fail(p + " appeared during the build")
			}
			continue
		}
		dirs[path.Dir(filepath.ToSlash(rel))] = true
		d, ok := r.osDep(depKey{depOSFile, rel}, prev)
		if !ok || fmt.Sprintf("%x", d.sum) != inputs[p] {
			r.fail(p + " changed during the build")
			continue
		}
		r.add(depKey{depOSFile, rel}, d)
	}
	for dir := range dirs {
		if d, ok := r.osDep(depKey{depOSDir, dir}, prev); ok {
			r.add(depKey{depOSDir, dir}, d)
		} else {
			r.fail(dir + " changed during the build")
		}
	}
}

// osDep reads a file or folder esbuild read, from prev while its lstat is
// the same; false when it is gone or changed after the build began.
func (r *record) osDep(k depKey, prev map[depKey]dep) (dep, bool) {
	id, ctime := output.StatID(r.full(k.path))
	if id == "" || ctime >= r.began {
		return dep{}, false
	}
	if p, ok := prev[k]; ok && p.id != "" && p.id == id {
		return p, true
	}
	sum, err := osSum(k, r.full(k.path))
	if err != nil {
		return dep{}, false
	}
	return dep{id: trusted(id, ctime, r.began), sum: sum}, true
}

// entries are the record's dependencies sorted, "" and none when it cannot
// be trusted.
func (r *record) entries() ([]depEntry, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bad != "" {
		return nil, r.bad
	}
	if r.root == "" {
		return nil, "the site is not a folder"
	}
	out := make([]depEntry, 0, len(r.deps))
	for k, d := range r.deps {
		out = append(out, depEntry{k, d})
	}
	sortEntries(out)
	return out, ""
}

type depEntry struct {
	depKey
	dep
}

func sortEntries(es []depEntry) {
	slices.SortFunc(es, func(a, b depEntry) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return int(a.kind) - int(b.kind)
	})
}

// encodeNotes writes a record's entries for the next build (the output's
// index keeps them: output.Last.Sources).
func encodeNotes(began int64, es []depEntry) []byte {
	b := binary.AppendVarint(nil, began)
	for _, e := range es {
		b = append(b, byte(e.kind))
		for _, v := range []string{e.path, e.id} {
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		}
		b = append(b, e.sum[:]...)
	}
	return b
}
