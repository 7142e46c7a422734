//go:build unix

package build

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeAvifenc puts first in PATH an avifenc that says it is libavif
// libavif with aom and writes a stand-in AVIF (its ftyp box) for every
// encode.
func fakeAvifenc(t *testing.T, dir, libavif string) {
	t.Helper()
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Version: " + libavif + " (dav1d [dec]:1.0.0, aom [enc/dec]:v3.6.0)'; exit 0; fi\n" +
		"for a; do out=$a; done\n/bin/cat >/dev/null\nprintf '\\000\\000\\000\\024ftypavif\\000\\000\\000\\000avifmif1' >\"$out\"\n"
	if err := os.WriteFile(filepath.Join(dir, "avifenc"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestNativeAVIFSetting: site.yaml's images.avif: native encodes the AVIF
// variants with the machine's avifenc, whose versions are in their keys and
// URLs (the JPEG fallback's stay the portable build's); without avifenc the
// build fails at the setting's line, saying how to install it; and a new
// avifenc is a change a warm build sees, though no file of the site changed.
func TestNativeAVIFSetting(t *testing.T) {
	src := fixtureCopy(t)
	writePhoto(t, src, "photos/field.jpg", 400, 300)
	appendBody(t, filepath.Join(src, "content/pl/kontakt.md"), "\n![Pole o zachodzie](/photos/field.jpg \"ratio=16:9\")\n")
	cache, pages := t.TempDir(), t.TempDir()
	build := func(out string) (*Report, error) {
		return Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01", ImageCache: cache, CacheDir: pages})
	}
	portableOut := filepath.Join(t.TempDir(), "public")
	if _, err := build(portableOut); err != nil {
		t.Fatal(err)
	}
	portable := variantNames(t, portableOut)

	b, err := os.ReadFile(filepath.Join(src, "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(string(b), "\n") + 3 // "images:" after a blank line, then avif's
	appendBody(t, filepath.Join(src, "site.yaml"), "\nimages:\n  avif: native\n")
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	out := filepath.Join(t.TempDir(), "public")
	_, err = build(out)
	if want := "site.yaml:" + strconv.Itoa(line) + ":9: images.avif: native: avifenc not found in PATH; install it (Debian, Ubuntu: apt-get install libavif-bin"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("build without avifenc: %v, want an error saying %q", err, want)
	}

	fakeAvifenc(t, bin, "0.11.1")
	rep, err := build(out)
	if err != nil {
		t.Fatal(err)
	}
	native := variantNames(t, out)
	if got := rep.Images.Summary(); got != "images: 3 processed, 3 from cache" {
		t.Errorf("native build: %s, want the 3 AVIF variants encoded and the JPEGs from the cache", got)
	}
	compareVariants(t, "native", portable, native)

	if rep, err := build(out); err != nil || !rep.Unchanged {
		t.Fatalf("the same build again: unchanged %t (%v), want nothing changed", rep != nil && rep.Unchanged, err)
	}
	fakeAvifenc(t, bin, "1.1.1")
	rep, err = build(out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unchanged {
		t.Fatal("a build after avifenc changed: nothing changed, want the AVIF variants made again")
	}
	compareVariants(t, "another avifenc", native, variantNames(t, out))
}

// compareVariants: after's AVIF variants all have other names than
// before's, its JPEG variants the same.
func compareVariants(t *testing.T, what string, before, after map[string]bool) {
	t.Helper()
	n := 0
	for name := range after {
		switch {
		case strings.HasSuffix(name, ".avif") && before[name]:
			t.Errorf("%s: %s is named as before", what, name)
		case strings.HasSuffix(name, ".avif"):
			n++
		case !before[name]:
			t.Errorf("%s: the fallback %s is new", what, name)
		}
	}
	if n != 3 || len(after) != len(before) {
		t.Errorf("%s: %d variants (%d AVIF), want %d (3 AVIF)", what, len(after), n, len(before))
	}
}

func variantNames(t *testing.T, out string) map[string]bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "_assets/img/*"))
	names := map[string]bool{}
	for _, f := range files {
		names[filepath.Base(f)] = true
	}
	return names
}
