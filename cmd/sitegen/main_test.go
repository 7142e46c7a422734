package main

import (
	"runtime"
	"testing"
)

// TestSparePForSignals: sitegen runs with one P more than Go's default,
// so the image encodes (images.EncodeWorkers, one fewer than GOMAXPROCS)
// still take every core; a GOMAXPROCS the user set is kept.
func TestSparePForSignals(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range []struct {
		env        string
		from, want int
	}{
		{"", 2, 3},
		{"", 1, 2},
		{"2", 2, 2},
	} {
		t.Setenv("GOMAXPROCS", tc.env)
		runtime.GOMAXPROCS(tc.from)
		sparePForSignals()
		if got := runtime.GOMAXPROCS(0); got != tc.want {
			t.Errorf("GOMAXPROCS=%q, %d Ps: %d after sparePForSignals, want %d", tc.env, tc.from, got, tc.want)
		}
	}
}
