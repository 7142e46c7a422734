package main

import (
	"context"
	"math"
	"runtime/debug"
	"testing"
)

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
