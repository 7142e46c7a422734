// Package sitefs is the file system a build reads a site from. In the
// folders authors write (content/, templates/, assets/, and site.yaml) it
// reads regular files only: a named pipe, device or socket is an error naming
// it (checked before opening, so a build never blocks on one), a symbolic
// link that resolves outside the site folder is refused (never published),
// and a link loop is an error naming the path. Other paths (node_modules/,
// package-lock.json) are read as they are, regular files only.
package sitefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"sitegen/pkg/diag"
)

// Guarded are the paths of a site that authors write; links in them must
// stay inside the site.
var Guarded = []string{"content", "templates", "assets", "site.yaml"}

// FS reads a site folder.
type FS struct {
	root     string // as given
	resolved string // absolute, links resolved
	dir      fs.FS

	// Folders of the guarded paths found to be real folders (no link on
	// the way from the root), so that reading a file below one costs one
	// lstat of the file instead of resolving every part of its path.
	mu   sync.RWMutex
	real map[string]bool
}

// New returns the file system of the site at root.
func New(root string) (*FS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("site folder %s: %w", root, err)
	}
	return &FS{root: root, resolved: resolved, dir: os.DirFS(resolved), real: map[string]bool{}}, nil
}

// Forget drops what the FS learnt about folders; a long-lived FS (the dev
// server's) calls it before each rebuild, since a folder may since have
// been replaced by a link.
func (f *FS) Forget() {
	f.mu.Lock()
	clear(f.real)
	f.mu.Unlock()
}

func guarded(name string) bool {
	first, _, _ := strings.Cut(name, "/")
	for _, g := range Guarded {
		if first == g {
			return true
		}
	}
	return false
}

// check returns the error for reading name, or nil when it is a regular
// file or a folder inside the site.
func (f *FS) check(op, name string) error {
	if err := BadName(name); err != nil {
		return &fs.PathError{Op: op, Path: diag.QuoteBadName(name), Err: err}
	}
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	full := filepath.Join(f.resolved, filepath.FromSlash(name))
	target := full
	if guarded(name) {
		if plain, err := f.plain(op, name, full); plain {
			return err
		}
		r, err := filepath.EvalSymlinks(full)
		if err != nil {
			return &fs.PathError{Op: op, Path: name, Err: linkError(err)}
		}
		if r != full && !within(f.resolved, r) {
			return &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("it is a symbolic link to %s, outside the site folder; it is not read or published", r)}
		}
		target = r
	}
	st, err := os.Stat(target)
	if err != nil {
		return &fs.PathError{Op: op, Path: name, Err: linkError(err)}
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("it is %s, not a regular file; only regular files are read", Kind(st.Mode()))}
	}
	return nil
}

// plain checks name without resolving links when no part of its path is a
// link: it reports whether that was so and, if it was, the error for
// reading name (nil for a regular file or folder). Anything else (a link on
// the way, a missing file) is left to the full check, which names it.
func (f *FS) plain(op, name, full string) (bool, error) {
	if dir := path.Dir(name); dir != "." && !f.realDir(dir) {
		return false, nil
	}
	st, err := os.Lstat(full)
	if err != nil {
		return false, nil
	}
	switch m := st.Mode(); {
	case m.IsRegular():
		return true, nil
	case m.IsDir():
		f.mu.Lock()
		f.real[name] = true
		f.mu.Unlock()
		return true, nil
	case m&fs.ModeSymlink != 0:
		return false, nil
	default:
		return true, &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("it is %s, not a regular file; only regular files are read", Kind(m))}
	}
}

// realDir reports whether dir (a slash path below the root) and each
// folder above it are real folders, not links.
func (f *FS) realDir(dir string) bool {
	f.mu.RLock()
	ok := f.real[dir]
	f.mu.RUnlock()
	if ok {
		return true
	}
	if parent := path.Dir(dir); parent != "." && !f.realDir(parent) {
		return false
	}
	st, err := os.Lstat(filepath.Join(f.resolved, filepath.FromSlash(dir)))
	if err != nil || !st.IsDir() {
		return false
	}
	f.mu.Lock()
	f.real[dir] = true
	f.mu.Unlock()
	return true
}

// linkError names a link loop plainly.
func linkError(err error) error {
	var pe *fs.PathError
	if strings.Contains(err.Error(), "too many links") || strings.Contains(err.Error(), "too many levels of symbolic links") {
		return errors.New("symbolic link loop")
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fs.ErrNotExist
	}
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Open opens a regular file or folder after checking it.
func (f *FS) Open(name string) (fs.File, error) {
	if err := f.check("open", name); err != nil {
		return nil, err
	}
	return f.dir.Open(name)
}

// Stat describes name after checking it.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	if err := f.check("stat", name); err != nil {
		return nil, err
	}
	return fs.Stat(f.dir, name)
}

// ReadDir lists a folder (entries are not followed: links show as links).
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.check("readdir", name); err != nil {
		return nil, err
	}
	return fs.ReadDir(f.dir, name)
}

// ReadFile reads a regular file after checking it.
func (f *FS) ReadFile(name string) ([]byte, error) { return f.ReadFileBuf(nil, name, -1) }

// TooLargeError is ReadFileBuf's error for a file larger than its bound:
// the file was not read.
type TooLargeError struct{ Size int64 }

func (e *TooLargeError) Error() string { return fmt.Sprintf("the file has %d bytes", e.Size) }

// ReadFileBuf reads the file name of fsys, of at most max bytes (max < 0:
// any size), into buf when fsys can and buf has room for it (an *FS can:
// FS.ReadFileBuf). A larger file is not read: its error is a
// *TooLargeError with its size.
func ReadFileBuf(fsys fs.FS, buf []byte, name string, max int64) ([]byte, error) {
	if r, ok := fsys.(interface {
		ReadFileBuf([]byte, string, int64) ([]byte, error)
	}); ok {
		return r.ReadFileBuf(buf, name, max)
	}
	if max >= 0 {
		if st, err := fs.Stat(fsys, name); err == nil && st.Mode().IsRegular() && st.Size() > max {
			return nil, &TooLargeError{Size: st.Size()}
		}
	}
	return fs.ReadFile(fsys, name)
}

// ReadFileBuf is ReadFile for a file of at most max bytes (max < 0: any
// size), read into buf when it has room for the file (a caller's buffer,
// used again once it is done with the bytes; a build reads each page
// twice, and 50,000 pages read 480 MB so). A larger file is not read, and
// its error is a *TooLargeError with its size, told by the fstat the read
// makes anyway: a Stat before the read cost two more system calls per
// page.
func (f *FS) ReadFileBuf(buf []byte, name string, max int64) ([]byte, error) {
	if fs.ValidPath(name) && guarded(name) {
		if dir := path.Dir(name); dir != "." && f.realDir(dir) {
			b, ok, err := readRegular(filepath.Join(f.resolved, filepath.FromSlash(name)), buf, max)
			if ok {
				var tl *TooLargeError
				if err != nil && !errors.As(err, &tl) {
					return nil, &fs.PathError{Op: "read", Path: name, Err: err}
				}
				return b, err
			}
		}
	}
	if err := f.check("read", name); err != nil {
		return nil, err
	}
	return ReadFileBuf(f.dir, nil, name, max)
}

// Check walks the guarded folders and reports, all at once and sorted, every
// entry a build would refuse: what is not a regular file or folder, links
// that leave the site, broken links, links to folders and link loops. Hidden
// entries (".name") are never read and are not checked, so an editor's lock
// link does not break a build.
func (f *FS) Check() diag.List {
	return f.CheckPaths(Guarded)
}

// CheckPaths is Check for the given slash paths (files or folders, present
// or gone) only: the dev server checks what changed, so that a named pipe
// or link that appears while it runs is reported as a build reports it.
// Paths outside the guarded folders, hidden ones and missing ones are
// skipped.
func (f *FS) CheckPaths(names []string) diag.List {
	var errs diag.List
	for _, name := range names {
		if !guarded(name) || !fs.ValidPath(name) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(f.resolved, filepath.FromSlash(name))); err != nil {
			continue
		}
		errs = append(errs, f.checkTree(name)...)
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Pos.File < errs[j].Pos.File })
	return errs
}

// checkTree reports the entries a build would refuse at or below root.
func (f *FS) checkTree(root string) diag.List {
	var errs diag.List
	p := filepath.Join(f.resolved, filepath.FromSlash(root))
	st, err := os.Lstat(p)
	if err != nil {
		errs.Addf(diag.Pos{File: root}, "cannot read: %v", linkError(err))
		return errs
	}
	f.checkEntry(&errs, p, fs.FileInfoToDirEntry(st))
	return errs
}

// checkEntry checks the entry d at p, and what is below it when it is a
// folder. A folder's entries are taken as the system lists them (what is
// reported is sorted after), and the path of a regular file or folder
// that is not hidden is made only to read a folder: most entries are such
// files.
func (f *FS) checkEntry(errs *diag.List, p string, d fs.DirEntry) {
	rel, _ := filepath.Rel(f.resolved, p)
	rel = filepath.ToSlash(rel)
	if strings.HasPrefix(d.Name(), ".") && !slices.Contains(Guarded, rel) {
		return
	}
	if d.IsDir() {
		entries, err := readDirUnsorted(p)
		if err != nil {
			errs.Addf(diag.Pos{File: rel}, "cannot read: %v", linkError(err))
		}
		for _, e := range entries {
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
				continue
			}
			f.checkEntry(errs, filepath.Join(p, e.Name()), e)
		}
		return
	}
	m := d.Type()
	switch {
	case m.IsRegular():
	case m&fs.ModeSymlink != 0:
		r, err := filepath.EvalSymlinks(p)
		switch {
		case err != nil && errors.Is(err, fs.ErrNotExist):
			errs.Add(diag.New(diag.Pos{File: rel}, "broken symbolic link").WithHint("remove it or point it at a file inside the site"))
		case err != nil:
			errs.Add(diag.New(diag.Pos{File: rel}, "%v", linkError(err)))
		case !within(f.resolved, r):
			target, _ := os.Readlink(p)
			errs.Add(diag.New(diag.Pos{File: rel}, "symbolic link to %s points outside the site folder; it is not read or published", target).
				WithHint("copy the file into the site if it belongs there"))
		default:
			st, err := os.Stat(r)
			switch {
			case err != nil:
				errs.Addf(diag.Pos{File: rel}, "cannot read: %v", err)
			case st.IsDir():
				errs.Add(diag.New(diag.Pos{File: rel}, "symbolic link to a folder; links to folders are not followed").WithHint("link the files, or move the folder here"))
			case !st.Mode().IsRegular():
				errs.Addf(diag.Pos{File: rel}, "symbolic link to %s, which is %s, not a regular file", r, Kind(st.Mode()))
			}
		}
	default:
		errs.Add(diag.New(diag.Pos{File: rel}, "%s, not a regular file; only regular files are read", Kind(m)).
			WithHint("remove it from the site folder"))
	}
}

// readDirUnsorted lists the folder at p in the order the system gives.
func readDirUnsorted(p string) ([]fs.DirEntry, error) {
	d, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// Kind names a file mode for a message ("a named pipe").
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

var _ interface {
	fs.ReadDirFS
	fs.ReadFileFS
	fs.StatFS
} = (*FS)(nil)

// BadName says what is wrong with a name that is not valid UTF-8 or holds
// a control character, or returns nil: sitegen reads, links and publishes
// UTF-8 names only (an invalid one was refused as "invalid argument",
// printed as raw bytes, issue 36).
func BadName(name string) error {
	for i, r := range name {
		if r == utf8.RuneError && !strings.HasPrefix(name[i:], "\uFFFD") {
			return fmt.Errorf("the file name is not valid UTF-8 (byte 0x%02x at byte %d of the path); rename it", name[i], i)
		}
		if unicode.IsControl(r) {
			return fmt.Errorf("the file name holds the control character %U; rename it", r)
		}
	}
	return nil
}
