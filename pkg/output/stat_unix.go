//go:build unix

package output

import (
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// statRecord is the record of the entry at name (not following a link); a
// link or special file is an error.
func statRecord(name string) (record, error) {
	return statRecordAt(unix.AT_FDCWD, name, name)
}

// statRecordAt is statRecord for rel, below the folder open as dirfd
// (name is how errors name it): the path above the folder is not walked
// again for every entry.
func statRecordAt(dirfd int, rel, name string) (record, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, rel, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
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

// statBelow calls each with a function that makes the records of entries
// below root by their slash-separated paths.
func statBelow(root string, each func(stat func(rel string) (record, error))) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		each(func(rel string) (record, error) { return statRecord(filepath.Join(root, filepath.FromSlash(rel))) })
		return
	}
	defer unix.Close(fd)
	each(func(rel string) (record, error) {
		return statRecordAt(fd, filepath.FromSlash(rel), filepath.Join(root, filepath.FromSlash(rel)))
	})
}
