package waittest

import (
	"sync"
	"testing"
)

func TestWithinReturnsTheValue(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := Within(t, ch, "a value"); got != 7 {
		t.Errorf("Within = %d, want 7", got)
	}
	close(ch)
	if got := Within(t, ch, "the close"); got != 0 {
		t.Errorf("Within on a closed channel = %d, want 0", got)
	}
}

func TestWaitReturnsWhenDone(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go wg.Done()
	Wait(t, &wg, "one worker")
}

func TestCommandRuns(t *testing.T) {
	out, err := Command(t, "sh", "-c", "echo ok").Output()
	if err != nil || string(out) != "ok\n" {
		t.Errorf("Command: %q, %v", out, err)
	}
	if cmd := Command(t, "true"); cmd.Cancel == nil {
		t.Error("Command gives a command no context kills")
	}
}
