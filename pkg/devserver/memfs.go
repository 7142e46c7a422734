package devserver

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// memFS is an immutable in-memory output tree: the dev server's equivalent of
// the public/ folder. Paths are slash paths without a leading slash.
type memFS struct {
	files map[string][]byte
	dirs  map[string][]string // dir -> sorted child names ("." is the root)
}

// update returns the tree with files as content, reusing m's folder index
// when none of the changed paths was added or removed.
func (m *memFS) update(files map[string][]byte, changed []string) *memFS {
	if m == nil {
		return newMemFS(files)
	}
	for _, p := range changed {
		_, was := m.files[p]
		_, is := files[p]
		if was != is {
			return newMemFS(files)
		}
	}
	return &memFS{files: files, dirs: m.dirs}
}

func newMemFS(files map[string][]byte) *memFS {
	m := &memFS{files: files, dirs: map[string][]string{".": nil}}
	children := map[string]map[string]bool{}
	for name := range files {
		for child := name; child != "."; {
			dir := path.Dir(child)
			set := children[dir]
			if set == nil {
				set = map[string]bool{}
				children[dir] = set
			}
			if set[path.Base(child)] {
				break // the rest of the chain is known
			}
			set[path.Base(child)] = true
			child = dir
		}
	}
	for dir, set := range children {
		names := make([]string, 0, len(set))
		for n := range set {
			names = append(names, n)
		}
		sort.Strings(names)
		m.dirs[dir] = names
	}
	return m
}

func (m *memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if b, ok := m.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(b))}, Reader: bytes.NewReader(b)}, nil
	}
	if kids, ok := m.dirs[name]; ok {
		return &memDir{info: memInfo{name: path.Base(name), dir: true}, fsys: m, path: name, kids: kids}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (m *memFS) ReadFile(name string) ([]byte, error) {
	if b, ok := m.files[name]; ok {
		return bytes.Clone(b), nil
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	if b, ok := m.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(b))}, nil
	}
	if _, ok := m.dirs[name]; ok {
		return memInfo{name: path.Base(name), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	*bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type memDir struct {
	info memInfo
	fsys *memFS
	path string
	kids []string
	read int
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Close() error               { return nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: fs.ErrInvalid}
}

func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.kids[d.read:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && len(rest) > n {
		rest = rest[:n]
	}
	out := make([]fs.DirEntry, len(rest))
	for i, k := range rest {
		st, _ := d.fsys.Stat(strings.TrimPrefix(path.Join(d.path, k), "./"))
		out[i] = fs.FileInfoToDirEntry(st)
	}
	d.read += len(rest)
	return out, nil
}
