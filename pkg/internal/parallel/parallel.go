// Package parallel runs the calls of a loop on a few goroutines.
package parallel

import (
	"sync"
	"sync/atomic"
)

// For calls f(0..n-1) on at most workers goroutines, each taking the next
// index as it is free, and returns when every call has.
func For(n, workers int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, max(workers, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		}()
	}
	wg.Wait()
}
