//go:build !linux

package output

// spreadFolders has nothing to do outside Linux (see spread_linux.go).
func spreadFolders(dir string) {}
