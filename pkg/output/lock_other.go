//go:build !unix

package output

// noFollow: no O_NOFOLLOW here (the keep folder is still checked with
// Lstat before it is used).
const noFollow = 0

// lockOut does nothing where flock is not available.
func lockOut(dir string) (func(), error) { return func() {}, nil }
