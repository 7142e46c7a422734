package images

import (
	"context"
	"image"
	"image/color"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRunReusesCheckDecoding: Run makes a source's variants from the
// decoding Picture's check kept (the source's bytes are garbage by then,
// so a second decoding would fail), while the images kept stay within 4
// bytes times the pixel limit: the third source here, beyond it, is
// decoded again, and fails.
func TestRunReusesCheckDecoding(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, n := range []string{"a", "b", "c"} {
		fsys["assets/images/"+n+".jpg"] = &fstest.MapFile{Data: photo(t, 700, 400)}
	}
	// A 700×400 JPEG decodes to 422,400 bytes of YCbCr 4:2:0: two fit in
	// 4 × 300,000, three do not.
	enc := Encoders{JPEG: JPEG{}, PNG: PNG{}}
	p := New(Config{FS: fsys, Dirs: []string{"assets/images"}, Encoders: &enc, MaxPixels: 300_000})
	for _, n := range []string{"a", "b", "c"} {
		if _, err := p.Picture("/"+n+".jpg", Options{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range p.sources {
		s.data = []byte("not an image any more")
	}
	_, err := p.Run(context.Background(), 1)
	if err == nil || !strings.Contains(err.Error(), "c.jpg") || strings.Contains(err.Error(), "a.jpg") || strings.Contains(err.Error(), "b.jpg") {
		t.Fatalf("Run: %v; want c.jpg alone to fail (decoded again), a and b made from the checks' decoding", err)
	}
	if p.held != 0 {
		t.Errorf("%d bytes of decoded images still kept after Run", p.held)
	}

	// A source whose variants all came from the cache by Run (another
	// build filled it) lets go of its check's decoding too.
	cache := t.TempDir()
	fsys = fstest.MapFS{"assets/images/a.jpg": &fstest.MapFile{Data: photo(t, 700, 400)}}
	builds := [2]*Processor{}
	for i := range builds {
		builds[i] = New(Config{FS: fsys, Dirs: []string{"assets/images"}, CacheDir: cache, Encoders: &enc})
		if _, err := builds[i].Picture("/a.jpg", Options{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []*Processor{builds[1], builds[0]} {
		if _, err := b.Run(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
	}
	if st := builds[0].Stats(); st.Processed != 0 || builds[0].held != 0 {
		t.Errorf("a build whose variants were all in the cache: %s, %d bytes still kept", st.Summary(), builds[0].held)
	}
}

// TestPackedRGBA: an *image.RGBA at the origin with rows that follow each
// other is used as it is; a sub-image (off the origin, rows apart) and
// another kind of image are copied to one, pixel for pixel.
func TestPackedRGBA(t *testing.T) {
	whole := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for i := range whole.Pix {
		whole.Pix[i] = byte(i)
	}
	if got := packedRGBA(whole); got != whole {
		t.Errorf("a packed RGBA at the origin was copied")
	}
	sub := whole.SubImage(image.Rect(1, 1, 3, 3)).(*image.RGBA)
	nrgba := image.NewNRGBA(image.Rect(2, 5, 4, 7))
	for y := 0; y < 2; y++ {
		for x := 0; x < 2; x++ {
			nrgba.SetNRGBA(2+x, 5+y, color.NRGBA{R: byte(10 * x), G: byte(20 * y), B: 7, A: 255})
		}
	}
	for _, m := range []image.Image{sub, nrgba} {
		got := packedRGBA(m)
		b := m.Bounds()
		if got.Rect != image.Rect(0, 0, b.Dx(), b.Dy()) || got.Stride != 4*b.Dx() {
			t.Fatalf("%T: got rect %v stride %d, want %v stride %d", m, got.Rect, got.Stride, image.Rect(0, 0, b.Dx(), b.Dy()), 4*b.Dx())
		}
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				if want := color.RGBAModel.Convert(m.At(b.Min.X+x, b.Min.Y+y)); got.At(x, y) != want {
					t.Errorf("%T: pixel (%d, %d) = %v, want %v", m, x, y, got.At(x, y), want)
				}
			}
		}
	}
}
