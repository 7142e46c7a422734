//go:build !unix

package output

import "io/fs"

// statRecord: without change times and inode numbers a tree cannot be
// trusted unread, so nothing is reused.
func statRecord(name string) (record, error) {
	return record{}, &fs.PathError{Op: "lstat", Path: name, Err: errNotRegular}
}
