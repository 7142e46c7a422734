package images

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gen2brain/avif"

	"sitegen/internal/waittest"
)

// slowAVIF encodes slowly (speed 1): a 500 px photo takes seconds (1000
// px, half a minute), long enough to act on the encoder process while it
// works.
func slowAVIF() AVIF { return NewAVIF(1, nil) }

// encoding waits until e's process has its nth request under way and
// returns the process.
func encoding(t *testing.T, e AVIF, nth uint32) *avifChild {
	t.Helper()
	for deadline := time.Now().Add(waittest.Bound); ; time.Sleep(5 * time.Millisecond) {
		e.proc.mu.Lock()
		c := e.proc.child
		e.proc.mu.Unlock()
		if c != nil {
			c.mu.Lock()
			n := len(c.pending)
			sent := c.nextID
			c.mu.Unlock()
			if n > 0 && sent >= nth {
				time.Sleep(100 * time.Millisecond) // the request is read, the encode begun
				return c
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no encode under way")
		}
	}
}

// TestCollectionDuringEncode: a garbage collection of the build does not
// wait for an AVIF encode under way. It did while the encodes ran in the
// build's process: a collection waits for every goroutine running
// WebAssembly to come out of it, which Go cannot make it do, and so did a
// Ctrl+C that came meanwhile (bench/interrupt/README.md).
func TestCollectionDuringEncode(t *testing.T) {
	if avif.Dynamic() == nil {
		t.Skip("a shared libavif encodes")
	}
	e := slowAVIF()
	defer e.Hold()()
	small := decode(t, photo(t, 64, 64))
	if err := e.Encode(new(bytes.Buffer), small, 50); err != nil { // the module compiled, an instance made
		t.Fatal(err)
	}
	large := decode(t, photo(t, 500, 500))
	done := make(chan error, 1)
	go func() { done <- e.Encode(new(bytes.Buffer), large, 50) }()
	time.Sleep(300 * time.Millisecond) // into the encode, which takes seconds
	runtime.GC()
	select {
	case err := <-done:
		t.Fatalf("the collection returned once the encode had ended (%v): it waited for it", err)
	default:
	}
	if err := waittest.Within(t, done, "the encode"); err != nil {
		t.Fatal(err)
	}
}

// twoPhotos are a small photo, whose encode (the first: Run takes the
// sources by name, one at a time with one worker) has the encoder
// compiled, and one of size px, an encode of seconds.
func twoPhotos(t *testing.T, size int) fstest.MapFS {
	return fstest.MapFS{"img/a.jpg": {Data: photo(t, 40, 30)}, "img/big.jpg": {Data: photo(t, size, size)}}
}

// TestAVIFProcessKilled: an encoder process killed during an encode is an
// error of Run naming the image and how the process ended, not a hang.
func TestAVIFProcessKilled(t *testing.T) {
	e := slowAVIF()
	enc := Encoders{Modern: []Encoder{e}, JPEG: JPEG{}, PNG: PNG{}}
	p := New(Config{FS: twoPhotos(t, 500), Dirs: []string{"img"}, Encoders: &enc})
	for _, src := range []string{"/a.jpg", "/big.jpg"} {
		if _, err := p.Picture(src, Options{Widths: []int{500}}); err != nil {
			t.Fatal(err)
		}
	}
	ran := make(chan error, 1)
	go func() {
		_, err := p.Run(context.Background(), 1)
		ran <- err
	}()
	c := encoding(t, e, 2)
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := waittest.Within(t, ran, "Run")
	if err == nil || !strings.Contains(err.Error(), "img/big.jpg") || !strings.Contains(err.Error(), "AVIF encoder process") ||
		!strings.Contains(err.Error(), "killed") {
		t.Errorf("Run: %v, want an error naming img/big.jpg and the killed encoder process", err)
	}
	checkGone(t, c)
}

// TestRunStopKillsAVIFProcess: stopped, Run returns at once and the
// encoder process is killed and waited for, long before the encode under
// way (half a minute) would have ended.
func TestRunStopKillsAVIFProcess(t *testing.T) {
	e := slowAVIF()
	enc := Encoders{Modern: []Encoder{e}, JPEG: JPEG{}, PNG: PNG{}}
	p := New(Config{FS: twoPhotos(t, 1000), Dirs: []string{"img"}, Encoders: &enc})
	for _, src := range []string{"/a.jpg", "/big.jpg"} {
		if _, err := p.Picture(src, Options{Widths: []int{1000}}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() {
		_, err := p.Run(ctx, 1)
		ran <- err
	}()
	c := encoding(t, e, 2)
	cancel()
	if err := waittest.Within(t, ran, "Run"); !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want context.Canceled", err)
	}
	select {
	case <-c.done:
	case <-time.After(10 * time.Second): // a bound far below the encode's time, not a timing check
		t.Fatal("the encoder process still runs after Run was stopped")
	}
	checkGone(t, c)
}

// checkGone: c's process ended and was waited for (no zombie left).
func checkGone(t *testing.T, c *avifChild) {
	t.Helper()
	waittest.Within(t, c.done, "the encoder process's end")
	if c.cmd.ProcessState == nil {
		t.Fatal("the encoder process was not waited for")
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(c.cmd.Process.Pid)); runtime.GOOS == "linux" && !errors.Is(err, os.ErrNotExist) {
		t.Errorf("process %d is still there (%v)", c.cmd.Process.Pid, err)
	}
}

// TestAVIFProcessNotAnEncoder: a process that answers garbage, or ends
// without answering, is a clear error, not a hang.
func TestAVIFProcessNotAnEncoder(t *testing.T) {
	m := decode(t, photo(t, 40, 30))
	for _, tc := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"cat"}, "garbage reply"},              // echoes the request
		{[]string{"head", "-c", "10"}, "cut short"},     // a reply cut short
		{[]string{"sh", "-c", "exit 3"}, "exit status"}, // no reply
		{[]string{"sh", "-c", "printf 'SGA1\\001\\0\\0\\0\\0\\0\\0\\0\\377\\377\\377\\177'; cat >/dev/null"}, "garbage reply"}, // 2 GB announced
	} {
		e := NewAVIF(0, func() *exec.Cmd { return exec.Command(tc.cmd[0], tc.cmd[1:]...) })
		err := e.Encode(new(bytes.Buffer), m, 50)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error saying %q", tc.cmd, err, tc.want)
		}
	}
}

// TestAVIFProcessHung: a process that reads nothing holds an encode no
// longer than its ctx, though the request is larger than a pipe holds.
func TestAVIFProcessHung(t *testing.T) {
	e := NewAVIF(0, func() *exec.Cmd { return exec.Command("sleep", "600") })
	m := decode(t, photo(t, 300, 300)) // 360 KB of pixels
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- e.EncodeContext(ctx, io.Discard, m, 50) }()
	if err := waittest.Within(t, done, "the encode"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("encode: %v, want context.DeadlineExceeded", err)
	}
}

// TestAVIFRequestBounds: the encoder process refuses a frame of more
// pixels than its limit, or of unknown settings, before reading (and
// allocating) its pixels, and a frame cut short.
func TestAVIFRequestBounds(t *testing.T) {
	frame := func(w, h, q, speed uint32, pix int) []byte {
		var b bytes.Buffer
		writeAVIFRequest(&b, avifRequest{id: 7, w: w, h: h, quality: q, speed: speed, pix: make([]byte, pix)})
		return b.Bytes()
	}
	for _, tc := range []struct {
		name  string
		frame []byte
		want  string
	}{
		{"ok", frame(10, 10, 50, 8, 400), ""},
		{"over the limit", frame(100, 101, 50, 8, 0), "outside 1-10000"},
		{"huge", frame(1<<31, 1<<31, 50, 8, 0), "outside 1-10000"},
		{"empty", frame(0, 10, 50, 8, 0), "outside 1-10000"},
		{"quality", frame(10, 10, 101, 8, 400), "quality 101"},
		{"cut short", frame(10, 10, 50, 8, 399), "cut short"},
		{"not a frame", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "not a request frame"},
	} {
		_, err := readAVIFRequest(bytes.NewReader(tc.frame), 10_000)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := readAVIFRequest(bytes.NewReader(nil), 10); !errors.Is(err, io.EOF) {
		t.Errorf("no frame: %v, want io.EOF", err)
	}
}
