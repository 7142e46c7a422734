//go:build unix

package output

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// statRecord is the record of the entry at name (not following a link); a
// link or special file is an error.
func statRecord(name string) (record, error) {
	var st unix.Stat_t
	if err := unix.Lstat(name, &st); err != nil {
		return record{}, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	r := recordOf(&st)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR, unix.S_IFREG:
	default:
		return record{}, &fs.PathError{Op: "lstat", Path: name, Err: errNotRegular}
	}
	return r, nil
}

// recordOf is the record of what a stat returned (a folder's size is left
// out: it says nothing of its entries).
func recordOf(st *unix.Stat_t) record {
	r := record{size: st.Size, ino: uint64(st.Ino), mtime: unix.TimespecToNsec(st.Mtim), ctime: unix.TimespecToNsec(st.Ctim)}
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		r.dir, r.size = true, 0
	}
	return r
}
