//go:build !unix

package sitefs

// readRegular has no fast way here: ReadFile always takes the careful one.
func readRegular(full string, buf []byte, max int64) ([]byte, bool, error) { return nil, false, nil }
