//go:build !unix

package output

import "os"

func writeNewFile(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }
