package devserver

import (
	"bytes"
	"context"
	"io/fs"
	"path"
	"time"

	"sitegen/pkg/devsession"
)

// devFS is the output of the site being served as an fs.FS for the
// hosting handler: a file is what devsession.Session.File gives (rendered when
// asked for), a folder what Session.IsDir says is one.
type devFS struct {
	dev *devsession.Session
	ctx context.Context // the request's
}

func (f devFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if f.dev.IsDir(name) {
		return &memDir{info: memInfo{name: path.Base(name), dir: true}, path: name}, nil
	}
	b, err := f.dev.File(f.ctx, name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{info: memInfo{name: path.Base(name), size: int64(len(b))}, Reader: bytes.NewReader(b)}, nil
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

// memDir is a folder: the hosting handler only asks whether a path is one.
type memDir struct {
	info memInfo
	path string
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Close() error               { return nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: fs.ErrInvalid}
}
