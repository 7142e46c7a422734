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
	defer enc.release()
	srcs := []image.Image{decode(t, photo(t, 700, 400)), decode(t, transparent(t, 200, 100)), decode(t, photo(t, 37, 23))}
	for i, src := range srcs {
		for _, q := range []int{50, 80} {
			rgba := image.NewRGBA(src.Bounds())
			draw.Draw(rgba, rgba.Rect, src, src.Bounds().Min, draw.Src)
			var want, got bytes.Buffer
			if err := avif.Encode(&want, rgba, avif.Options{Quality: q, QualityAlpha: q, Speed: 8, ChromaSubsampling: image.YCbCrSubsampleRatio420}); err != nil {
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
	if n := len(enc.instances.idle); n != 1 {
		t.Errorf("%d instances kept after encodes one at a time, want 1", n)
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

// TestRunReleasesAVIFInstances: the instances an AVIF encoder kept (up to
// 120 MB each) are closed once Run ends, and once Variant answered, so a
// dev server holds none between builds and requests.
func TestRunReleasesAVIFInstances(t *testing.T) {
	enc := DefaultEncoders()
	kept := enc.Modern[0].(AVIF).instances
	var used int
	enc.Modern[0] = counted{enc.Modern[0], kept, &used}
	p := New(Config{FS: testFS(t), Dirs: []string{"assets/images"}, Encoders: &enc})
	if _, err := p.Picture("/photos/a.jpg", Options{Widths: []int{100, 200}}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if used == 0 {
		t.Fatal("no AVIF encode ran")
	}
	if n := len(kept.idle); n != 0 {
		t.Errorf("%d instances kept after Run, want 0", n)
	}
	pic, err := p.Picture("/photos/a.jpg", Options{Widths: []int{120}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := p.Variant(context.Background(), pic.Sources[0].Variants[0].URL); !ok || err != nil {
		t.Fatalf("Variant: %v, %v", ok, err)
	}
	if n := len(kept.idle); n != 0 {
		t.Errorf("%d instances kept after Variant, want 0", n)
	}
}

// counted wraps the AVIF encoder, noting how many instances it kept after
// each encode, and passes release on.
type counted struct {
	Encoder
	kept *avifInstances
	max  *int
}

func (c counted) Encode(w io.Writer, m image.Image, q int) error {
	err := c.Encoder.Encode(w, m, q)
	c.kept.mu.Lock()
	*c.max = max(*c.max, len(c.kept.idle))
	c.kept.mu.Unlock()
	return err
}

func (c counted) release() { c.Encoder.(AVIF).release() }
