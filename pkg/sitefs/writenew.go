package sitefs

import (
	"os"
	"path/filepath"
)

// WriteNew writes b to a new file at p (mode 0644), making its folders: the
// way author tools (sitegen init, sitegen new) add files to a site. It never
// replaces a file: an existing one is an error (fs.ErrExist), and a file it
// could not write whole is removed, so no half-written page is left behind.
func WriteNew(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return err
	}
	return nil
}
