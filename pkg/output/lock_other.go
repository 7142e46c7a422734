//go:build !unix

package output

// lockDir does nothing where flock is not available.
func lockDir(dir string) (func(), error) { return func() {}, nil }
