package deps

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"

	"sitegen/pkg/sitefs"
)

// FS is the site's file system with every read recorded: files read
// (ReadFile, Open), folders listed, paths stated and paths found absent.
type FS struct {
	fsys fs.FS
	rec  *Record
}

// NewFS is fsys with every read recorded in rec.
func NewFS(fsys fs.FS, rec *Record) *FS { return &FS{fsys: fsys, rec: rec} }

// Unrecorded is the file system below the recorder.
func (f *FS) Unrecorded() fs.FS { return f.fsys }

// Record is where the reads are recorded.
func (f *FS) Record() *Record { return f.rec }

func (f *FS) missing(name string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		f.rec.Add(Key{Absent, name}, Dep{})
		return
	}
	f.rec.Fail(fmt.Sprintf("%s: %v", name, err))
}

func (f *FS) ReadFile(name string) ([]byte, error) {
	id := f.rec.ID(name)
	b, err := fs.ReadFile(f.fsys, name)
	if err != nil {
		f.missing(name, err)
		return nil, err
	}
	f.rec.Add(Key{File, name}, Dep{ID: id, Sum: sha256.Sum256(b)})
	return b, nil
}

// ReadPage reads a page file of at most max bytes and records it, with
// the identity id when the caller took it before (content.PageReader): the
// same digest stands for the Record and for the page (Page.Sum). A larger
// file is not read; what is recorded of it is its kind and size, as a Stat
// records them.
func (f *FS) ReadPage(buf []byte, name, id string, max int64) ([]byte, [32]byte, error) {
	if id == "" {
		id = f.rec.ID(name)
	}
	b, err := sitefs.ReadFileBuf(f.fsys, buf, name, max)
	var tl *sitefs.TooLargeError
	switch {
	case errors.As(err, &tl):
		f.rec.Add(Key{Stat, name}, Dep{Sum: kindSizeSum(0, tl.Size)})
		return nil, [32]byte{}, err
	case err != nil:
		f.missing(name, err)
		return nil, [32]byte{}, err
	}
	sum := sha256.Sum256(b)
	f.rec.Add(Key{File, name}, Dep{ID: id, Sum: sum})
	return b, sum, nil
}

func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	id := f.rec.ID(name)
	ents, err := fs.ReadDir(f.fsys, name)
	if err != nil {
		f.missing(name, err)
		return nil, err
	}
	f.rec.Add(Key{Dir, name}, Dep{ID: id, Sum: listingSum(ents)})
	return ents, nil
}

func (f *FS) Stat(name string) (fs.FileInfo, error) {
	st, err := fs.Stat(f.fsys, name)
	if err != nil {
		f.missing(name, err)
		return nil, err
	}
	f.rec.Add(Key{Stat, name}, Dep{Sum: statSum(st)})
	return st, nil
}

// Open records what the opened file or folder holds, as ReadFile and
// ReadDir do (the build reads through those; this is for the odd caller).
func (f *FS) Open(name string) (fs.File, error) {
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
