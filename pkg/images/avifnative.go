package images

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// NativeAVIF encodes AVIF with the machine's own avifenc (libavif's
// command line encoder: Debian's and Ubuntu's libavif-bin, Homebrew's
// libavif), one process per encode, when a site chooses it (site.yaml's
// images.avif: native). It is several times faster than the portable AVIF
// encoder (bench/images/README.md), and its bytes are the machine's: its
// ID, in every variant's key and URL, names avifenc's libavif and aom
// versions and the CPU architecture, so a native variant is never taken
// for a portable one and a machine with another libavif makes other keys.
//
// It is given the pixels the portable encoder is given, as Y4M on its
// standard input (writeY4M: 4:2:0, full range BT.601, converted here in
// integers), and encodes at the portable encoder's speed (9: aom's
// all-intra cpu-used 9) one quantizer finer than the portable encoder's
// quality maps to (nativeQuantizer), which keeps the portable encoder's
// SSIM, luma and chroma, on the website's photographs
// (TestNativeAVIFKeepsQuality).
type NativeAVIF struct {
	path    string // avifenc's
	libavif string // versions, from avifenc --version
	aom     string
	// where names the setting that chose the encoder ("site.yaml:12:
	// images.avif: native"), in every error of an encode.
	where     string
	timeout   time.Duration // of one encode: a process that takes longer is hung
	maxPixels atomic.Int64
}

// nativeSpeed is avifenc's --speed: 9, the portable encoder's (both are
// aom's all-intra cpu-used 9 for a still image).
const nativeSpeed = 9

// nativeProbeTimeout bounds avifenc --version.
const nativeProbeTimeout = 10 * time.Second

// NewNativeAVIF finds avifenc in PATH and asks its version; where names
// the setting that chose it, for the errors of its encodes. The error of
// a missing or unusable avifenc says so, and how to install it.
func NewNativeAVIF(where string) (*NativeAVIF, error) {
	path, err := exec.LookPath("avifenc")
	if err != nil {
		return nil, errors.New("avifenc not found in PATH; install it (Debian, Ubuntu: apt-get install libavif-bin; macOS: brew install libavif) or remove the setting")
	}
	ctx, cancel := context.WithTimeout(context.Background(), nativeProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %v", path, err)
	}
	libavif, aom, err := parseAvifencVersion(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	n := &NativeAVIF{path: path, libavif: libavif, aom: aom, where: where, timeout: avifEncodeTimeout}
	n.maxPixels.Store(DefaultMaxPixels)
	return n, nil
}

// NativeEncoders is DefaultEncoders with the native AVIF encoder
// (NewNativeAVIF) in the portable one's place.
func NativeEncoders(where string) (Encoders, error) {
	n, err := NewNativeAVIF(where)
	if err != nil {
		return Encoders{}, err
	}
	e := DefaultEncoders()
	e.Modern = []Encoder{n}
	return e, nil
}

var (
	avifencVersion = regexp.MustCompile(`(?m)^Version: ([0-9][^ ,()]*)`)
	avifencAOM     = regexp.MustCompile(`\baom \[[a-z/]*enc[a-z/]*\]:\s*([^ ,()]+)`)
)

// parseAvifencVersion reads libavif's and aom's versions from avifenc
// --version ("Version: 0.11.1 (dav1d [dec]:1.0.0, aom [enc/dec]:v3.6.0,
// ...)"); an avifenc without aom's encoder is refused (-c aom chooses it).
func parseAvifencVersion(out []byte) (libavif, aom string, err error) {
	v := avifencVersion.FindSubmatch(out)
	if v == nil {
		return "", "", fmt.Errorf("no version in avifenc --version's %q", firstLine(out))
	}
	a := avifencAOM.FindSubmatch(out)
	if a == nil {
		return "", "", fmt.Errorf("avifenc %s has no aom encoder (avifenc --version: %q)", v[1], firstLine(out))
	}
	return string(v[1]), string(a[1]), nil
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(b), []byte("\n"))
	if len(line) > 200 {
		line = line[:200]
	}
	return string(line)
}

func (*NativeAVIF) Format() string { return "avif" }

// ID names what decides the bytes: avifenc's libavif and aom, the CPU
// architecture (aom's code differs by it; on amd64 its bytes were the
// same from SSE2 to AVX-512), the settings, and the Y4M conversion.
func (n *NativeAVIF) ID() string {
	return fmt.Sprintf("avifenc/libavif@%s/aom@%s/%s/speed%d/q+%d/quantizer-1/y4m1", n.libavif, n.aom, runtime.GOARCH, nativeSpeed, avifQualityLift)
}

// limitPixels makes maxPixels the bound of an encode's pixels.
func (n *NativeAVIF) limitPixels(maxPixels int) { n.maxPixels.Store(int64(maxPixels)) }

// libavifQuantizer is libavif's quantizer (0-63) for a quality (0-100), as
// libavif 1.x maps avifEncoder.quality (avifQualityToQuantizer in its
// write.c): the portable encoder's quantizer.
func libavifQuantizer(quality int) int {
	quality = max(0, min(100, quality))
	return ((100-quality)*63 + 50) / 100
}

// nativeQuantizer is avifenc's quantizer for the quality q asked for: one
// step finer than the portable encoder's (q raised by avifQualityLift),
// which at the same quantizer writes about 1% fewer bytes and up to 0.0005
// less SSIM; never lossless (0) unless the portable one is.
func nativeQuantizer(q int) int {
	p := libavifQuantizer(min(100, q+avifQualityLift))
	if p <= 1 {
		return p
	}
	return p - 1
}

func (n *NativeAVIF) Encode(w io.Writer, m image.Image, q int) error {
	return n.EncodeContext(context.Background(), w, m, q)
}

// EncodeContext encodes m with one avifenc process, killed when ctx ends
// or the encode takes longer than its timeout. A process that cannot
// start, is killed by someone else or hangs fails Run for good
// (fatalError): every other encode would too.
func (n *NativeAVIF) EncodeContext(ctx context.Context, w io.Writer, m image.Image, q int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	wd, ht := m.Bounds().Dx(), m.Bounds().Dy()
	if limit := n.maxPixels.Load(); wd < 1 || ht < 1 || int64(wd)*int64(ht) > limit {
		return fmt.Errorf("%s: %d×%d pixels, outside 1-%d", n.where, wd, ht, limit)
	}
	b, err := n.run(ctx, packedRGBA(m), nativeQuantizer(q))
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// run encodes m at quantizer with one avifenc, into a temporary file
// (avifenc writes only to a file, and says what it does on stdout).
func (n *NativeAVIF) run(ctx context.Context, m *image.RGBA, quantizer int) ([]byte, error) {
	out, err := os.CreateTemp("", "sitegen-avif-*.avif")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", n.where, err)
	}
	out.Close()
	defer os.Remove(out.Name())
	tctx, cancel := context.WithTimeout(ctx, n.timeout)
	defer cancel()
	qs := strconv.Itoa(quantizer)
	cmd := exec.CommandContext(tctx, n.path, "--stdin", "-j", "1", "-c", "aom", "-s", strconv.Itoa(nativeSpeed),
		"--min", qs, "--max", qs, "--minalpha", qs, "--maxalpha", qs, "--cicp", "1/13/6", "--", out.Name())
	said := &tailWriter{max: avifErrorLimit}
	cmd.Stdout, cmd.Stderr = said, said
	cmd.WaitDelay = time.Second
	dieWithParent(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", n.where, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fatalError{fmt.Errorf("%s: %s cannot be started: %v; install libavif-bin or remove the setting", n.where, n.path, err)}
	}
	werr := writeY4M(stdin, m) // fails at once if the process ends
	stdin.Close()
	err = cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case tctx.Err() != nil:
		return nil, fatalError{fmt.Errorf("%s: avifenc (process %d) hung: no result within %v, killed", n.where, cmd.Process.Pid, n.timeout)}
	case err != nil && cmd.ProcessState != nil && cmd.ProcessState.ExitCode() == -1: // a signal
		return nil, fatalError{fmt.Errorf("%s: avifenc (process %d) was killed (%v)%s", n.where, cmd.Process.Pid, cmd.ProcessState, saying(said))}
	case err != nil:
		return nil, fmt.Errorf("%s: avifenc failed (%v)%s", n.where, err, saying(said))
	case werr != nil:
		return nil, fmt.Errorf("%s: avifenc did not read the image (%v)%s", n.where, werr, saying(said))
	}
	return readNativeOutput(out.Name(), m, n.where)
}

// readNativeOutput reads what avifenc wrote, refusing more than a reply of
// the portable encoder may hold, or what is not an AVIF file.
func readNativeOutput(name string, m *image.RGBA, where string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: avifenc's output: %w", where, err)
	}
	defer f.Close()
	limit := avifReplyLimit(uint32(m.Rect.Dx()), uint32(m.Rect.Dy()))
	b, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: avifenc's output: %w", where, err)
	case uint64(len(b)) > limit:
		return nil, fmt.Errorf("%s: avifenc wrote more than %d bytes", where, limit)
	case len(b) < 12 || string(b[4:12]) != "ftypavif":
		return nil, fmt.Errorf("%s: avifenc wrote %d bytes that are not an AVIF image", where, len(b))
	}
	return b, nil
}

// saying is the last lines the process printed (avifenc says what it does
// on stdout, and why it failed last), after a colon, or "".
func saying(t *tailWriter) string {
	lines := strings.Split(t.String(), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	if s := strings.TrimSpace(strings.Join(lines, " / ")); s != "" {
		return ": " + s
	}
	return ""
}

// Program names the program outside sitegen the encoder runs, whose
// version decides its bytes (Processor.Programs).
func (*NativeAVIF) Program() string { return "avifenc" }

// Programs are the programs outside sitegen whose versions decide the
// variants' bytes, by name, with the ID each encoder has of them: what a
// warm build's record notes, to be checked again (ProgramID) before a
// build that changed nothing is trusted.
func (p *Processor) Programs() map[string]string {
	out := map[string]string{}
	for _, e := range p.enc.Modern {
		if pe, ok := e.(interface{ Program() string }); ok {
			out[pe.Program()] = e.ID()
		}
	}
	return out
}

// ProgramID is the ID an encoder would have now of the program name (one
// of Programs' names), or "" when there is none fit to encode.
func ProgramID(name string) string {
	if name != "avifenc" {
		return ""
	}
	n, err := NewNativeAVIF("")
	if err != nil {
		return ""
	}
	return n.ID()
}
