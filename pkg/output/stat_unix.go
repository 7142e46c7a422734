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
	r := record{size: st.Size, ino: uint64(st.Ino), mtime: unix.TimespecToNsec(st.Mtim), ctime: unix.TimespecToNsec(st.Ctim)}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		r.dir, r.size = true, 0
	case unix.S_IFREG:
	default:
		return record{}, &fs.PathError{Op: "lstat", Path: name, Err: errNotRegular}
	}
	return r, nil
}
