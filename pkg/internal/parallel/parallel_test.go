package parallel

import (
	"sync/atomic"
	"testing"
)

// TestFor: every index is called once, whatever the number of workers.
func TestFor(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 4}, {1, 4}, {100, 1}, {100, 3}, {5, 0}, {1000, 64}} {
		calls := make([]atomic.Int32, c.n)
		For(c.n, c.workers, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("n=%d workers=%d: index %d called %d times", c.n, c.workers, i, got)
			}
		}
	}
}
