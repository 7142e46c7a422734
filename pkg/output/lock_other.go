//go:build !unix

package output

// lockOut does nothing where flock is not available.
func lockOut(dir string) (func(), error) { return func() {}, nil }
