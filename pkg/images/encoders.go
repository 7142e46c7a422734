package images

import (
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os/exec"

	"github.com/gen2brain/avif"
	"github.com/gen2brain/webp"
)

// Encoder writes an image in one format. ID names the encoder and its
// version; it is part of every cache key, so a new encoder version
// re-encodes.
type Encoder interface {
	Format() string // avif, webp, jpeg or png
	ID() string
	Encode(w io.Writer, m image.Image, quality int) error
}

// mimeTypes are the type attributes of <source>.
var mimeTypes = map[string]string{"avif": "image/avif", "webp": "image/webp", "jpeg": "image/jpeg", "png": "image/png"}

var extensions = map[string]string{"avif": ".avif", "webp": ".webp", "jpeg": ".jpg", "png": ".png"}

// backend says whether gen2brain's encoders run on WebAssembly (wazero) or
// found a shared library; it is part of the encoder IDs.
func backend(dynamicErr error) string {
	if dynamicErr != nil {
		return "wasm"
	}
	return "shared-lib"
}

// AVIF encodes with libavif/aom compiled to WebAssembly
// (github.com/gen2brain/avif v0.4.4's, see avifEncodeWasm), in a child
// process (avifproc.go) that the AVIF of DefaultEncoders keeps while Run
// runs; the zero value, or an AVIF outside Run, starts one per encode.
//
// The default speed is 9 (aom's all-intra cpu-used 9; libavif's 10 is the
// same), with the quality asked for raised by 4 (avifQualityLift): chosen
// by bench/images/native on the site's photographs, it keeps speed 8's
// SSIM, luma and chroma, at every quality measured (30, 50, 70, 85), for
// about a third of speed 8's CPU; bytes are 15-36% fewer on the site's
// sets of variants and up to 40% more on single photos
// (TestAVIFKeepsQuality, bench/images/README.md).
type AVIF struct {
	Speed int
	proc  *avifProcess
}

// avifQualityLift is what speed 9 adds to the quality asked for to keep
// speed 8's SSIM at it (bench/images/README.md, "Native speed (issue 37)").
const avifQualityLift = 4

// NewAVIF is the AVIF encoder at speed (0 means 9) whose encoder process
// command starts: a program linking this package, which serves the
// encodes when its environment says so (avifserve.go). nil runs this
// program again, which every program linking this package can serve.
func NewAVIF(speed int, command func() *exec.Cmd) AVIF {
	return AVIF{Speed: speed, proc: &avifProcess{command: command, maxPixels: DefaultMaxPixels, workers: EncodeWorkers()}}
}

func (AVIF) Format() string { return "avif" }
func (e AVIF) ID() string {
	id := fmt.Sprintf("gen2brain/avif@v0.4.4/%s/speed%d", backend(avif.Dynamic()), e.speed())
	if l := e.lift(); l != 0 {
		id += fmt.Sprintf("/q+%d", l)
	}
	return id
}
func (e AVIF) speed() int {
	if e.Speed == 0 {
		return 9
	}
	return e.Speed
}

// lift is what the encoder adds to the quality asked for.
func (e AVIF) lift() int {
	if e.speed() >= 9 {
		return avifQualityLift
	}
	return 0
}

// quality is libavif's quality for the quality q asked for.
func (e AVIF) quality(q int) int { return min(100, q+e.lift()) }

func (e AVIF) Encode(w io.Writer, m image.Image, q int) error {
	return e.EncodeContext(context.Background(), w, m, q)
}

// EncodeContext is Encode, returning ctx's error as soon as ctx ends (the
// encode under way goes on in the encoder process, unseen).
func (e AVIF) EncodeContext(ctx context.Context, w io.Writer, m image.Image, q int) error {
	if avif.Dynamic() == nil { // a shared libavif, in a build without -tags=nodynamic
		return avif.Encode(w, m, avif.Options{Quality: e.quality(q), QualityAlpha: e.quality(q), Speed: e.speed(), ChromaSubsampling: image.YCbCrSubsampleRatio420})
	}
	proc := e.proc
	if proc == nil {
		proc = NewAVIF(e.Speed, nil).proc
	}
	b, err := proc.encode(ctx, packedRGBA(m), e.quality(q), e.speed())
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Hold keeps the encoder process between encodes, as Run does, until the
// returned func is called (the zero AVIF keeps none).
func (e AVIF) Hold() func() {
	if e.proc == nil {
		return func() {}
	}
	return e.proc.hold()
}

// limitPixels makes maxPixels the bound of the encoder process's frames.
func (e AVIF) limitPixels(maxPixels int) {
	if e.proc != nil {
		e.proc.mu.Lock()
		e.proc.maxPixels = maxPixels
		e.proc.mu.Unlock()
	}
}

// WebP encodes with libwebp compiled to WebAssembly
// (github.com/gen2brain/webp v0.5.5).
type WebP struct{}

func (WebP) Format() string { return "webp" }
func (WebP) ID() string     { return "gen2brain/webp@v0.5.5/" + backend(webp.Dynamic()) + "/m4" }
func (WebP) Encode(w io.Writer, m image.Image, q int) error {
	return webp.Encode(w, m, webp.Options{Quality: q, Method: 4})
}

// JPEG is the standard library's baseline encoder, the fallback for photos.
type JPEG struct{}

func (JPEG) Format() string { return "jpeg" }
func (JPEG) ID() string     { return "go/image/jpeg@1" }
func (JPEG) Encode(w io.Writer, m image.Image, q int) error {
	return jpeg.Encode(w, m, &jpeg.Options{Quality: q})
}

// PNG is the standard library's encoder, the fallback for sources with
// transparency; quality does not apply.
type PNG struct{}

func (PNG) Format() string { return "png" }
func (PNG) ID() string     { return "go/image/png@1/best" }
func (PNG) Encode(w io.Writer, m image.Image, _ int) error {
	return (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(w, m)
}

// DefaultEncoders: AVIF, then the fallback of the source's kind. WebP is
// left out by measurement (go run ./bench/images, the site's 10 photos at
// 650 px): AVIF q50 gives SSIM 0.969 in 8.3 KB, JPEG needs 16.5 KB (q40)
// for the same SSIM, and WebP stays below it up to q85 (0.964, 22 KB), so
// a WebP source would only add files and encoding time.
func DefaultEncoders() Encoders {
	return Encoders{Modern: []Encoder{NewAVIF(0, nil)}, JPEG: JPEG{}, PNG: PNG{}}
}

// WithWebP is DefaultEncoders with WebP as a second modern source.
func WithWebP() Encoders {
	e := DefaultEncoders()
	e.Modern = append(e.Modern, WebP{})
	return e
}

// Encoders are the formats a picture is delivered in: every Modern one as a
// <source>, and JPEG (opaque sources) or PNG (sources with an alpha
// channel) as the <img> fallback.
type Encoders struct {
	Modern    []Encoder
	JPEG, PNG Encoder
}

// holdEncoders keeps what the encoders keep between encodes (the AVIF
// encoder's process) until the returned func is called.
func (p *Processor) holdEncoders() func() {
	var releases []func()
	for _, e := range p.enc.Modern {
		if h, ok := e.(interface{ Hold() func() }); ok {
			releases = append(releases, h.Hold())
		}
	}
	return func() {
		for _, r := range releases {
			r()
		}
	}
}

// encode encodes m with e, stopping with ctx if e can.
func encode(ctx context.Context, e Encoder, w io.Writer, m image.Image, q int) error {
	if ce, ok := e.(interface {
		EncodeContext(context.Context, io.Writer, image.Image, int) error
	}); ok {
		return ce.EncodeContext(ctx, w, m, q)
	}
	return e.Encode(w, m, q)
}
