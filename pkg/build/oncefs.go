package build

import (
	"io/fs"
	"sitegen/pkg/deps"
	"strings"
	"sync"
)

// onceFS reads each static file and source image of the site once per
// build: the build hash, image sizes, file sizes, the image processor and
// the copy into the output all read them, and get the same bytes from one
// read. Other files (read once anyway) and every
// other call pass through, so the checks of the underlying file system
// (sitefs) still apply and pages are not kept in memory.
type onceFS struct {
	fsys  *deps.FS
	mu    sync.Mutex
	files map[string]*onceFile
}

type onceFile struct {
	once sync.Once
	data []byte
	err  error
}

func newOnceFS(fsys *deps.FS) *onceFS { return &onceFS{fsys: fsys, files: map[string]*onceFile{}} }

func (o *onceFS) Open(name string) (fs.File, error) { return o.fsys.Open(name) }

func (o *onceFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(o.fsys, name) }

func (o *onceFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(o.fsys, name) }

// ReadPage reads a page file through the recorder below
// (content.PageReader; pages are read once anyway: not kept).
func (o *onceFS) ReadPage(buf []byte, name, id string, max int64) ([]byte, [32]byte, error) {
	return o.fsys.ReadPage(buf, name, id, max)
}

// ReadFile returns the file's bytes, read at the first call; callers must
// not change them.
func (o *onceFS) ReadFile(name string) ([]byte, error) {
	if !strings.HasPrefix(name, StaticDir+"/") && !strings.HasPrefix(name, ImageDir+"/") {
		return fs.ReadFile(o.fsys, name)
	}
	o.mu.Lock()
	f, ok := o.files[name]
	if !ok {
		f = &onceFile{}
		o.files[name] = f
	}
	o.mu.Unlock()
	f.once.Do(func() { f.data, f.err = fs.ReadFile(o.fsys, name) })
	return f.data, f.err
}
