// Package memlimit gives a long build a soft memory limit, so that its peak
// memory stays flat as the site grows instead of following the collector's
// default headroom (a heap of twice the live data).
//
// A build holds every page's metadata (a kilobyte or so) and, at a time,
// the pages its workers render; the rest of its heap is garbage the
// collector has not yet reclaimed. With GOGC=100 alone, that garbage grows
// with the live data; a limit makes the collector work a little harder
// instead, once the heap nears it. The limit is raised when the live data
// itself grows past half of it, so a site far larger than the floor never
// makes the collector run without pause.
package memlimit

import (
	"context"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Settings are a build's collector settings.
type Settings struct {
	// Floor is the soft memory limit, raised to twice the live heap when
	// that passes half of it. Zero: no limit. The GOMEMLIMIT environment
	// variable wins over it.
	Floor int64
	// GCPercent is the heap growth allowed between collections (GOGC;
	// zero keeps Go's 100). A short-lived build with a small live heap
	// spends much of its time collecting at 100; the limit above bounds
	// what a larger value costs in memory. The GOGC environment variable
	// wins over it.
	GCPercent int
}

// Start applies s until stop is called, which restores the settings there
// were.
func Start(ctx context.Context, s Settings) (stop func()) {
	restorePercent := func() {}
	if s.GCPercent > 0 && os.Getenv("GOGC") == "" {
		prev := debug.SetGCPercent(s.GCPercent)
		restorePercent = func() { debug.SetGCPercent(prev) }
	}
	floor := s.Floor
	if os.Getenv("GOMEMLIMIT") != "" || floor <= 0 {
		return restorePercent
	}
	prev := debug.SetMemoryLimit(floor)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		limit := floor
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			live := sample[0].Value.Uint64()
			if next := Next(limit, live); next != limit {
				limit = next
				debug.SetMemoryLimit(limit)
			}
		}
	}()
	return func() {
		cancel()
		<-done
		debug.SetMemoryLimit(prev)
		restorePercent()
	}
}

// Next returns the limit to keep given the live heap: twice the live heap
// once that exceeds half of the limit, else the limit as it is.
func Next(limit int64, live uint64) int64 {
	if live > math.MaxInt64/2 {
		return math.MaxInt64
	}
	if l := int64(live); l > limit/2 {
		return 2 * l
	}
	return limit
}
