package main

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
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

// TestStoppedBuildKeepsCollectionsOff: once a build is stopped, the
// collector stays off (noMoreCollections) when the build's settings are
// undone; restoring GOGC=100 there started a collection that waited for
// the encodes under way.
func TestStoppedBuildKeepsCollectionsOff(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	ctx, cancel := context.WithCancel(context.Background())
	restore := buildCollector(ctx)
	cancel()
	noMoreCollections()
	restore()
	if p := debug.SetGCPercent(100); p != -1 {
		t.Errorf("GOGC after a stopped build: %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit after a stopped build: %d, want none", l)
	}
}
