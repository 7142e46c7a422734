// Package deps records what a build read of its site, as it read it, and
// tells a later build whether all of it is still so: the trust model of
// a warm build (see the package build's unchanged.go for how the output
// uses it). No list of folders says what a site is; what was read is.
package deps

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
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
)

// A Record is what one build read of its site, with a digest of each
// thing as it was read. It is filled by FS, the file layer every read of
// the site goes through, by Add for what was read another way (a page file
// a cache stood for), by AddPrograms for programs run, and, at the end, by
// AddOS with the files esbuild read (its metafile's inputs). Its keys are
// slash paths below the site folder (or, for files esbuild read outside
// it, absolute paths).
type Record struct {
	root  string // the site folder, absolute ("" for a tree not on disk)
	began int64  // when the build began (Unix nanoseconds)
	mu    sync.Mutex
	deps  map[Key]Dep
	// bad says why the record cannot be trusted (a file changed while the
	// build read it, a read that failed for another reason than absence):
	// such a record is not kept, and the next build does all the work.
	bad string
	// dirs are the folders of what it holds, kept in a dev session only
	// (TrackFolders).
	dirs map[string]bool
}

type Kind byte

const (
	File    Kind = 'f' // a file of the site read: the SHA-256 of its bytes
	Dir     Kind = 'd' // a folder of the site listed: the SHA-256 of its entries' names and kinds
	Stat    Kind = 's' // a path of the site stated: its kind (and a file's size)
	Absent  Kind = 'a' // a path of the site looked up and not found
	OSFile  Kind = 'F' // a file esbuild read (node_modules too): the SHA-256 of its bytes
	OSDir   Kind = 'D' // a folder holding one: what esbuild resolves could change with it
	OSGone  Kind = 'A' // a file esbuild looked for and did not find (package-lock.json)
	Program Kind = 'p' // a program an encoder runs (avifenc): the SHA-256 of its ID (images.ProgramID)
)

type Key struct {
	Kind Kind
	Path string
}

// Dep is one dependency as read: id is the lstat (output.StatID) taken
// before it was read, "" when it cannot stand for the bytes (see trusted).
type Dep struct {
	ID  string
	Sum [32]byte
}

// New starts the record of a build of the site in folder root ("" for a
// tree not on disk) that began at began.
func New(root string, began time.Time) *Record {
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
	}
	return &Record{root: root, began: began.UnixNano(), deps: map[Key]Dep{}}
}

// Root is the site folder, absolute; "" for a tree not on disk.
func (r *Record) Root() string { return r.root }

// Began is when the build began, in Unix nanoseconds.
func (r *Record) Began() int64 { return r.began }

// Add notes a dependency; the same one read again with other bytes makes
// the Record untrustworthy.
func (r *Record) Add(k Key, d Dep) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.deps[k]; ok {
		if old.Sum != d.Sum && r.bad == "" {
			r.bad = k.Path + " changed during the build"
		}
		if old.ID != d.ID {
			old.ID = ""
			r.deps[k] = old
		}
		return
	}
	r.deps[k] = d
	r.noteFolder(k)
}

// Fail makes the record untrustworthy, saying why (the first reason is
// kept).
func (r *Record) Fail(why string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.bad == "" {
		r.bad = why
	}
	r.mu.Unlock()
}

// Full is the file system path of a Record key.
func (r *Record) Full(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.root, filepath.FromSlash(p))
}

// ID is the lstat of p when it can stand for what is read next: its change
// time is more than two seconds before the build began. A file changed
// twice within the clock's step keeps its times (a coarse file system, or
// the kernel's tick), so a recent change time says nothing.
func (r *Record) ID(p string) string {
	if r == nil || r.root == "" {
		return ""
	}
	id, ctime := output.StatID(r.Full(p))
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

// LoadHash is a build's hash: a digest of header, of every file the load
// read but pages (a page's text changes that page alone), and of extra
// (the build's: the bundled assets' URLs and the islands bundle's hash,
// whose sources esbuild reads itself). What the pages and the client
// runtime show changes with it.
func (r *Record) LoadHash(header string, pages map[string]bool, extra ...string) string {
	h := sha256.New()
	io.WriteString(h, header)
	r.mu.Lock()
	var files []string
	for k := range r.deps {
		if k.Kind == File && !pages[k.Path] {
			files = append(files, k.Path)
		}
	}
	slices.Sort(files)
	for _, p := range files {
		d := r.deps[Key{File, p}]
		fmt.Fprintf(h, "%q %x\n", p, d.Sum)
	}
	r.mu.Unlock()
	for _, e := range extra {
		fmt.Fprintf(h, "%q\n", e)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:20]
}

// AddPrograms records the programs outside sitegen whose versions decide
// the image variants (images.Processor.Programs): a new avifenc makes
// other variants, so the next build must not trust an output it made.
func (r *Record) AddPrograms(ids map[string]string) {
	for name, id := range ids {
		r.Add(Key{Program, name}, Dep{Sum: sha256.Sum256([]byte(id))})
	}
}

// AddOS records the files esbuild read (path → the hex SHA-256 it took of
// them, "missing" when there was none) and their folders. prev (the last
// build's Record) gives a file's digest while its lstat is unchanged;
// otherwise it is read again, and must be what esbuild read.
func (r *Record) AddOS(inputs map[string]string, prev map[Key]Dep) {
	dirs := map[string]bool{}
	for _, p := range slices.Sorted(maps.Keys(inputs)) {
		rel := p
		if q, err := filepath.Rel(r.root, p); err == nil && !strings.HasPrefix(q, "..") {
			rel = filepath.ToSlash(q)
		}
		if inputs[p] == "missing" {
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				r.Add(Key{OSGone, rel}, Dep{})
			} else {
				r.Fail(p + " appeared during the build")
			}
			continue
		}
		dirs[path.Dir(filepath.ToSlash(rel))] = true
		d, ok := r.osDep(Key{OSFile, rel}, prev)
		if !ok || fmt.Sprintf("%x", d.Sum) != inputs[p] {
			r.Fail(p + " changed during the build")
			continue
		}
		r.Add(Key{OSFile, rel}, d)
	}
	for dir := range dirs {
		if d, ok := r.osDep(Key{OSDir, dir}, prev); ok {
			r.Add(Key{OSDir, dir}, d)
		} else {
			r.Fail(dir + " changed during the build")
		}
	}
}

// osDep reads a file or folder esbuild read, from prev while its lstat is
// the same; false when it is gone or changed after the build began.
func (r *Record) osDep(k Key, prev map[Key]Dep) (Dep, bool) {
	id, ctime := output.StatID(r.Full(k.Path))
	if id == "" || ctime >= r.began {
		return Dep{}, false
	}
	if p, ok := prev[k]; ok && p.ID != "" && p.ID == id {
		return p, true
	}
	sum, err := osSum(k, r.Full(k.Path))
	if err != nil {
		return Dep{}, false
	}
	return Dep{ID: trusted(id, ctime, r.began), Sum: sum}, true
}

// entries are the Record's dependencies sorted, "" and none when it cannot
// be trusted.
func (r *Record) Entries() ([]Entry, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bad != "" {
		return nil, r.bad
	}
	if r.root == "" {
		return nil, "the site is not a folder"
	}
	out := make([]Entry, 0, len(r.deps))
	for k, d := range r.deps {
		out = append(out, Entry{k, d})
	}
	sortEntries(out)
	return out, ""
}

// Entry is one dependency with its key.
type Entry struct {
	Key
	Dep
}

func sortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return int(a.Kind) - int(b.Kind)
	})
}
