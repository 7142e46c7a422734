package devserver

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"testing"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
	"sitegen/pkg/images"
	"sitegen/pkg/output"
)

// gatedJPEG is the JPEG encoder (same ID, same bytes) that, for images
// block pixels wide, says so on entered and waits for release.
type gatedJPEG struct {
	images.JPEG
	block   int
	entered chan struct{}
	release chan struct{}
}

func (g gatedJPEG) Encode(w io.Writer, m image.Image, q int) error {
	if m.Bounds().Dx() == g.block {
		select {
		case g.entered <- struct{}{}:
		default:
		}
		<-g.release
	}
	return g.JPEG.Encode(w, m, q)
}

// TestServePagesBeforePictures: the dev server serves its pages while the
// picture variants they show are still being encoded (the encoder held at
// the 163 px variant by a gate, in the background encoding that follows
// the background check of every page), with the markup of a build; a
// variant asked for meanwhile is encoded on demand with a build's bytes;
// once the background encoding ends, every file is a build's, variants
// included.
func TestServePagesBeforePictures(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	m := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for y := range 300 {
		for x := range 400 {
			m.Set(x, y, color.RGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var photo bytes.Buffer
	if err := jpeg.Encode(&photo, m, nil); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "assets/images/photos/field.jpg", photo.String())
	replace(t, dir, "content/pl/kontakt.md", "Pisz na", "![Pole](/photos/field.jpg)\n\nPisz na")

	// What a build writes, with the encoder ungated (JPEG only, as below:
	// AVIF would make the test slow) and a cache of its own.
	out := filepath.Join(t.TempDir(), "public")
	jpegOnly := images.Encoders{JPEG: images.JPEG{}, PNG: images.PNG{}}
	if _, err := build.Run(context.Background(), build.Options{Source: dir, Out: out, Date: "2026-01-01", Minify: true, ImageCache: t.TempDir(), ImageEncoders: &jpegOnly}); err != nil {
		t.Fatal(err)
	}
	want := treetest.Read(t, out)
	delete(want, output.ManifestName)

	gate := gatedJPEG{block: 163, entered: make(chan struct{}, 1), release: make(chan struct{})}
	released := false
	defer func() {
		if !released {
			close(gate.release)
		}
	}()
	enc := images.Encoders{JPEG: gate, PNG: images.PNG{}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan *Server, 1)
	go func() {
		s, err := New(ctx, Options{Build: build.Options{Source: dir, Date: "2026-01-01", Minify: true, ImageCache: t.TempDir(), ImageEncoders: &enc}})
		if err != nil {
			t.Error(err)
		}
		started <- s
	}()
	s := receive(t, started, "server started")
	if s == nil {
		t.FailNow()
	}
	defer s.Close()
	s.picturesAdded = make(chan struct{}, 1)
	hs := httptest.NewServer(s)
	defer hs.Close()
	go s.Watch(ctx)

	code, body, _ := get(t, hs.URL+"/pl/o-nas/kontakt/")
	if code != 200 {
		t.Fatalf("page before its variants: %d", code)
	}
	receive(t, gate.entered, "encoding of the 163 px variant")
	if page := string(want["pl/o-nas/kontakt/index.html"]); !bytes.Contains([]byte(body), []byte(page[:bytes.Index([]byte(page), []byte("</head>"))])) {
		t.Errorf("the page's head differs from the build's")
	}
	picture := regexp.MustCompile(`<img[^>]*/_assets/img/field-[0-9a-f]+-400\.jpg[^>]*>`).FindString(body)
	if picture == "" || !regexp.MustCompile(`width="400" height="300"`).MatchString(picture) {
		t.Fatalf("the page shows no sized variant of field.jpg: %q", picture)
	}
	for _, w := range []string{"163", "325"} {
		v := regexp.MustCompile(`/_assets/img/field-[0-9a-f]+-` + w + `\.jpg`).FindString(body)
		if v == "" {
			t.Fatalf("the page names no %s px variant", w)
		}
		if w == "163" {
			continue // held by the gate
		}
		code, got, h := get(t, hs.URL+v)
		if code != 200 || h.Get("Content-Type") != "image/jpeg" || got != string(want[v[1:]]) {
			t.Errorf("%s before its encoding ended: %d %s, %d bytes; want the build's %d bytes", v, code, h.Get("Content-Type"), len(got), len(want[v[1:]]))
		}
	}

	close(gate.release)
	released = true
	receive(t, s.picturesAdded, "the variants added to the output")
	for name, b := range want {
		if got, _ := s.File(name); !bytes.Equal(got, b) {
			t.Errorf("%s differs from the build once the variants are done", name)
		}
	}
}
