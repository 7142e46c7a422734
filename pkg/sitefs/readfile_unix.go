//go:build unix

package sitefs

import "golang.org/x/sys/unix"

// readRegular reads the regular file at full (an absolute path whose
// folders are known to be real) in four system calls: open without
// following a link and without blocking (a FIFO must not hang the build),
// fstat to see that it is a regular file and how large, one read of all of
// it and close. os.ReadFile after an lstat takes seven: the lstat, open,
// two calls to register the file with the network poller that always fail
// for a regular file, fstat and two reads. ok is false whenever the fast
// way does not apply (a link, a missing file, anything but a regular
// file); the caller then takes the careful way, which names the problem.
// A file of more than max bytes (max >= 0) is not read: its error is a
// *TooLargeError, from the same fstat. The bytes are read into buf when it
// has room for them.
func readRegular(full string, buf []byte, max int64) (data []byte, ok bool, err error) {
	fd, err := unix.Open(full, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(full, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, false, nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false, nil
	}
	if max >= 0 && st.Size > max {
		return nil, true, &TooLargeError{Size: st.Size}
	}
	// One byte more than the size: a read that returns exactly the size
	// fstat gave, asked for more, has reached the end, with no second read
	// to see it. Anything else (a file that grew or shrank meanwhile) reads
	// on until a read returns nothing.
	size := int(st.Size)
	if data = buf[:0]; cap(data) < size+1 {
		data = make([]byte, 0, size+1)
	}
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := unix.Read(fd, data[len(data):cap(data)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, true, err
		}
		data = data[:len(data)+n]
		if n == 0 || (len(data) == size && len(data) < cap(data)) {
			return data, true, nil
		}
	}
}
