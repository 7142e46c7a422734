//go:build linux

package output

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchangeDirs swaps a and b in one step (renameat2 RENAME_EXCHANGE), so
// neither path is ever missing. File systems without the flag report
// errExchange.
func exchangeDirs(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return errExchange
	}
	return err
}
