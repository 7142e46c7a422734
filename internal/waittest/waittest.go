// Package waittest bounds the waits of tests: on a channel, a WaitGroup or
// a child process. A bound is for an event that never comes (a hung build,
// a child that does not exit), not a timing check: it is minutes, so a
// loaded machine never trips it, and the test fails naming what it waited
// for instead of hanging until go test's own timeout kills every test.
package waittest

import (
	"context"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// Bound is how long a test waits for one event.
const Bound = 5 * time.Minute

// Within returns what ch delivers (the zero value once it is closed), or
// fails the test when nothing comes within Bound.
func Within[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	timer := time.NewTimer(Bound)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("%s: nothing within %v", what, Bound)
	}
	var zero T
	return zero
}

// Wait waits for wg, or fails the test when it is not done within Bound.
func Wait(t testing.TB, wg *sync.WaitGroup, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	Within(t, done, what)
}

// Command is exec.Command for a child that ends by itself (a compiler, a
// configuration test): it is killed once it runs longer than Bound, or
// when the test ends, so its Run, Output or Wait returns.
func Command(t testing.TB, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), Bound)
	t.Cleanup(cancel)
	return exec.CommandContext(ctx, name, args...)
}
