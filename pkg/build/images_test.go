package build

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sitegen/internal/treetest"
)

// writePhoto writes a w×h JPEG into the site's assets/images.
func writePhoto(t *testing.T, site, rel string, w, h int) {
	treetest.Photo(t, filepath.Join(site, ImageDir, filepath.FromSlash(rel)), w, h)
}

func appendBody(t *testing.T, file, text string) { treetest.Append(t, file, text) }

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
