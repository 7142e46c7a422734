package render_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"sitegen/internal/treetest"
	"sitegen/internal/waittest"
	"sitegen/pkg/build"
	"sitegen/pkg/devsession"
	"sitegen/pkg/render"
	"sitegen/pkg/route"
)

// copySite copies the named files and folders of the site at src into a
// temporary folder (tests never build the checked-in tree) and links the
// repository's node_modules when the site has islands.
func copySite(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"site.yaml", "schema.yaml", "content", "templates", "assets", "package.json", "package-lock.json"} {
		if _, err := os.Stat(filepath.Join(src, d)); err != nil {
			continue
		}
		err := filepath.WalkDir(filepath.Join(src, d), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			if e.IsDir() {
				return os.MkdirAll(filepath.Join(dir, rel), 0o755)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(src, "assets/islands")); err == nil {
		nm, _ := filepath.Abs("../../node_modules")
		if _, err := os.Stat(filepath.Join(nm, "preact")); err != nil {
			t.Skip("node_modules not installed (run make setup)")
		}
		if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// load loads the site at dir, with hoisting on or off.
func load(t *testing.T, dir string, hoist bool) *build.Site {
	t.Helper()
	if !hoist {
		t.Setenv(render.NoHoistEnv, "1")
	} else {
		t.Setenv(render.NoHoistEnv, "")
	}
	s, err := build.Load(context.Background(), build.Options{Source: dir, Date: "2026-01-01", Minify: true, ImageCache: filepath.Join(t.TempDir(), "images")})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// entries lists every page the build renders: the root and the plan's.
func entries(s *build.Site) []*route.Entry { return s.Entries() }

type rendered struct {
	res  *render.Result
	deps []string
	err  string
}

// renderOffOn renders every page of the site in dir without hoisting (one
// page at a time) and with it (two at a time).
func renderOffOn(t *testing.T, dir string) (list []*route.Entry, off, on []rendered) {
	t.Helper()
	plain, hoisted := load(t, dir, false), load(t, dir, true)
	list = entries(plain)
	return list, renderAll(t, plain, list, 1), renderAll(t, hoisted, list, 2)
}

func renderAll(t *testing.T, s *build.Site, list []*route.Entry, parallel int) []rendered {
	t.Helper()
	out := make([]rendered, len(list))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				d := render.Deps{}
				res, err := s.Renderer().RenderDeps(context.Background(), list[i], d)
				out[i] = rendered{res: res, deps: d.Sorted()}
				if err != nil {
					out[i].err = err.Error()
				}
			}
		}()
	}
	for i := range list {
		next <- i
	}
	close(next)
	waittest.Wait(t, &wg, "the renderers")
	return out
}

// TestHoistSameOutput renders every page of the fixture sites and of the
// real site with hoisting on and off: every page's bytes, <main>, islands,
// pictures and dependencies are the same; the hoisted renderer renders in
// parallel, twice, in opposite orders (so that pages of every locale reuse
// what pages of the others left in the memo), and hoists something.
func TestHoistSameOutput(t *testing.T) {
	sites := []struct {
		name, src string
	}{
		{"basic", "../../testdata/sites/basic"},
		{"shop", "../../testdata/sites/shop"},
		{"real", "../.."},
	}
	for _, site := range sites {
		t.Run(site.name, func(t *testing.T) {
			if site.name == "real" && testing.Short() {
				t.Skip("the real site builds its bundles: not in -short")
			}
			dir := copySite(t, site.src)
			off := load(t, dir, false)
			on := load(t, dir, true)
			list := entries(off)
			want := renderAll(t, off, list, 1)
			if n := on.Renderer().HoistedRegions(); n != 0 {
				t.Fatalf("%d regions kept before any render", n)
			}
			rev := slices.Clone(list)
			slices.Reverse(rev)
			got := renderAll(t, on, list, 4)
			gotRev := renderAll(t, on, rev, 4)
			slices.Reverse(gotRev)
			if on.Renderer().HoistedRegions() == 0 {
				t.Fatal("nothing was hoisted")
			}
			t.Logf("%d pages, %d region outputs kept", len(list), on.Renderer().HoistedRegions())
			if off.Renderer().HoistedRegions() != 0 {
				t.Fatal("hoisted with hoisting off")
			}
			for i, e := range list {
				if want[i].err != "" {
					t.Fatalf("%s: %s", e.URL, want[i].err)
				}
				if len(want[i].res.HTML) == 0 {
					t.Fatalf("%s: empty page", e.URL)
				}
				for pass, g := range [][]rendered{got, gotRev} {
					compareRender(t, e.URL, pass, g[i], want[i])
				}
			}
		})
	}
}

// TestHoistSameBuild: whole builds of the fixture sites, with hoisting on
// and off, write the same files, byte for byte. (The real site's pages are
// compared by TestHoistSameOutput: a whole build of it encodes every image
// variant, some twenty seconds on a fresh cache.)
func TestHoistSameBuild(t *testing.T) {
	for _, site := range []struct{ name, src string }{
		{"basic", "../../testdata/sites/basic"},
		{"shop", "../../testdata/sites/shop"},
	} {
		t.Run(site.name, func(t *testing.T) {
			dir := copySite(t, site.src)
			images := filepath.Join(t.TempDir(), "images")
			trees := map[bool]map[string][]byte{}
			for _, hoist := range []bool{false, true} {
				if hoist {
					t.Setenv(render.NoHoistEnv, "")
				} else {
					t.Setenv(render.NoHoistEnv, "1")
				}
				out := filepath.Join(t.TempDir(), "public")
				if _, err := build.Run(context.Background(), build.Options{Source: dir, Out: out, Date: "2026-01-01", Minify: true, ImageCache: images}); err != nil {
					t.Fatalf("build (hoisting %v): %v", hoist, err)
				}
				trees[hoist] = readTree(t, out)
			}
			off, on := trees[false], trees[true]
			if len(off) == 0 {
				t.Fatal("the build wrote nothing")
			}
			for name, b := range off {
				if !bytes.Equal(on[name], b) {
					t.Errorf("%s differs with hoisting:\n got: %s\nwant: %s", name, diffAt(on[name], b), diffAt(b, on[name]))
				}
			}
			for name := range on {
				if _, ok := off[name]; !ok {
					t.Errorf("%s written only with hoisting", name)
				}
			}
		})
	}
}

// readTree returns every file below dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte { return treetest.Read(t, dir) }

func compareRender(t *testing.T, url string, pass int, got, want rendered) {
	t.Helper()
	if got.err != want.err {
		t.Errorf("%s (pass %d): error %q, without hoisting %q", url, pass, got.err, want.err)
		return
	}
	if want.res == nil {
		return
	}
	if !bytes.Equal(got.res.HTML, want.res.HTML) {
		t.Errorf("%s (pass %d): HTML differs from the render without hoisting:\n got: %s\nwant: %s", url, pass, diffAt(got.res.HTML, want.res.HTML), diffAt(want.res.HTML, got.res.HTML))
	}
	if got.res.Main != want.res.Main || !reflect.DeepEqual(got.res.Islands, want.res.Islands) || !reflect.DeepEqual(got.res.Pictures, want.res.Pictures) {
		t.Errorf("%s (pass %d): main, islands or pictures differ", url, pass)
	}
	if !slices.Equal(got.deps, want.deps) {
		t.Errorf("%s (pass %d): deps\n%v\nwithout hoisting\n%v", url, pass, got.deps, want.deps)
	}
}

// diffAt shows a from a little before where it first differs from b.
func diffAt(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return string(a[from:min(len(a), i+120)])
}

// TestHoistPerLocale: a region showing a UI string gives each locale its own
// string, whichever locale rendered it first (the memo is keyed by locale).
func TestHoistPerLocale(t *testing.T) {
	dir := copySite(t, "../../testdata/sites/basic")
	s := load(t, dir, true)
	want := map[string]string{"pl": ">Strona główna<", "en": ">Home<"}
	for _, e := range entries(s) {
		res, err := s.Renderer().Render(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[e.Lang]
		if !ok {
			continue
		}
		header, _, _ := strings.Cut(string(res.HTML), "</header>")
		if !strings.Contains(header, w) {
			t.Errorf("%s (%s): header lacks %s:\n%s", e.URL, e.Lang, w, header)
		}
	}
	if s.Renderer().HoistedRegions() == 0 {
		t.Fatal("nothing was hoisted")
	}
}

// TestHoistErrorPlace: an error inside a hoisted region names the same
// template file, line and column, and the same message, as without
// hoisting, on every page.
func TestHoistErrorPlace(t *testing.T) {
	dir := copySite(t, "../../testdata/sites/basic")
	p := filepath.Join(dir, "templates/partials/header.html")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// A data set no locale has, on the header's second line, inside the
	// region of strings.
	b = bytes.Replace(b, []byte("\n<nav"), []byte("\n<b>{{ range data \"nope.items\" }}{{ .x }}{{ end }}</b><nav"), 1)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	list, want, got := renderOffOn(t, dir)
	for i, e := range list {
		if want[i].err == "" || !strings.Contains(want[i].err, "templates/partials/header.html:2:") {
			t.Fatalf("%s: error without hoisting %q, want one at templates/partials/header.html:2", e.URL, want[i].err)
		}
		if got[i].err != want[i].err {
			t.Errorf("%s: error\n%s\nwithout hoisting\n%s", e.URL, got[i].err, want[i].err)
		}
	}
}

// TestHoistDevEdits: the dev server's rebuild after a string edit keeps the
// renderer (Rebind) and must not show the region kept before the edit.
func TestHoistDevEdits(t *testing.T) {
	dir := copySite(t, "../../testdata/sites/basic")
	t.Setenv(render.NoHoistEnv, "")
	ctx := context.Background()
	d, _, err := devsession.New(ctx, devsession.Options{Build: build.Options{Source: dir, Date: "2026-01-01", Minify: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	page := "en/index.html"
	header := func(b []byte) []byte { h, _, _ := bytes.Cut(b, []byte("</header>")); return h }
	before, err := d.File(ctx, page)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(header(before), []byte(">Home<")) {
		t.Fatalf("%s lacks the string before the edit:\n%s", page, before)
	}
	p := filepath.Join(dir, "content/en/i18n.yaml")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, bytes.Replace(b, []byte("common_home: Home"), []byte("common_home: Start here"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = d.Update(ctx, []string{"content/en/i18n.yaml"}); err != nil {
		t.Fatal(err)
	}
	after, err := d.File(ctx, page)
	if err != nil {
		t.Fatal(err)
	}
	if h := header(after); !bytes.Contains(h, []byte(">Start here<")) || bytes.Contains(h, []byte(">Home<")) {
		t.Errorf("%s after the edit shows the old string:\n%s", page, after)
	}
}

// TestHoistPageEffects: a region whose render changes the page itself (a
// Markdown image in a string makes a picture the page lists) is not kept:
// every page gets its own picture, as without hoisting.
func TestHoistPageEffects(t *testing.T) {
	dir := copySite(t, "../../testdata/sites/basic")
	p := filepath.Join(dir, "templates/partials/header.html")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte("<header>"), []byte(`<header>{{ md "![Logo](/img/logo.svg)" }}`), 1)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	list, want, got := renderOffOn(t, dir)
	for i, e := range list {
		if want[i].err != "" {
			t.Fatalf("%s: %s", e.URL, want[i].err)
		}
		if len(want[i].res.Pictures) == 0 {
			t.Fatalf("%s: no picture listed without hoisting; the test needs one", e.URL)
		}
		compareRender(t, e.URL, 0, got[i], want[i])
	}
}
