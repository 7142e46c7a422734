package memlimit

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestNext(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		window  int64
		live    uint64
		ceiling int64
		want    int64
	}{
		{128 * mib, 0, 0, 128 * mib},                  // before the first collection
		{128 * mib, 10 * mib, 0, 148 * mib},           // a small site: the window above twice its live data
		{128 * mib, 256 * mib, 0, 640 * mib},          // live data twice the window: the window above twice the live data
		{128 * mib, 1024 * mib, 0, 2176 * mib},        // a huge site
		{128 * mib, math.MaxUint64, 0, math.MaxInt64}, // no overflow
		{128 * mib, 10 * mib, 100 * mib, 50 * mib},    // a 100 MiB container: half of it
		{128 * mib, 10 * mib, 1024 * mib, 148 * mib},  // a large container: the window
		{128 * mib, math.MaxUint64, 1000 * mib, 500 * mib},
	} {
		if got := Next(tc.window, tc.live, tc.ceiling); got != tc.want {
			t.Errorf("Next(%d MiB, %d MiB, %d MiB) = %d MiB, want %d MiB", tc.window/mib, tc.live/mib, tc.ceiling/mib, got/mib, tc.want/mib)
		}
	}
}

// TestStartCeiling: a container's limit caps the window from the start.
func TestStartCeiling(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	defer Start(context.Background(), Settings{Window: 320 << 20, GCPercent: -1, Ceiling: 100 << 20})()
	if got, want := debug.SetMemoryLimit(-1), int64(50<<20); got != want {
		t.Errorf("limit in a 100 MiB container = %d MiB, want %d MiB", got>>20, want>>20)
	}
}

// TestContainerLimit reads this machine's cgroup: whatever it finds must
// be a limit a process could run under (0 when there is none).
func TestContainerLimit(t *testing.T) {
	n := ContainerLimit()
	t.Logf("this process's cgroup memory limit: %d MiB (0: none)", n>>20)
	if n < 0 || n > 0 && n < 1<<20 {
		t.Errorf("ContainerLimit() = %d, want 0 or at least a MiB", n)
	}
}

func TestStartRestores(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	before := debug.SetMemoryLimit(-1)
	stop := Start(context.Background(), Settings{Window: 320 << 20, GCPercent: 300})
	if got := debug.SetMemoryLimit(-1); got != 320<<20 {
		t.Errorf("limit during the build = %d", got)
	}
	if got := debug.SetGCPercent(300); got != 300 {
		t.Errorf("GC percent during the build = %d", got)
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after stop = %d, want %d", got, before)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after stop = %d, want 100", got)
	}
}

func TestEnvironmentWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	t.Setenv("GOGC", "100")
	before := debug.SetMemoryLimit(-1)
	defer Start(context.Background(), Settings{Window: 320 << 20, GCPercent: -1})()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("GOMEMLIMIT set: the limit changed to %d", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: the GC percent changed to %d", got)
	}
}

// TestWindowBoundsHeap: with the collector off but at the limit, garbage
// many times the window is collected as the heap reaches the window, and
// collection is back to normal after stop. The bound is loose: the
// collector runs beside the allocating loop and, on a busy machine, lags
// it (a peak of 182 MiB was seen in a 32 MiB window under a parallel go
// test); without the window the heap would hold all 1 GiB.
func TestWindowBoundsHeap(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	const window = 32 << 20
	runtime.GC()
	stop := Start(context.Background(), Settings{Window: window, GCPercent: -1})
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent during the build = %d, want -1 (off)", got)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	var keep []byte
	for i := 0; i < 1024; i++ { // 1 GiB of garbage, 1 MiB at a time
		keep = make([]byte, 1<<20)
		keep[0] = byte(i)
		metrics.Read(sample)
		peak = max(peak, sample[0].Value.Uint64())
	}
	runtime.ReadMemStats(&after)
	stop()
	if n := after.NumGC - before.NumGC; n < 4 {
		t.Errorf("%d collections for 1 GiB of garbage in a 32 MiB window, want at least 4", n)
	}
	if peak > 12*window {
		t.Errorf("heap objects peaked at %d MiB in a %d MiB window", peak>>20, window>>20)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after stop = %d, want 100", got)
	}
	_ = keep
}

// TestOffNeedsALimit: GCPercent -1 without a window or GOMEMLIMIT would
// let the heap grow without bound; it keeps the collector's default.
func TestOffNeedsALimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	stop := Start(context.Background(), Settings{GCPercent: -1})
	got := debug.SetGCPercent(100)
	stop()
	if got != 100 {
		t.Errorf("GC percent without a limit = %d, want 100", got)
	}
}
