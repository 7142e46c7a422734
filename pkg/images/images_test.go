package images

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gen2brain/avif"
	"github.com/gen2brain/webp"
)

// photo is a w×h JPEG with a gradient, so encoders have real work.
func photo(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x + y) % 256), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func transparent(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, color.NRGBA{200, 30, uint8(x), uint8(y * 255 / h)})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// counting wraps an encoder and counts its calls.
type counting struct {
	Encoder
	n *atomic.Int64
}

func (c counting) Encode(w io.Writer, m image.Image, q int) error {
	c.n.Add(1)
	return c.Encoder.Encode(w, m, q)
}

func countingEncoders(n *atomic.Int64) *Encoders {
	d := DefaultEncoders()
	for i, e := range d.Modern {
		d.Modern[i] = counting{e, n}
	}
	d.JPEG, d.PNG = counting{d.JPEG, n}, counting{d.PNG, n}
	return &d
}

func testFS(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"assets/images/photos/a.jpg": {Data: photo(t, 700, 400)},
		"assets/images/logo.png":     {Data: transparent(t, 200, 100)},
		"assets/static/img/x.svg":    {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>`)},
	}
}

// TestEncoders: every variant decodes, in the format its type names, at
// the width and height the markup promises.
func TestEncoders(t *testing.T) {
	enc := WithWebP()
	p := New(Config{FS: testFS(t), Dirs: []string{"assets/images", "assets/static"}, Encoders: &enc})
	jpg, err := p.Picture("/photos/a.jpg", Options{Ratio: 16.0 / 9, FocusX: 0.2, FocusY: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	pngPic, err := p.Picture("/logo.png", Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, err := p.Run(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath["/"+f.Path] = f.Data
	}
	decoders := map[string]func(io.Reader) (image.Image, error){
		"image/avif": avif.Decode, "image/webp": webp.Decode, "image/jpeg": jpeg.Decode, "image/png": png.Decode,
	}
	check := func(pic *Picture, wantTypes []string, wantWidths []int) {
		t.Helper()
		all := append(append([]Source{}, pic.Sources...), pic.Fallback)
		var types []string
		for _, s := range all {
			types = append(types, s.Type)
			var widths []int
			for _, v := range s.Variants {
				widths = append(widths, v.Width)
				b, ok := byPath[v.URL]
				if !ok {
					t.Fatalf("%s: not made", v.URL)
				}
				m, err := decoders[s.Type](bytes.NewReader(b))
				if err != nil {
					t.Fatalf("%s does not decode as %s: %v", v.URL, s.Type, err)
				}
				if got := m.Bounds().Size(); got.X != v.Width || got.Y != v.Height {
					t.Errorf("%s is %v, markup says %dx%d", v.URL, got, v.Width, v.Height)
				}
			}
			if got, want := widths, wantWidths; !equal(got, want) {
				t.Errorf("%s widths %v, want %v", s.Type, got, want)
			}
		}
		if !equalS(types, wantTypes) {
			t.Errorf("types %v, want %v", types, wantTypes)
		}
	}
	check(jpg, []string{"image/avif", "image/webp", "image/jpeg"}, []int{163, 325, 650, 700})
	if jpg.Width != 700 || jpg.Height != 394 {
		t.Errorf("16:9 crop of 700x400 is %dx%d, want 700x394", jpg.Width, jpg.Height)
	}
	check(pngPic, []string{"image/avif", "image/webp", "image/png"}, []int{163, 200})
	// The PNG fallback keeps its transparency.
	var fb []byte = byPath[pngPic.Fallback.Largest().URL]
	m, _ := png.Decode(bytes.NewReader(fb))
	if _, _, _, a := m.At(5, 0).RGBA(); a != 0 {
		t.Errorf("PNG fallback lost its alpha channel (top row alpha %d)", a)
	}
	svg, err := p.Picture("/img/x.svg", Options{})
	if err != nil || !svg.SVG || svg.URL != "/img/x.svg" {
		t.Errorf("SVG does not pass through: %+v, %v", svg, err)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalS(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

// TestCacheHit: a second processor on the same cache folder (a rebuild)
// calls no encoder and writes the same bytes; a different quality encodes again.
func TestCacheHit(t *testing.T) {
	fsys, cache := testFS(t), t.TempDir()
	var calls atomic.Int64
	build := func(q int) ([]File, Stats) {
		p := New(Config{FS: fsys, Dirs: []string{"assets/images"}, CacheDir: cache, Encoders: countingEncoders(&calls)})
		if _, err := p.Picture("/photos/a.jpg", Options{Quality: q}); err != nil {
			t.Fatal(err)
		}
		files, err := p.Run(context.Background(), 2)
		if err != nil {
			t.Fatal(err)
		}
		return files, p.Stats()
	}
	first, st := build(0)
	if n := calls.Load(); n != 8 || st.Processed != 8 || st.Cached != 0 {
		t.Fatalf("cold build: %d encoder calls, %s; want 8 processed (4 widths, AVIF and JPEG)", n, st.Summary())
	}
	second, st := build(0)
	if n := calls.Load(); n != 8 {
		t.Errorf("rebuild called encoders %d more times, want 0", n-8)
	}
	if st.Summary() != "images: 0 processed, 8 from cache" {
		t.Errorf("rebuild summary %q", st.Summary())
	}
	if len(first) != len(second) {
		t.Fatalf("rebuild made %d files, first build %d", len(second), len(first))
	}
	for i := range first {
		if first[i].Path != second[i].Path || !bytes.Equal(first[i].Data, second[i].Data) {
			t.Errorf("rebuild differs at %s", first[i].Path)
		}
	}
	build(70)
	if n := calls.Load(); n != 16 {
		t.Errorf("quality 70 after quality 50: %d encoder calls, want 8 more", n-8)
	}
}

// TestCacheWriteFails: a cache folder that cannot be written (a full
// disk; here a file where the folder should be) does not fail Run: the
// variants are made, and CacheErr says what went wrong, naming the
// folder, for the build's warning. Run failed with the error (issue 36).
func TestCacheWriteFails(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(cache, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	p := New(Config{FS: testFS(t), Dirs: []string{"assets/images"}, CacheDir: cache, Encoders: countingEncoders(&calls)})
	if _, err := p.Picture("/photos/a.jpg", Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := p.Run(context.Background(), 2)
	if err != nil || len(files) != 8 {
		t.Fatalf("Run: %d files, %v; want 8 files and no error", len(files), err)
	}
	if err := p.CacheErr(); err == nil || !strings.Contains(err.Error(), cache) {
		t.Errorf("CacheErr: %v, want the error naming %s", err, cache)
	}
}

func TestCrop(t *testing.T) {
	for _, c := range []struct {
		w, h int
		o    Options
		want image.Rectangle
	}{
		{1000, 500, Options{}, image.Rect(0, 0, 1000, 500)},
		{1000, 500, Options{Ratio: 1}, image.Rect(250, 0, 750, 500)},
		{1000, 500, Options{Ratio: 1, FocusX: 0.1, FocusY: 0.5}, image.Rect(0, 0, 500, 500)},
		{1000, 500, Options{Ratio: 1, FocusX: 0.9, FocusY: 0.5}, image.Rect(500, 0, 1000, 500)},
		{1000, 1000, Options{Ratio: 2, FocusX: 0.5, FocusY: 0.8}, image.Rect(0, 500, 1000, 1000)},
		{1000, 1000, Options{Ratio: 2, FocusX: 0.5, FocusY: 0.6}, image.Rect(0, 350, 1000, 850)},
	} {
		if got := Crop(c.w, c.h, c.o); got != c.want {
			t.Errorf("Crop(%d, %d, %+v) = %v, want %v", c.w, c.h, c.o, got, c.want)
		}
	}
}

func TestWidths(t *testing.T) {
	for _, c := range []struct {
		max  int
		want []int
	}{
		{2560, []int{163, 325, 650, 1300}},
		{1300, []int{163, 325, 650, 1300}},
		{1280, []int{163, 325, 650, 1280}},
		{100, []int{100}},
	} {
		if got := Widths(c.max, nil); !equal(got, c.want) {
			t.Errorf("Widths(%d) = %v, want %v", c.max, got, c.want)
		}
	}
}

func TestPictureErrors(t *testing.T) {
	p := New(Config{FS: testFS(t), Dirs: []string{"assets/images"}})
	for path, want := range map[string]string{
		"/photos/missing.jpg": "no image /photos/missing.jpg",
		"/photos/../a.jpg":    "not a clean site path",
		"photos/a.jpg":        "not a clean site path",
	} {
		if _, err := p.Picture(path, Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Picture(%q): %v, want %q", path, err, want)
		}
	}
	fsys := testFS(t)
	fsys["assets/images/Łąka, lato 1.jpg"] = fsys["assets/images/photos/a.jpg"]
	pic, err := New(Config{FS: fsys, Dirs: []string{"assets/images"}}).Picture("/Łąka, lato 1.jpg", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range pic.Fallback.Variants { // a space or comma would break the srcset
		if strings.ContainsAny(v.URL, " ,") || !strings.HasPrefix(v.URL, "/_assets/img/----ka--lato-1-") {
			t.Errorf("variant URL %q of \"Łąka, lato 1.jpg\"", v.URL)
		}
	}
	if _, err := p.Picture("/photos/a.jpg", Options{Quality: 101}); err == nil {
		t.Error("quality 101 accepted")
	}
}

// TestForget: after an edit, Forget drops the source (and a copy with the
// same bytes, which shares its variants) with the variants named from it;
// the next Picture reads the new bytes and names new variants.
func TestForget(t *testing.T) {
	fsys := testFS(t)
	fsys["assets/images/copy/a.jpg"] = &fstest.MapFile{Data: fsys["assets/images/photos/a.jpg"].Data}
	p := New(Config{FS: fsys, Dirs: []string{"assets/images"}})
	a, err := p.Picture("/photos/a.jpg", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Picture("/copy/a.jpg", Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Picture("/logo.png", Options{}); err != nil {
		t.Fatal(err)
	}
	fsys["assets/images/photos/a.jpg"] = &fstest.MapFile{Data: photo(t, 600, 400)}
	sources, variants := p.Forget("/photos")
	if !equalS(sources, []string{"/copy/a.jpg", "/photos/a.jpg"}) {
		t.Errorf("forgot %v, want both copies of a.jpg", sources)
	}
	var want []string
	for _, s := range append(a.Sources, a.Fallback) {
		for _, v := range s.Variants {
			want = append(want, strings.TrimPrefix(v.URL, "/"))
		}
	}
	sort.Strings(want)
	if !equalS(variants, want) {
		t.Errorf("variants %v, want %v", variants, want)
	}
	b, err := p.Picture("/photos/a.jpg", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Width != 600 || b.Fallback.Default().URL == a.Fallback.Default().URL {
		t.Errorf("after Forget: %d px at %s, want the new 600 px photo under a new name", b.Width, b.Fallback.Default().URL)
	}
	if s, v := p.Forget("/logo.png"); !equalS(s, []string{"/logo.png"}) || len(v) == 0 {
		t.Errorf("Forget(/logo.png) = %v, %v", s, v)
	}
}

// slow wraps an encoder: its first call says so on busy and waits for
// release, as an AVIF encode of a large photo keeps a worker for seconds.
type slow struct {
	Encoder
	busy    chan<- struct{}
	release <-chan struct{}
	once    *sync.Once
}

func (s slow) Encode(w io.Writer, m image.Image, q int) error {
	s.once.Do(func() {
		s.busy <- struct{}{}
		<-s.release
	})
	return s.Encoder.Encode(w, m, q)
}

// TestRunStopsAtOnce: cancelled (Ctrl+C), Run returns without waiting for
// the encode under way (a build once waited seconds for it before it
// could remove its temporary tree and exit).
func TestRunStopsAtOnce(t *testing.T) {
	busy, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	enc := DefaultEncoders()
	enc.Modern = []Encoder{slow{enc.Modern[0], busy, release, new(sync.Once)}}
	p := New(Config{FS: testFS(t), Dirs: []string{"assets/images"}, Encoders: &enc})
	if _, err := p.Picture("/photos/a.jpg", Options{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() {
		_, err := p.Run(ctx, 1)
		ran <- err
	}()
	<-busy
	cancel()
	select {
	case err := <-ran:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute): // a bound for a hang, not a timing check
		t.Fatal("Run waits for the encode under way")
	}
}
