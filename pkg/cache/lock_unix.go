//go:build unix

package cache

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive lock on f, held until f is closed.
func lockFile(f *os.File) { unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) }

// abandoned reports whether no process holds the lock of the temporary
// file name (its writer was killed).
func abandoned(name string, _ time.Time) bool {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
}
