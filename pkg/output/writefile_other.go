//go:build !unix

package output

import "os"

func writeNewFile(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }

func writeNewFileStat(name string, data []byte, stat bool) (record, error) {
	if err := writeNewFile(name, data); err != nil || !stat {
		return record{}, err
	}
	return statRecord(name)
}
