//go:build !unix

package forms

// freeBytes: not measured here (ProbeWrite's commit alone is the check).
func freeBytes(string) (int64, bool) { return 0, false }
