// Package ctxwait waits for a group of workers unless the work is stopped
// first: a stopped build returns at once, and a worker in the middle of a
// step that cannot be interrupted (an image encode, a render) finishes it
// unseen.
package ctxwait

import (
	"context"
	"sync"
)

// Wait returns nil once every worker of wg is done, or ctx's error as soon
// as ctx ends (also when the workers finished meanwhile: a stopped build
// is stopped, whatever it had made).
func Wait(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
	return ctx.Err()
}
