//go:build unix

package output

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lockOut takes an exclusive lock on the output folder dir (absolute) for
// the length of a build, so a second build into it cannot clean up the
// first one's temporary tree as a leftover, while builds into other
// folders, siblings included, run side by side. The lock is a file named by
// a hash of dir (its parent's links resolved) in the temporary folder's
// sitegen-locks: nothing is written beside the output.
func lockOut(dir string) (func(), error) {
	parent, err := filepath.EvalSymlinks(filepath.Dir(dir))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(filepath.Join(parent, filepath.Base(dir))))
	locks := filepath.Join(os.TempDir(), "sitegen-locks")
	if err := os.MkdirAll(locks, 0o1777); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	os.Chmod(locks, 0o1777) // shared by every user, like the temporary folder (best effort)
	f, err := os.OpenFile(filepath.Join(locks, hex.EncodeToString(sum[:16])), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
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
