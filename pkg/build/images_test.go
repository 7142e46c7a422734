package build

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// writePhoto writes a w×h JPEG into the site's assets/images.
func writePhoto(t *testing.T, site, rel string, w, h int) {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, color.RGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(site, ImageDir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendBody(t *testing.T, file, text string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(b, text...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuildImages: a Markdown image of a source photo becomes a <picture>
// whose every variant is in the output (the original is not); the report
// counts the variants made, and a rebuild takes all of them from the cache.
func TestBuildImages(t *testing.T) {
	src := fixtureCopy(t)
	writePhoto(t, src, "photos/field.jpg", 400, 300)
	page := filepath.Join(src, "content/pl/kontakt.md")
	appendBody(t, page, "\n![Pole o zachodzie](/photos/field.jpg \"ratio=16:9\")\n")
	cache := filepath.Join(t.TempDir(), "cache")
	run := func() (*Report, string) {
		out := filepath.Join(t.TempDir(), "public")
		rep, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01", ImageCache: cache})
		if err != nil {
			t.Fatal(err)
		}
		return rep, out
	}
	rep, out := run()
	if got := rep.Images.Summary(); got != "images: 6 processed, 0 from cache" {
		t.Errorf("first build: %s, want 6 processed (163, 325, 400 px in AVIF and JPEG)", got)
	}
	var html []byte
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "index.html") {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("Pole o zachodzie")) {
				html = b
			}
		}
		return nil
	})
	if html == nil {
		t.Fatal("no page shows the photo")
	}
	urls := regexp.MustCompile(`/_assets/img/field-[0-9a-f]+-\d+\.(avif|jpg)`).FindAllString(string(html), -1)
	if len(urls) < 6 {
		t.Fatalf("picture names %d variants, want 6:\n%s", len(urls), html)
	}
	for _, u := range urls {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(u))); err != nil {
			t.Errorf("%s is not in the output", u)
		}
	}
	if !bytes.Contains(html, []byte(`width="400" height="225"`)) {
		t.Errorf("no width and height of the 16:9 crop in:\n%s", html)
	}
	if _, err := os.Stat(filepath.Join(out, "photos/field.jpg")); err == nil {
		t.Error("the original photo was copied to the output")
	}
	rep, _ = run()
	if got := rep.Images.Summary(); got != "images: 0 processed, 6 from cache" {
		t.Errorf("rebuild: %s, want every variant from the cache", got)
	}
}

// TestBuildImageAlt: a Markdown photo without alt text fails the build at
// its line and column.
func TestBuildImageAlt(t *testing.T) {
	src := fixtureCopy(t)
	writePhoto(t, src, "photos/field.jpg", 200, 100)
	page := filepath.Join(src, "content/pl/kontakt.md")
	b, _ := os.ReadFile(page)
	line := bytes.Count(b, []byte("\n")) + 2
	appendBody(t, page, "\nFoto: ![](/photos/field.jpg)\n")
	_, err := Run(context.Background(), Options{Source: src, Out: filepath.Join(t.TempDir(), "public"), Date: "2026-01-01", ImageCache: t.TempDir()})
	want := "content/pl/kontakt.md:" + itoa(line) + ":7: image /photos/field.jpg has no alt text"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("build error:\n%v\nwant it to contain %q", err, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestDevPhotoEdit: in the dev server, editing a photo renders again only
// the pages that show it (through a Markdown image or the picture template
// function), its old variants leave the output, and the output equals a
// fresh build of the edited tree.
func TestDevPhotoEdit(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	writePhoto(t, dir, "photos/field.jpg", 200, 150)
	writePhoto(t, dir, "photos/hero.jpg", 180, 120)
	writePhoto(t, dir, "photos/unused.jpg", 100, 100)
	appendBody(t, filepath.Join(dir, "content/pl/kontakt.md"), "\n![Pole o zachodzie](/photos/field.jpg)\n")
	home := filepath.Join(dir, "templates/layouts/home.html")
	b, err := os.ReadFile(home)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte("{{ sections . }}"), []byte(`{{ picture "/photos/hero.jpg" "Biuro" }}{{ sections . }}`), 1)
	if err := os.WriteFile(home, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d, _, err := NewDev(ctx, devOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	variants := func(out map[string][]byte, stem string) []string {
		var l []string
		for name := range out {
			if strings.HasPrefix(name, "_assets/img/"+stem+"-") {
				l = append(l, name)
			}
		}
		sort.Strings(l)
		return l
	}
	first := devOutput(t, d)
	if len(variants(first, "field")) == 0 || len(variants(first, "hero")) == 0 {
		t.Fatalf("first build has no variants of field.jpg or hero.jpg")
	}
	steps := []struct {
		name     string
		change   func()
		path     string
		rendered []string
		stem     string // the photo whose old variants must be gone
	}{
		{"Markdown photo edit renders the page showing it", func() { writePhoto(t, dir, "photos/field.jpg", 200, 100) },
			"assets/images/photos/field.jpg", []string{"/de/o-nas/kontakt/", "/pl/o-nas/kontakt/"}, "field"},
		{"template photo edit renders the pages of that layout", func() { writePhoto(t, dir, "photos/hero.jpg", 180, 90) },
			"assets/images/photos/hero.jpg", []string{"/", "/de/", "/en/", "/pl/"}, "hero"},
		{"a photo no page shows renders nothing", func() { writePhoto(t, dir, "photos/unused.jpg", 90, 90) },
			"assets/images/photos/unused.jpg", []string{}, ""},
	}
	prev := first
	for _, st := range steps {
		st.change()
		res, err := d.Update(ctx, []string{st.path})
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if res.Full || res.StyleOnly {
			t.Errorf("%s: rebuilt everything (%v) or took the photo for a stylesheet (%v)", st.name, res.Full, res.StyleOnly)
		}
		if !reflect.DeepEqual(nonNil(res.Rendered), st.rendered) {
			t.Errorf("%s: rendered %v, want %v", st.name, res.Rendered, st.rendered)
		}
		if st.stem != "" {
			for _, old := range variants(prev, st.stem) {
				if _, err := d.File(ctx, old); err == nil {
					t.Errorf("%s: old variant %s is still in the output", st.name, old)
				}
			}
		}
		compareFresh(t, st.name, dir, d)
		prev = devOutput(t, d)
	}

	// Saving a photo as it was renders its pages again but changes no file.
	b, _ = os.ReadFile(filepath.Join(dir, ImageDir, "photos/hero.jpg"))
	os.WriteFile(filepath.Join(dir, ImageDir, "photos/hero.jpg"), b, 0o644)
	res, err := d.Update(ctx, []string{"assets/images/photos/hero.jpg"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changed) != 0 {
		t.Errorf("photo saved unchanged: changed %v, want nothing", res.Changed)
	}
}
