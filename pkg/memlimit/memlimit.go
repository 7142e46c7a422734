// Package memlimit gives a long build a memory window: the collector runs
// when the heap reaches a soft limit, not each time the heap has grown by a
// share of the live data.
//
// A build holds every page's metadata (a kilobyte or so) and, at a time,
// the pages its workers render; the rest of its heap is garbage the
// collector has not yet reclaimed. With GOGC=100 alone, the collector runs
// every time the heap doubles: dozens of times while a small heap grows,
// and with headroom that grows with the live data. With a window, it runs
// only when the heap reaches the limit. The limit follows the live data
// up, so a site far larger than the window never makes the collector run
// without pause, and it stays under the memory of the container the build
// runs in (its cgroup's limit), so that a small CI runner collects more
// often instead of killing the build.
package memlimit

import (
	"context"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	automemlimit "github.com/KimMachineGun/automemlimit/memlimit"
)

// Settings are a build's collector settings.
type Settings struct {
	// Window is how far the heap may grow above the live data before the
	// collector runs: the soft memory limit is twice the live heap plus
	// Window (Next). Zero: no
	// limit. The GOMEMLIMIT environment variable wins over it.
	Window int64
	// GCPercent is the heap growth allowed between collections (GOGC;
	// zero keeps Go's 100). A short-lived build with a small live heap
	// spends much of its time collecting at 100; the limit above bounds
	// what a larger value costs in memory. Negative: no collection but at
	// the limit (GOGC=off), when there is a limit (Window or GOMEMLIMIT);
	// else it keeps Go's 100. The GOGC environment variable wins over it.
	GCPercent int
	// Ceiling is all the memory the process may use (ContainerLimit):
	// the limit stays under half of it, the rest being left to the page
	// cache of the files the build writes, which the container's limit
	// counts too. Zero: none.
	Ceiling int64
}

// ContainerLimit returns the memory limit of the cgroup the process runs
// in (cgroup v1 or v2), or 0 when it has none or it cannot be read.
func ContainerLimit() int64 {
	n, err := automemlimit.FromCgroup()
	if err != nil || n == 0 || n >= math.MaxInt64/2 {
		return 0
	}
	return int64(n)
}

// Start applies s until stop is called, which restores the settings there
// were.
func Start(ctx context.Context, s Settings) (stop func()) {
	restorePercent := func() {}
	limited := s.Window > 0 || os.Getenv("GOMEMLIMIT") != ""
	if (s.GCPercent > 0 || s.GCPercent < 0 && limited) && os.Getenv("GOGC") == "" {
		prev := debug.SetGCPercent(s.GCPercent)
		restorePercent = func() { debug.SetGCPercent(prev) }
	}
	if os.Getenv("GOMEMLIMIT") != "" || s.Window <= 0 {
		return restorePercent
	}
	limit := Next(s.Window, 0, s.Ceiling)
	prev := debug.SetMemoryLimit(limit)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
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
			if next := Next(s.Window, live, s.Ceiling); next != limit {
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

// Next returns the limit for a live heap of live bytes: twice the live
// heap, and a window above that of window bytes. Each collection marks the
// live data, so the room between collections grows with it, as with Go's
// GOGC=100: a collection's cost, relative to the garbage it frees, stays
// the same from a small site to a huge one; the fixed window is left for
// the runtime's own memory, which the limit counts too, and the garbage
// of a small site. At most half of ceiling when that is not zero (past it,
// the runtime collects as often as it must, rather than the container
// killing the process or starving the page cache: a 10,000-page build in
// a 150 MB cgroup took 2.2 s so, and ran for minutes, reclaiming, with
// nine tenths).
//
// Half the live heap instead of all of it (GOGC=50's room) made a
// 50,000-page build collect 31 times instead of 24, for about 4% more of
// its wall time and 90 MB less memory (398 -> 486 MB; Hugo takes 3.6 GB):
// see bench/ssgbench/RESULTS.md, "Issue 37 item 3, third round".
func Next(window int64, live uint64, ceiling int64) int64 {
	limit := int64(math.MaxInt64)
	if live <= math.MaxInt64/4 {
		l := int64(live)
		limit = 2*l + window
	}
	if ceiling > 0 {
		limit = min(limit, ceiling/2)
	}
	return limit
}
