package islands

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestPoolCreateFails: when an engine cannot be made (an SSR bundle that
// throws as it loads), every caller waiting for one gets the error; none
// waits forever (found by the differential test of warm builds).
func TestPoolCreateFails(t *testing.T) {
	p := newPool(1, func() (engine, error) {
		time.Sleep(50 * time.Millisecond) // the others arrive while the first tries
		return nil, errors.New("the bundle threw")
	})
	done := make(chan error, 3)
	for range 3 {
		go func() {
			_, err := p.get(context.Background())
			done <- err
		}()
	}
	for range 3 {
		select {
		case err := <-done:
			if err == nil {
				t.Error("get returned no error")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a caller waits forever for an engine that cannot be made")
		}
	}
}
