package memlimit

import (
	"context"
	"math"
	"runtime/debug"
	"testing"
)

func TestNext(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		limit int64
		live  uint64
		want  int64
	}{
		{320 * mib, 10 * mib, 320 * mib},
		{320 * mib, 160 * mib, 320 * mib},
		{320 * mib, 161 * mib, 322 * mib},
		{320 * mib, 1024 * mib, 2048 * mib},
		{320 * mib, math.MaxUint64, math.MaxInt64},
	} {
		if got := Next(tc.limit, tc.live); got != tc.want {
			t.Errorf("Next(%d, %d) = %d, want %d", tc.limit, tc.live, got, tc.want)
		}
	}
}

func TestStartRestores(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	before := debug.SetMemoryLimit(-1)
	stop := Start(context.Background(), Settings{Floor: 320 << 20, GCPercent: 300})
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
	defer Start(context.Background(), Settings{Floor: 320 << 20, GCPercent: 300})()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("GOMEMLIMIT set: the limit changed to %d", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: the GC percent changed to %d", got)
	}
}
