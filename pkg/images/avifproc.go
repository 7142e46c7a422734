package images

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"
)

// avifEncodeTimeout bounds one encode in the encoder process: a 50
// megapixel photo takes seconds; a process that says nothing for this long
// is hung and is killed.
const avifEncodeTimeout = 5 * time.Minute

// avifProcess runs the AVIF encodes in a child process (serveAVIF), out of
// the build's heap: a garbage collection of the build waits for every
// goroutine running WebAssembly to come out of it, which Go cannot make it
// do, and Ctrl+C waited for the collection (bench/interrupt/README.md).
// The process starts at the first encode and ends when its last user
// lets go (Run ends or is stopped), or when it fails.
type avifProcess struct {
	command   func() *exec.Cmd // nil: this program, run again
	maxPixels int
	workers   int

	mu       sync.Mutex
	users    int
	child    *avifChild
	restarts int   // of the process since the first holder took it
	failed   error // a fatalError: the process failed for good
}

// hold keeps the process for the caller (Run, Variant, an encode) until
// the returned func is called; the last one ends it and waits for it.
func (p *avifProcess) hold() func() {
	p.mu.Lock()
	p.users++
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			p.users--
			var c *avifChild
			if p.users == 0 {
				c, p.child = p.child, nil
				p.restarts, p.failed = 0, nil // the next holders start afresh
			}
			p.mu.Unlock()
			if c != nil {
				c.stop(errors.New("ended by the build"))
				<-c.done
			}
		})
	}
}

// encode encodes m (Stride 4×width) in the process, starting it when none
// runs (and ending it after, unless Run holds it). It returns ctx's error
// as soon as ctx ends. A process that ends during the encode (killed, or
// crashed) is restarted once for the holders and the encode sent again;
// when the process ends again, this encode and every later one fail at
// once with a fatalError, which stops Run (issue 36: a killed encoder
// failed the build only once every other image had been encoded).
func (p *avifProcess) encode(ctx context.Context, m *image.RGBA, quality, speed int) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defer p.hold()()
	for {
		c, err := p.running()
		if err != nil {
			return nil, err
		}
		w, h := m.Rect.Dx(), m.Rect.Dy()
		if w < 1 || h < 1 || w*h > c.maxPixels || m.Stride != 4*w {
			return nil, fmt.Errorf("AVIF encoder: %d×%d pixels (stride %d), outside 1-%d", w, h, m.Stride, c.maxPixels)
		}
		b, err := c.call(ctx, avifRequest{w: uint32(w), h: uint32(h), quality: uint32(quality), speed: uint32(speed), pix: m.Pix[:4*w*h]})
		if err == nil || ctx.Err() != nil || c.alive() {
			return b, err // done, stopped, or an error the encoder replied
		}
		if err := p.ended(c); err != nil {
			return nil, err
		}
	}
}

// fatalError is a failure of the encoder process that ends Run: it ended
// during an encode again after its restart, or hung.
type fatalError struct{ error }

func (e fatalError) Unwrap() error { return e.error }

// ended notes that c ended during an encode; the first caller to see it
// decides whether it is restarted (nil: send the encode again) or the
// encoder failed for good (the fatalError every caller returns).
func (p *avifProcess) ended(c *avifChild) error {
	<-c.done // its failure is described
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.child == c {
		p.child = nil
		p.noteEnd(c)
	}
	return p.failed
}

// noteEnd counts an end of c while held (p.mu locked): the first is
// forgiven (a restart), the second, or a hang, is the fatal failure.
func (p *avifProcess) noteEnd(c *avifChild) {
	if p.failed != nil {
		return
	}
	if p.restarts < 1 && !c.hung {
		p.restarts++
		return
	}
	how := "after its restart"
	if c.hung {
		how = "hung"
	}
	p.failed = fatalError{fmt.Errorf("%w (%s)", c.failure(), how)}
}

// running is the process under way, or a new one when there is none or
// the last one ended (noteEnd).
func (p *avifProcess) running() (*avifChild, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failed != nil {
		return nil, p.failed
	}
	if c := p.child; c != nil {
		if c.alive() {
			return c, nil
		}
		p.child = nil // ended between encodes
		p.noteEnd(c)
		if p.failed != nil {
			return nil, p.failed
		}
	}
	c, err := startAVIFChild(p.newCommand(), avifSettings{maxPixels: p.maxPixels, workers: p.workers})
	if err != nil {
		return nil, err
	}
	c.maxPixels = p.maxPixels
	p.child = c
	return c, nil
}

func (p *avifProcess) newCommand() *exec.Cmd {
	if p.command != nil {
		return p.command()
	}
	exe := "/proc/self/exe" // this binary, even once replaced on disk
	if runtime.GOOS != "linux" {
		var err error
		if exe, err = os.Executable(); err != nil {
			exe = os.Args[0]
		}
	}
	cmd := exec.Command(exe)
	cmd.Args = []string{os.Args[0], avifChildArg}
	return cmd
}

// avifChild is one encoder process: requests are written to its stdin, a
// reader matches the replies on its stdout to them by id.
type avifChild struct {
	cmd       *exec.Cmd
	maxPixels int      // its bound of a request's pixels
	stdin     *os.File // a pipe, for its write deadline
	stderr    *tailWriter
	wmu       sync.Mutex // one request written at a time

	mu      sync.Mutex
	nextID  uint32
	pending map[uint32]pendingCall
	err     error         // why it ended, once it did
	hung    bool          // it was killed for saying nothing for avifEncodeTimeout
	done    chan struct{} // closed once it ended and was waited for
}

type avifResult struct {
	b   []byte
	err error
}

// pendingCall is a request sent: where its reply goes, and how long it may
// be. A call given up (its ctx ended) stays until its reply comes.
type pendingCall struct {
	reply chan<- avifResult
	limit uint64
}

func startAVIFChild(cmd *exec.Cmd, s avifSettings) (*avifChild, error) {
	c := &avifChild{cmd: cmd, stderr: &tailWriter{max: avifErrorLimit}, pending: map[uint32]pendingCall{}, done: make(chan struct{})}
	cmd.Stderr = c.stderr
	dieWithParent(cmd)
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("AVIF encoder process: %w", err)
	}
	cmd.Stdin = stdinR
	send, err := withSettings(cmd, s)
	var stdout io.ReadCloser
	if err == nil {
		stdout, err = cmd.StdoutPipe()
	}
	if err == nil {
		err = cmd.Start()
	}
	stdinR.Close()
	if send != nil {
		// A process that does not read them (not an encoder, or one that
		// ended at once) fails its first call, saying how it ended.
		send(stdin)
	}
	if err != nil {
		stdin.Close()
		return nil, fmt.Errorf("AVIF encoder process: %w", err)
	}
	c.stdin = stdin
	go c.readReplies(stdout)
	return c, nil
}

// call sends req and waits for its reply, ctx's end or avifEncodeTimeout.
func (c *avifChild) call(ctx context.Context, req avifRequest) ([]byte, error) {
	ch := make(chan avifResult, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	req.id = c.nextID
	c.pending[req.id] = pendingCall{ch, avifReplyLimit(req.w, req.h)}
	c.mu.Unlock()
	if err := c.write(ctx, req); err != nil { // the stream is cut mid-frame
		c.stop(fmt.Errorf("writing a request: %w", err))
		<-c.done
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, c.failure()
	}
	timer := time.NewTimer(avifEncodeTimeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.b, r.err
	case <-c.done:
		return nil, c.failure()
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timer.C:
		c.mu.Lock()
		c.hung = true
		c.mu.Unlock()
		c.stop(fmt.Errorf("no reply within %v", avifEncodeTimeout))
		<-c.done
		return nil, c.failure()
	}
}

// write writes req, within avifEncodeTimeout and until ctx ends: the
// encoder reads every request as it comes, but a hung one would not.
func (c *avifChild) write(ctx context.Context, req avifRequest) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.stdin.SetWriteDeadline(time.Now().Add(avifEncodeTimeout))
	stop := context.AfterFunc(ctx, func() { c.stdin.SetWriteDeadline(time.Unix(1, 0)) })
	defer stop()
	return writeAVIFRequest(c.stdin, req)
}

// readReplies hands every reply to its caller until the process's stdout
// ends or a reply is garbage (then the process is killed), waits for the
// process and fails the calls still pending.
func (c *avifChild) readReplies(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 1<<16)
	var err error
	for err == nil {
		err = c.readReply(r)
	}
	if errors.Is(err, io.EOF) {
		err = errors.New("it ended")
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("a reply cut short")
	}
	c.stop(err)
	c.cmd.Wait()
	c.mu.Lock()
	c.err = c.describe(c.err)
	c.mu.Unlock()
	close(c.done)
}

func (c *avifChild) readReply(r io.Reader) error {
	rep, err := readAVIFReplyHeader(r)
	if err != nil {
		return err
	}
	c.mu.Lock()
	call, ok := c.pending[rep.id]
	delete(c.pending, rep.id)
	c.mu.Unlock()
	limit := uint64(avifErrorLimit)
	if rep.status == avifStatusOK {
		limit = call.limit
	}
	if !ok || uint64(rep.length) > limit || rep.status == avifStatusOK && rep.length == 0 {
		return fmt.Errorf("a garbage reply (id %d, status %d, %d bytes)", rep.id, rep.status, rep.length)
	}
	b := make([]byte, rep.length)
	if _, err := io.ReadFull(r, b); err != nil {
		return fmt.Errorf("a reply cut short: %w", noEOF(err))
	}
	if rep.status == avifStatusError {
		call.reply <- avifResult{err: fmt.Errorf("AVIF encoder: %s", b)}
	} else {
		call.reply <- avifResult{b: b}
	}
	return nil
}

// stop kills the process (once), noting why; readReplies waits for it.
func (c *avifChild) stop(why error) {
	c.mu.Lock()
	first := c.err == nil
	if first {
		c.err = why
	}
	c.mu.Unlock()
	if first {
		c.stdin.Close()
		c.cmd.Process.Kill()
	}
}

func (c *avifChild) alive() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err == nil
}

// failure is why the process ended, once readReplies has waited for it.
func (c *avifChild) failure() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// describe names the process, how it ended and what it said last.
func (c *avifChild) describe(why error) error {
	msg := fmt.Sprintf("AVIF encoder process %d: %v", c.cmd.Process.Pid, why)
	if st := c.cmd.ProcessState; st != nil {
		msg += " (" + st.String() + ")"
	}
	if tail := c.stderr.String(); tail != "" {
		msg += ": " + tail
	}
	return errors.New(msg)
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > w.max {
		w.b = append(w.b[:0], w.b[len(w.b)-w.max:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.TrimSpace(string(w.b))
}
