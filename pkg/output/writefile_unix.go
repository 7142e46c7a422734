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
	fd, err := unix.Open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644)
	for err == unix.EINTR {
		fd, err = unix.Open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644)
	}
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
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
			return &fs.PathError{Op: "write", Path: name, Err: err}
		}
		data = data[n:]
	}
	if err := unix.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}
