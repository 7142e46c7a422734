package ctxwait

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestWait(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go wg.Done()
	if err := Wait(context.Background(), &wg); err != nil {
		t.Errorf("finished workers: %v", err)
	}

	// A worker that never ends: a stopped context returns at once.
	var stuck sync.WaitGroup
	stuck.Add(1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Wait(ctx, &stuck); !errors.Is(err, context.Canceled) {
		t.Errorf("stopped: %v, want context.Canceled", err)
	}
	stuck.Done()
}
