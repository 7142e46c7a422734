package render

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"sitegen/pkg/content"
	"sitegen/pkg/diag"
	"sitegen/pkg/images"
	"sitegen/pkg/markdown"
)

var update = flag.Bool("update", false, "rewrite testdata/picture.golden")

func encoded(t *testing.T, w, h int, alpha bool) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint8(255)
			if alpha {
				a = uint8(x % 256)
			}
			m.Set(x, y, color.NRGBA{uint8(x), uint8(y), 90, a})
		}
	}
	var b bytes.Buffer
	var err error
	if alpha {
		err = png.Encode(&b, m)
	} else {
		err = jpeg.Encode(&b, m, &jpeg.Options{Quality: 90})
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pictureRenderer(t *testing.T) *Renderer {
	fsys := fstest.MapFS{
		"assets/images/photos/wide.jpg":  {Data: encoded(t, 2000, 1000, false)},
		"assets/images/photos/small.jpg": {Data: encoded(t, 300, 200, false)},
		"assets/images/logo.png":         {Data: encoded(t, 400, 100, true)},
		"assets/static/img/mark.svg":     {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 24"></svg>`)},
	}
	p := images.New(images.Config{FS: fsys, Dirs: []string{"assets/images", "assets/static"}})
	return &Renderer{opts: Options{FS: fsys, StaticDir: "assets/static", Images: p}}
}

// TestPictureGolden pins the markup of the picture function and of Markdown
// images (go test ./pkg/render -run PictureGolden -update rewrites it).
func TestPictureGolden(t *testing.T) {
	r := pictureRenderer(t)
	st := &execState{}
	var out strings.Builder
	for _, c := range []struct {
		name, src, alt string
		opts           map[string]any
	}{
		{"default: widths 163-1300, lazy, spec sizes", "/photos/wide.jpg", "A wide photo", nil},
		{"source narrower than 1300: capped at 300", "/photos/small.jpg", "A small photo", nil},
		{"card crop 16:9 at a focal point, quality 70", "/photos/wide.jpg", "Cropped", map[string]any{"ratio": "16:9", "focus": "0.2,0.5", "quality": 70, "sizes": "(min-width: 740px) 50vw, 100vw", "class": "card__img"}},
		{"LCP: eager, fetchpriority and a preload", "/photos/wide.jpg", "Hero", map[string]any{"eager": true, "ratio": "4:3"}},
		{"transparent PNG: PNG fallback", "/logo.png", "Logo", nil},
		{"decorative: empty alt", "/photos/small.jpg", "", map[string]any{"decorative": true}},
		{"SVG passes through", "/img/mark.svg", "Mark", nil},
	} {
		h, err := r.picture(st, c.src, c.alt, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fmt.Fprintf(&out, "# %s\n%s\n\n", c.name, h)
	}
	md := markdown.New(markdown.Options{})
	body, errs := md.Block(markdown.Source{
		Text:   []byte("Text.\n\n![A meadow](/photos/small.jpg \"ratio=1 quality=60\")\n\n![Not processed](https://example.com/x.png)\n"),
		Images: r.markdownImages(st),
	}, func(dest string) (string, error) { return dest, nil })
	if len(errs) > 0 {
		t.Fatal(errs.Err())
	}
	fmt.Fprintf(&out, "# Markdown\n%s\n", body)
	head := "<head><title>x</title></head><body>"
	fmt.Fprintf(&out, "# head\n%s\n", insert([]byte(head), []insertion{{strings.Index(head, "</head>"), preloadLinks(st.preloads)}}))
	golden := "testdata/picture.golden"
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("picture markup differs from %s (run with -update if intended):\n%s", golden, out.String())
	}
}

// TestPictureAlt: a picture without alt text is an error naming where the
// image was given (a front matter line, a Markdown line and column), unless
// it is marked decorative.
func TestPictureAlt(t *testing.T) {
	r := pictureRenderer(t)
	st := &execState{}
	cover := content.File{Path: "/photos/wide.jpg", Pos: diag.Pos{File: "content/pl/blog/a.md", Line: 7, Col: 8}}
	_, err := r.picture(st, cover, "  ")
	if err == nil || !errors.Is(err, ErrNoAlt) || !strings.HasPrefix(err.Error(), "content/pl/blog/a.md:7:8: image /photos/wide.jpg has no alt text") {
		t.Errorf("front matter cover without alt: %v", err)
	}
	if _, err := r.picture(st, cover, "", map[string]any{"decorative": true}); err != nil {
		t.Errorf("decorative cover: %v", err)
	}
	md := markdown.New(markdown.Options{})
	_, errs := md.Block(markdown.Source{
		Text:   []byte("First line.\n\nSee ![](/photos/small.jpg) here.\n\n![](/photos/small.jpg \"decorative\")\n"),
		Pos:    diag.Pos{File: "content/en/events.md", Line: 9, Col: 1},
		Images: r.markdownImages(st),
	}, func(dest string) (string, error) { return dest, nil })
	if len(errs) != 1 || errs[0].Pos.String() != "content/en/events.md:11:5" || !strings.Contains(errs[0].Message, "has no alt text") {
		t.Errorf("Markdown image without alt: %v", errs.Err())
	}
	_, errs = md.Block(markdown.Source{Text: []byte("![x](/photos/small.jpg \"ratio=wide\")"), Pos: diag.Pos{File: "a.md", Line: 1, Col: 1}, Images: r.markdownImages(st)},
		func(dest string) (string, error) { return dest, nil })
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "ratio") {
		t.Errorf("bad Markdown image option: %v", errs.Err())
	}
}

// TestInsert: insertions land at their offsets in order, those at one
// offset in the order given, in one copy.
func TestInsert(t *testing.T) {
	page := []byte("<head></head><body>X</body>")
	got := string(insert(page, []insertion{{19, "S1"}, {6, "P"}, {19, "S2"}, {0, "<!--a-->"}}))
	want := "<!--a--><head>P</head><body>S1S2X</body>"
	if got != want {
		t.Errorf("insert = %q, want %q", got, want)
	}
	if got := insert(page, nil); &got[0] != &page[0] {
		t.Error("no insertion copied the page")
	}
	if got := preloadLinks([]string{"a", "b", "a"}); got != "ab" {
		t.Errorf("preloadLinks = %q", got)
	}
}

// TestMainAt: <main>'s place in the page once the preloads and script tags
// are inserted: moved by what goes before it, unknown (-1) when something
// goes inside it, unchanged by what goes after it.
func TestMainAt(t *testing.T) {
	page := "<head></head><main>MM</main><slot>"
	m := &pageMarks{mainStart: len("<head></head><main>"), mainEnd: len("<head></head><main>MM")}
	tests := []struct {
		name    string
		inserts []insertion
		want    int
	}{
		{"nothing inserted", nil, m.mainStart},
		{"preload before </head>", []insertion{{len("<head>"), "<link>"}}, m.mainStart + len("<link>")},
		{"at main's start", []insertion{{m.mainStart, "<x>"}}, m.mainStart + len("<x>")},
		{"scripts after main", []insertion{{len(page) - len("<slot>"), "<script></script>"}}, m.mainStart},
		{"both", []insertion{{len(page) - len("<slot>"), "<s>"}, {len("<head>"), "<l>"}}, m.mainStart + len("<l>")},
		{"inside main", []insertion{{m.mainStart + 1, "<i>"}}, -1},
		{"at main's end", []insertion{{m.mainEnd, "<e>"}}, m.mainStart},
	}
	for _, tt := range tests {
		got := mainAt(m, true, tt.inserts)
		if got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
		if html := string(insert([]byte(page), tt.inserts)); got >= 0 && html[got:got+2] != "MM" {
			t.Errorf("%s: %q has no MM at %d", tt.name, html, got)
		}
	}
	if got := mainAt(&pageMarks{}, false, nil); got != 0 {
		t.Errorf("no main: %d", got)
	}
}
