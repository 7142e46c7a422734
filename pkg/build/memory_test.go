package build

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"sitegen/pkg/output"
)

// countingFS counts how often each file is read.
type countingFS struct {
	fstest.MapFS
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return c.MapFS.Open(name)
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return c.MapFS.ReadFile(name)
}

// TestInMemoryBuild: a whole site is read from an io/fs tree and written
// through the output.Writer seam into memory, end to end, with no folder on
// disk; every static file is read once (for the build hash, its image size
// and the copy alike).
func TestInMemoryBuild(t *testing.T) {
	site := &countingFS{reads: map[string]int{}, MapFS: fstest.MapFS{
		"site.yaml":                     {Data: []byte("baseURL: https://mem.example.test\ntitle: Mem\nlocales:\n  - {code: en, name: English, prefix: /en, default: true}\n")},
		"schema.yaml":                   {Data: []byte("types:\n  note:\n    fields:\n      title: {kind: text, required: true}\n      pic: image\n      href: link\n")},
		"content/en/index.md":           {Data: []byte("---\nid: home\ntitle: Home\ndescription: In memory.\nsections:\n  - {type: notes, data: n.notes}\n---\nSee [about](ref:about).\n")},
		"content/en/about.md":           {Data: []byte("---\nid: about\ntitle: About\ndescription: About us.\n---\nHello.\n")},
		"content/en/data/n.yaml":        {Data: []byte("notes:\n  type: note\n  items:\n    - {title: One, pic: /img/dot.svg, href: ref:about}\n")},
		"templates/base.html":           {Data: []byte(`<!doctype html><html lang="{{ .Lang }}"><head><title>{{ .Page.Title }}</title>{{ scripts }}</head><body><main>{{ block "main" . }}{{ end }}</main></body></html>`)},
		"templates/layouts/page.html":   {Data: []byte(`{{ define "main" }}<h1>{{ .Page.Title }}</h1>{{ sections . }}{{ end }}`)},
		"templates/sections/notes.html": {Data: []byte(`<ul>{{ range .Data }}<li><a href="{{ link .href }}">{{ .title }}</a>{{ image .pic "" }}</li>{{ end }}</ul>`)},
		"assets/static/img/dot.svg":     {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"></svg>`)},
	}}
	ctx := context.Background()
	s, err := Load(ctx, Options{FS: site, Date: "2026-01-01", Host: "netlify"}) // _headers is checked below
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := output.NewMemTree()
	rep, err := s.Write(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	home := string(out.Data["en/index.html"])
	for _, want := range []string{`<h1>Home</h1>`, `<a href="/en/about/">One</a>`, `<img src="/img/dot.svg" alt="" width="8" height="8"`, `<a href="/en/about/">about</a>`} {
		if !strings.Contains(home, want) {
			t.Errorf("en/index.html lacks %s:\n%s", want, home)
		}
	}
	for _, name := range []string{"index.html", "en/about/index.html", "img/dot.svg", "sitemap.xml", "_headers", "page-data/en/page-data.json"} {
		if _, ok := out.Data[name]; !ok {
			t.Errorf("no %s in %v", name, out.Names())
		}
	}
	if rep.Files != out.Files() || rep.Pages["en"] != 2 {
		t.Errorf("report: %d files, pages %v", rep.Files, rep.Pages)
	}
	if n := site.reads["assets/static/img/dot.svg"]; n != 1 {
		t.Errorf("the static file was read %d times, want once", n)
	}
}

// TestInMemoryNeedsDiskForBundles: esbuild reads from disk, so a tree from
// elsewhere with assets to bundle is refused with a clear error.
func TestInMemoryNeedsDiskForBundles(t *testing.T) {
	site := fstest.MapFS{
		"site.yaml":           {Data: []byte("baseURL: https://mem.example.test\ntitle: Mem\nlocales:\n  - {code: en, name: English, prefix: /en, default: true}\n")},
		"assets/css/main.css": {Data: []byte("body{}")},
	}
	_, err := Load(context.Background(), Options{FS: site})
	if err == nil || !strings.Contains(err.Error(), "assets/css/main.css is bundled by esbuild, which reads the site from disk") {
		t.Fatalf("err = %v", err)
	}
}

// TestMemoryWindow: what a build holds once every page is written grows by
// a page's metadata per page, not by its body or its HTML (each ~5-15 KB in
// the generated site): pages are rendered, written and forgotten. Measured
// as the live heap after a collection at AfterWrite, for 1,000 and 5,000
// pages, with the build cache on as a build from the command line has it
// (its traces must not keep a string per page either; its index holds
// three entries per page: the page, its HTML and its front matter); no
// timing.
func TestMemoryWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 6,000 pages")
	}
	live := func(perLocale int) uint64 {
		dir := t.TempDir()
		genSite(t, filepath.Join(dir, "site"), perLocale)
		var heap uint64
		_, err := Run(context.Background(), Options{Source: filepath.Join(dir, "site"), Out: filepath.Join(dir, "public"), Date: "2026-01-01",
			CacheDir: filepath.Join(dir, "cache"),
			AfterWrite: func() error {
				runtime.GC()
				s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
				metrics.Read(s)
				heap = s[0].Value.Uint64()
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		return heap
	}
	small, large := live(500), live(2500)
	perPage := (float64(large) - float64(small)) / 4000
	t.Logf("live heap after the writes: %.1f MB at 1,000 pages, %.1f MB at 5,000: %.0f bytes per page", float64(small)/(1<<20), float64(large)/(1<<20), perPage)
	if perPage > 2500 {
		t.Errorf("the build holds %.0f bytes per page once written; want at most 2,500 (metadata, not bodies or HTML)", perPage)
	}
}
