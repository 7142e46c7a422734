//go:build unix

package output

import (
	"io"
	"io/fs"

	"golang.org/x/sys/unix"
)

// writeNewFile writes data to name like os.WriteFile, in three system calls:
// os.OpenFile also tries to register every file with the network poller
// (two more calls that always fail for a regular file), which a build that
// writes tens of thousands of files pays for on each one.
func writeNewFile(name string, data []byte) error {
	_, err := writeNewFileStat(name, data, false)
	return err
}

// writeNewFileStat is writeNewFile; with stat it also returns the new
// file's record, from the open file (no second lookup of its path).
func writeNewFileStat(name string, data []byte, stat bool) (record, error) {
	fd, err := unix.Open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644)
	for err == unix.EINTR {
		fd, err = unix.Open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644)
	}
	if err != nil {
		return record{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if err == unix.EINTR {
			continue
		}
		if err == nil && n == 0 {
			err = io.ErrShortWrite
		}
		if err != nil {
			unix.Close(fd)
			return record{}, &fs.PathError{Op: "write", Path: name, Err: err}
		}
		data = data[n:]
	}
	var r record
	if stat {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			unix.Close(fd)
			return record{}, &fs.PathError{Op: "fstat", Path: name, Err: err}
		}
		r = recordOf(&st)
	}
	if err := unix.Close(fd); err != nil {
		return record{}, &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return r, nil
}
