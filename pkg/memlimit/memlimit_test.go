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
	before := debug.SetMemoryLimit(-1)
	stop := Start(context.Background(), 320<<20)
	if got := debug.SetMemoryLimit(-1); got != 320<<20 {
		t.Errorf("limit during the build = %d", got)
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after stop = %d, want %d", got, before)
	}
}

func TestEnvironmentWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	before := debug.SetMemoryLimit(-1)
	defer Start(context.Background(), 320<<20)()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("GOMEMLIMIT set: the limit changed to %d", got)
	}
}
