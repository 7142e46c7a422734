package images

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// The encoder process is this program run again with avifChildArg as its
// only argument and its settings (avifSettings) on a channel only the
// parent opens (avifhand_unix.go: an extra file descriptor). Nothing in
// the environment makes a program the encoder: a user's variables, or a
// command line that happens to hold the marker without the channel,
// leave the program what it is (issue 36).
const avifChildArg = "(AVIF encoder)" // also how ps shows the process

// avifSettingsMagic starts the settings frame: "SGAE", then maxPixels
// (uint64) and workers (uint32), little-endian.
const avifSettingsMagic = 0x45414753

// avifSettings are the encoder process's bounds, set by the build.
type avifSettings struct {
	maxPixels, workers int
}

func (s avifSettings) frame() []byte {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint32(b, avifSettingsMagic)
	binary.LittleEndian.PutUint64(b[4:], uint64(s.maxPixels))
	binary.LittleEndian.PutUint32(b[12:], uint32(s.workers))
	return b
}

func readAVIFSettings(r io.Reader) (avifSettings, error) {
	var b [16]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return avifSettings{}, fmt.Errorf("reading the settings: %w", noEOF(err))
	}
	if binary.LittleEndian.Uint32(b[:]) != avifSettingsMagic {
		return avifSettings{}, errors.New("not a settings frame")
	}
	s := avifSettings{maxPixels: int(min(binary.LittleEndian.Uint64(b[4:]), 1<<40)), workers: int(binary.LittleEndian.Uint32(b[12:]))}
	if s.maxPixels < 1 || s.workers < 1 || s.workers > 1024 {
		return avifSettings{}, fmt.Errorf("bad settings: %d pixels, %d workers", s.maxPixels, s.workers)
	}
	return s, nil
}

// avifChildSettings reports whether this process was started as the
// encoder (the marker and the channel both there) and reads its settings.
// A program run with the marker but without the channel is not the
// encoder (ok false).
func avifChildSettings(args []string) (s avifSettings, ok bool, err error) {
	if len(args) != 2 || args[1] != avifChildArg {
		return avifSettings{}, false, nil
	}
	ch := settingsChannel()
	if ch == nil {
		return avifSettings{}, false, nil
	}
	defer ch.Close()
	s, err = readAVIFSettings(ch)
	return s, true, err
}

// withSettings gives cmd the channel its settings come on; send, called
// once cmd started, writes them into it (and closes the parent's ends).
func withSettings(cmd *exec.Cmd, s avifSettings) (send func(stdin *os.File) error, err error) {
	return attachSettings(cmd, s.frame())
}
