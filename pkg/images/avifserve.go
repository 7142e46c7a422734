package images

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// avifQueued bounds the requests the encoder process holds at once, read
// and not yet answered (a build has one per worker and request under way).
const avifQueued = 64

// avifChildGCPercent is the encoder process's GOGC: its live heap is the
// encoder's instances (up to 120 MB each), its garbage the pixels and
// replies and the memories an instance outgrew, and a collection costs it
// little (the memories hold no pointers).
const avifChildGCPercent = 20

// init turns the process into the AVIF encoder when the build started it
// so (avifproc.go: sitegen, or a test binary, run again with the marker
// argument and the settings channel, avifhand.go), before any other work
// of the program: in main it would need a hook in every program and test
// binary that builds images.
func init() {
	s, ok, err := avifChildSettings(os.Args)
	if !ok {
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "AVIF encoder process: %v\n", err)
		os.Exit(2)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(avifChildGCPercent)
	}
	out := os.Stdout
	os.Stdout = os.Stderr // nothing else may write into the replies
	if err := serveAVIF(os.Stdin, out, s.maxPixels, s.workers); err != nil {
		fmt.Fprintf(os.Stderr, "AVIF encoder process: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// serveAVIF encodes the requests read from in, up to workers at once, each
// encode on an instance of the encoder kept between encodes (as many as
// encode at once; the module is compiled once), and writes the replies to
// out in the order they are done. It returns nil at the end of in; a
// request it cannot read (bad sizes, cut short) ends it with an error, as
// a write that fails does.
func serveAVIF(in io.Reader, out io.Writer, maxPixels, workers int) error {
	r := bufio.NewReaderSize(in, 1<<16)
	var (
		wmu      sync.Mutex
		writeErr error
		wg       sync.WaitGroup
	)
	instances := new(avifInstances)
	defer instances.release()
	// Every request is read as it comes (the build sends as many at once
	// as it has workers, so that its writes never wait for an encode) and
	// waits here for one of the workers; at most avifQueued are held.
	busy, queued := make(chan struct{}, workers), make(chan struct{}, avifQueued)
	encode := func(req avifRequest) {
		defer wg.Done()
		defer func() { <-queued }()
		busy <- struct{}{}
		defer func() { <-busy }()
		m := &image.RGBA{Pix: req.pix, Stride: 4 * int(req.w), Rect: image.Rect(0, 0, int(req.w), int(req.h))}
		b, err := instances.encode(m, int(req.quality), int(req.speed))
		wmu.Lock()
		if writeErr == nil {
			writeErr = writeAVIFReply(out, req.id, b, err)
		}
		wmu.Unlock()
	}
	var readErr error
	for {
		req, err := readAVIFRequest(r, maxPixels)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = fmt.Errorf("reading a request: %w", err)
			}
			break
		}
		queued <- struct{}{}
		wg.Add(1)
		go encode(req)
	}
	wg.Wait()
	return errors.Join(readErr, writeErr)
}
