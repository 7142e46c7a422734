//go:build !linux

package output

// exchangeDirs has no atomic form here: Commit uses two renames.
func exchangeDirs(a, b string) error { return errExchange }
