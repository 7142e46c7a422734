//go:build unix

package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// noFollow makes an open fail on a symbolic link instead of following it.
const noFollow = syscall.O_NOFOLLOW

// lockOut takes an exclusive lock on the output folder dir (absolute) for
// the length of a build, so a second build into it cannot clean up the
// first one's temporary tree as a leftover, while builds into other
// folders, siblings included, run side by side. The lock is the file
// .sitegen-lock-<out> beside dir (see lockName): where --out is, so two
// builds into one folder meet there whatever their temporary folders. It
// is opened without following a link: a link planted there is refused.
func lockOut(dir string) (func(), error) {
	name := lockName(dir)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|noFollow|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link, not sitegen's lock file; sitegen does not follow it: remove it and build again", name)
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file: remove it and build again", name)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("another sitegen build is writing into it; wait for it to end")
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}

// lockName is the lock file of the output folder dir (absolute).
func lockName(dir string) string {
	return filepath.Join(filepath.Dir(dir), lockPrefix+besideName(filepath.Base(dir)))
}
