package build

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sitegen/pkg/images"
)

// TestKeepInSite: with images.keepInSite the variants a build makes are
// kept in the site's .sitegen/images, named by key alone, and a copy of the
// site with that folder (a fresh clone, an empty image cache) builds with
// no image encoded and the same variants in its output. A build that fails
// leaves the folder as it was; one that succeeds removes what the site no
// longer shows, and nothing else.
func TestKeepInSite(t *testing.T) {
	src := fixtureCopy(t)
	writePhoto(t, src, "photos/field.jpg", 400, 300)
	page := filepath.Join(src, "content/pl/kontakt.md")
	before, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	appendBody(t, page, "\n![Pole o zachodzie](/photos/field.jpg \"ratio=16:9\")\n")
	appendBody(t, filepath.Join(src, "site.yaml"), "\nimages:\n  keepInSite: true\n")
	build := func(site string) (*Report, string, error) {
		out := filepath.Join(t.TempDir(), "public")
		rep, err := Run(context.Background(), Options{Source: site, Out: out, Date: "2026-01-01", ImageCache: t.TempDir()})
		return rep, out, err
	}
	rep, out, err := build(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Images.Summary(); got != "images: 6 processed, 0 from cache" {
		t.Fatalf("first build: %s, want 6 processed", got)
	}
	folder := filepath.Join(src, filepath.FromSlash(images.SiteFolder))
	kept := variantsIn(t, folder)
	variants := outputVariants(t, out)
	if len(kept) != 6 || len(variants) != 6 {
		t.Fatalf("%d files in %s and %d variants in the output, want 6 of each: %v", len(kept), images.SiteFolder, len(variants), kept)
	}
	name := regexp.MustCompile(`^[0-9a-f]{32}\.(avif|jpg)$`)
	for f, b := range kept {
		if !name.MatchString(f) {
			t.Errorf("%s/%s: not named by its key", images.SiteFolder, f)
		}
		if !bytes.Equal(variants[f[:10]], b) {
			t.Errorf("%s/%s differs from the output's variant %s", images.SiteFolder, f, f[:10])
		}
	}
	if err := os.WriteFile(filepath.Join(folder, "README.md"), []byte("kept by sitegen\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// A fresh clone: the site with its folder, no output, an empty cache.
	clone := filepath.Join(t.TempDir(), "clone")
	copyTree(t, src, clone)
	rep, out2, err := build(clone)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Images.Summary(); got != "images: 0 processed, 6 from cache" {
		t.Errorf("fresh clone: %s, want no image encoded", got)
	}
	for k, b := range outputVariants(t, out2) {
		if !bytes.Equal(b, variants[k]) {
			t.Errorf("fresh clone: variant %s differs from the first build's", k)
		}
	}

	// The photo leaves the page; a build that fails keeps every variant.
	if err := os.WriteFile(page, before, 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(clone, "content/pl/broken.md")
	if err := os.WriteFile(broken, []byte("---\ntitle: [unclosed\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone, "content/pl/kontakt.md"), before, 0o644); err != nil {
		t.Fatal(err)
	}
	cloneFolder := filepath.Join(clone, filepath.FromSlash(images.SiteFolder))
	if _, _, err := build(clone); err == nil {
		t.Fatal("a site with a broken front matter built")
	}
	if got := len(variantsIn(t, cloneFolder)); got != 6 {
		t.Errorf("a failed build left %d of the 6 variants", got)
	}
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	rep, _, err = build(clone)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Images.Pruned; got != 6 {
		t.Errorf("the build without the photo removed %d variants, want 6", got)
	}
	ents, _ := os.ReadDir(cloneFolder)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "README.md" {
		t.Errorf("%s holds %v after the photo left the site, want only README.md", images.SiteFolder, left)
	}
}

// variantsIn reads the variants (not README.md) of a site's image folder.
func variantsIn(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		if e.Name() == "README.md" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// outputVariants reads the output's picture variants by the 10 characters
// of key in their names.
func outputVariants(t *testing.T, out string) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "_assets/img/*"))
	sort.Strings(files)
	key := regexp.MustCompile(`-([0-9a-f]{10})-\d+\.\w+$`)
	vs := map[string][]byte{}
	for _, f := range files {
		m := key.FindStringSubmatch(f)
		if m == nil {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		vs[m[1]] = b
	}
	return vs
}
