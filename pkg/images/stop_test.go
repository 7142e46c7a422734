package images

import (
	"context"
	"errors"
	"image"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"sitegen/pkg/waittest"
)

// spinLimit bounds a spinning encode: a few seconds.
const spinLimit = 1 << 31

// spinning stands for an AVIF encode as the scheduler sees it: code Go
// cannot preempt. In a process run with GODEBUG=asyncpreemptoff=1, a loop
// that calls no function is such code, as WebAssembly compiled by wazero
// is in any process. It spins until gate opens or spinLimit runs out
// (ranOut counts those), then encodes.
type spinning struct {
	Encoder
	started         chan<- struct{}
	gate            *atomic.Bool
	running, ranOut *atomic.Int32
}

func (e spinning) Encode(w io.Writer, m image.Image, q int) error {
	e.running.Add(1)
	defer e.running.Add(-1)
	select {
	case e.started <- struct{}{}:
	default:
	}
	i := 0
	for i < spinLimit && !e.gate.Load() {
		i++
	}
	if i == spinLimit {
		e.ranOut.Add(1)
	}
	return e.Encoder.Encode(w, m, q)
}

const spinChildEnv = "SITEGEN_TEST_SPIN_CHILD"

// TestStopAnsweredWhileEncoding: with encodes Go cannot preempt under way
// on a process of two Ps, a stop sent by a timer (whose goroutine needs a
// P) is answered, Run returning, while the encodes are held. With a
// worker on every P (images.Run before EncodeWorkers), every P spun and
// the stop waited for an encode to end by itself. The collector is off:
// a collection waits for such code too (bench/interrupt/README.md).
// It runs in a child process, for asyncpreemptoff.
func TestStopAnsweredWhileEncoding(t *testing.T) {
	if os.Getenv(spinChildEnv) == "" {
		cmd := waittest.Command(t, os.Args[0], "-test.run=^TestStopAnsweredWhileEncoding$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), spinChildEnv+"=1", "GODEBUG=asyncpreemptoff=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	fsys := fstest.MapFS{
		"assets/images/a.jpg": {Data: photo(t, 120, 80)},
		"assets/images/b.jpg": {Data: photo(t, 120, 80)},
	}
	started := make(chan struct{}, 1)
	var gate atomic.Bool
	var running, ranOut atomic.Int32
	defer gate.Store(true)
	enc := DefaultEncoders()
	enc.Modern = []Encoder{spinning{enc.Modern[0], started, &gate, &running, &ranOut}}
	p := New(Config{FS: fsys, Dirs: []string{"assets/images"}, Encoders: &enc})
	for _, src := range []string{"/a.jpg", "/b.jpg"} {
		if _, err := p.Picture(src, Options{Widths: []int{120}}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan error, 1)
	go func() {
		_, err := p.Run(ctx, 0)
		ran <- err
	}()
	waittest.Within(t, started, "an encode")
	// In 50 ms a second worker, had there been one, is spinning too.
	time.AfterFunc(50*time.Millisecond, cancel)
	err := waittest.Within(t, ran, "Run")
	if n := ranOut.Load(); n > 0 {
		t.Errorf("Run answered the stop once %d encode(s) had ended by themselves: no P was free of encodes", n)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want context.Canceled", err)
	}
	gate.Store(true)
	for deadline := time.Now().Add(waittest.Bound); running.Load() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the encodes did not end")
		}
	}
}
