package images

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The AVIF encoder process (avifproc.go) and the build talk over its
// stdin and stdout in frames of little-endian uint32s:
//
//	request: magic "SGA1", id, width, height, quality, speed, then
//	         width×height×4 bytes of RGBA pixels (Stride = 4×width)
//	reply:   magic "SGA1", id, status (0: AVIF bytes, 1: error text),
//	         length, then length bytes
//
// Every size is checked before anything is allocated for it: the pixels
// against the pixel limit both sides know, a reply against
// avifReplyLimit (bytes) or avifErrorLimit (text).
const (
	avifMagic         = 0x31414753 // "SGA1"
	avifRequestHeader = 6 * 4
	avifReplyHeader   = 4 * 4
	avifStatusOK      = 0
	avifStatusError   = 1
	avifErrorLimit    = 4 << 10
)

// avifRequest is one image to encode.
type avifRequest struct {
	id, w, h, quality, speed uint32
	pix                      []byte
}

// avifReplyLimit bounds the AVIF of a w×h image: its pixels, uncompressed,
// and 1 MB of headers (libavif's output is far smaller).
func avifReplyLimit(w, h uint32) uint64 { return 4*uint64(w)*uint64(h) + 1<<20 }

func writeAVIFRequest(w io.Writer, r avifRequest) error {
	var h [avifRequestHeader]byte
	for i, v := range []uint32{avifMagic, r.id, r.w, r.h, r.quality, r.speed} {
		binary.LittleEndian.PutUint32(h[4*i:], v)
	}
	if _, err := w.Write(h[:]); err != nil {
		return err
	}
	_, err := w.Write(r.pix)
	return err
}

// readAVIFRequest reads one request, refusing one of more than maxPixels
// pixels, an unknown quality or speed, or a frame cut short. io.EOF is a
// clean end (no byte of a next frame).
func readAVIFRequest(r io.Reader, maxPixels int) (avifRequest, error) {
	var h [avifRequestHeader]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return avifRequest{}, err
	}
	var f [6]uint32
	for i := range f {
		f[i] = binary.LittleEndian.Uint32(h[4*i:])
	}
	req := avifRequest{id: f[1], w: f[2], h: f[3], quality: f[4], speed: f[5]}
	switch px := uint64(req.w) * uint64(req.h); {
	case f[0] != avifMagic:
		return req, fmt.Errorf("not a request frame (magic %#x)", f[0])
	case px == 0 || px > uint64(maxPixels):
		return req, fmt.Errorf("request %d: %d×%d pixels, outside 1-%d", req.id, req.w, req.h, maxPixels)
	case req.quality > 100 || req.speed > 10:
		return req, fmt.Errorf("request %d: quality %d, speed %d (0-100, 0-10)", req.id, req.quality, req.speed)
	}
	req.pix = make([]byte, 4*uint64(req.w)*uint64(req.h))
	if _, err := io.ReadFull(r, req.pix); err != nil {
		return req, fmt.Errorf("request %d: pixels cut short: %w", req.id, noEOF(err))
	}
	return req, nil
}

func writeAVIFReply(w io.Writer, id uint32, b []byte, encErr error) error {
	status := uint32(avifStatusOK)
	if encErr != nil {
		status, b = avifStatusError, []byte(encErr.Error())
		if len(b) > avifErrorLimit {
			b = b[:avifErrorLimit]
		}
	}
	var h [avifReplyHeader]byte
	for i, v := range []uint32{avifMagic, id, status, uint32(len(b))} {
		binary.LittleEndian.PutUint32(h[4*i:], v)
	}
	if _, err := w.Write(h[:]); err != nil {
		return err
	}
	_, err := w.Write(b)
	return err
}

// avifReply is a reply's header; its payload follows on the stream.
type avifReply struct {
	id, status, length uint32
}

// readAVIFReplyHeader reads a reply's header and checks its status; the
// caller checks the length against the request's limit.
func readAVIFReplyHeader(r io.Reader) (avifReply, error) {
	var h [avifReplyHeader]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return avifReply{}, err
	}
	magic := binary.LittleEndian.Uint32(h[:])
	rep := avifReply{binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:]), binary.LittleEndian.Uint32(h[12:])}
	if magic != avifMagic || rep.status > avifStatusError {
		return rep, fmt.Errorf("a garbage reply (header % x)", h)
	}
	return rep, nil
}

// noEOF makes a frame cut short an ErrUnexpectedEOF.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
