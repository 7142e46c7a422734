//go:build !unix

package output

import (
	"io/fs"
	"path/filepath"
)

// statRecord: without change times and inode numbers a tree cannot be
// trusted unread, so nothing is reused.
func statRecord(name string) (record, error) {
	return record{}, &fs.PathError{Op: "lstat", Path: name, Err: errNotRegular}
}

// statBelow calls each with a function that makes the records of entries
// below root by their slash-separated paths.
func statBelow(root string, each func(stat func(rel string) (record, error))) {
	each(func(rel string) (record, error) { return statRecord(filepath.Join(root, filepath.FromSlash(rel))) })
}
