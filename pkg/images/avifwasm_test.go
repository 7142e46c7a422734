package images

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	"io"
	"testing"

	"github.com/gen2brain/avif"
)

// TestAVIFMatchesLibrary: the encoder kept between encodes (DefaultEncoders)
// writes the bytes of gen2brain/avif's Encode, for photos and a source
// with an alpha channel, at several sizes, one instance doing all.
func TestAVIFMatchesLibrary(t *testing.T) {
	if avif.Dynamic() == nil {
		t.Skip("a shared libavif encodes")
	}
	enc := DefaultEncoders().Modern[0].(AVIF)
	defer enc.Hold()() // one encoder process for all
	srcs := []image.Image{decode(t, photo(t, 700, 400)), decode(t, transparent(t, 200, 100)), decode(t, photo(t, 37, 23))}
	for i, src := range srcs {
		for _, q := range []int{50, 80} {
			rgba := image.NewRGBA(src.Bounds())
			draw.Draw(rgba, rgba.Rect, src, src.Bounds().Min, draw.Src)
			var want, got bytes.Buffer
			lq := enc.quality(q) // the default speed's lift
			if err := avif.Encode(&want, rgba, avif.Options{Quality: lq, QualityAlpha: lq, Speed: enc.speed(), ChromaSubsampling: image.YCbCrSubsampleRatio420}); err != nil {
				t.Fatal(err)
			}
			if err := enc.Encode(&got, src, q); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("source %d at q%d: %d bytes, gen2brain/avif wrote %d others", i, q, got.Len(), want.Len())
			}
		}
	}
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	m, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRunEndsAVIFProcess: Run's encodes share one encoder process (the
// module compiled once), which ends with Run, as it does once Variant
// answered, so a dev server keeps none (an instance of the encoder grows
// to 120 MB) between builds and requests.
func TestRunEndsAVIFProcess(t *testing.T) {
	enc := DefaultEncoders()
	var seen []*avifChild
	e := watched{enc.Modern[0].(AVIF), &seen}
	enc.Modern[0] = e
	p := New(Config{FS: testFS(t), Dirs: []string{"assets/images"}, Encoders: &enc})
	if _, err := p.Picture("/photos/a.jpg", Options{Widths: []int{100, 200}}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != seen[1] {
		t.Fatalf("Run's 2 encodes ran in %v, want one process", seen)
	}
	checkGone(t, seen[0])
	pic, err := p.Picture("/photos/a.jpg", Options{Widths: []int{120}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := p.Variant(context.Background(), pic.Sources[0].Variants[0].URL); !ok || err != nil {
		t.Fatalf("Variant: %v, %v", ok, err)
	}
	if len(seen) != 3 || seen[2] == seen[0] {
		t.Fatalf("Variant's encode ran in %v, want a new process", seen[2:])
	}
	checkGone(t, seen[2])
}

// watched is the AVIF encoder noting the process of each encode.
type watched struct {
	AVIF
	seen *[]*avifChild
}

func (e watched) EncodeContext(ctx context.Context, w io.Writer, m image.Image, q int) error {
	defer e.Hold()() // the process stays until it is noted
	err := e.AVIF.EncodeContext(ctx, w, m, q)
	e.proc.mu.Lock()
	*e.seen = append(*e.seen, e.proc.child)
	e.proc.mu.Unlock()
	return err
}
