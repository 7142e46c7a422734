package devsession

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"sitegen/internal/treetest"
	"sitegen/pkg/build"
	"sitegen/pkg/output"
)

const fixture = "../../testdata/sites/basic"

func devOpts(dir string) Options {
	return Options{Build: build.Options{Source: dir, Date: "2026-01-01", Minify: true}}
}

// buildFixture builds the site at src into out, as TestDevMatchesBuild
// compares it.
func buildFixture(t *testing.T, src, out string) {
	t.Helper()
	if _, err := build.Run(context.Background(), build.Options{Source: src, Out: out, Date: "2026-01-01", Minify: true}); err != nil {
		t.Fatalf("build %s: %v", src, err)
	}
}

func readTree(t *testing.T, dir string) map[string][]byte { return treetest.Read(t, dir) }

func copyTree(t testing.TB, src, dst string) { treetest.Copy(t, src, dst) }

// TestDevMatchesBuild: every file the dev server gives, each page rendered
// when asked for, is byte for byte what sitegen build writes, and it has
// no other, on every fixture site and on the website (islands, forms,
// picture variants, inline styles and their CSP hashes included): both lay
// out pages and site-wide files with the same steps. (pkg/devserver's
// TestServeMatchesBuild asks through the HTTP handler.)
func TestDevMatchesBuild(t *testing.T) {
	sites := map[string]string{"website": "../.."}
	for _, name := range []string{"basic", "shop", "verein"} { // pkg/build's golden sites
		sites[name] = treetest.Fixture(t, name, t.TempDir())
	}
	for name, src := range sites {
		t.Run(name, func(t *testing.T) {
			if name == "website" {
				if _, err := os.Stat(filepath.Join(src, "node_modules")); err != nil {
					t.Skip("the website needs node_modules (make setup)")
				}
			}
			out := filepath.Join(t.TempDir(), "public")
			buildFixture(t, src, out)
			want := readTree(t, out)
			delete(want, output.ManifestName) // the mark of a build's own folder
			d, _, err := New(context.Background(), devOpts(src))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			got := devOutput(t, d)
			if got, wantNames := slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)); !slices.Equal(got, wantNames) {
				t.Fatalf("files differ:\ndev   %v\nbuild %v", got, wantNames)
			}
			for name, b := range want {
				if !bytes.Equal(got[name], b) {
					t.Errorf("%s differs from the build", name)
				}
			}
		})
	}
}

// devOutput asks d for every file of its site (rendering every page) and
// for the picture variants the pages name.
func devOutput(t *testing.T, d *Session) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	out := map[string][]byte{}
	for _, name := range d.Names() {
		b, err := d.File(ctx, name)
		if IsNotExist(err) {
			continue // a page's island manifest or slices it does not have
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b
	}
	for name, b := range out {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, u := range pictureURL.FindAllString(string(b), -1) {
			if _, ok := out[u[1:]]; !ok {
				v, err := d.File(ctx, u[1:])
				if err != nil {
					t.Fatalf("%s (named by %s): %v", u, name, err)
				}
				out[u[1:]] = v
			}
		}
	}
	return out
}

var pictureURL = regexp.MustCompile(`/_assets/img/[A-Za-z0-9._-]+`)

// affectedPages are the pages an update rendered again, forgot or added.
func affectedPages(res *Result) []string {
	return slices.Sorted(slices.Values(slices.Concat(res.Rendered, res.Stale, res.Added)))
}

// TestDevIncremental edits, renames and deletes files of a copy of the
// fixture site, every page asked for, and checks, after each change, which
// pages it forgot or rendered again and that the output equals a fresh
// build of the changed tree.
func TestDevIncremental(t *testing.T) {
	dir, d := devFixture(t)
	ctx := context.Background()
	devOutput(t, d)
	edit := func(rel, old, new string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("%s has no %q", rel, old)
		}
		if err := os.WriteFile(p, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name     string
		change   func()
		paths    []string
		rendered []string
	}{
		{"body edit renders that page only", func() { edit("content/pl/kontakt.md", "Pisz na", "Napisz na") },
			[]string{"content/pl/kontakt.md"}, []string{"/de/o-nas/kontakt/", "/pl/o-nas/kontakt/"}},
		{"title edit renders the page; links keep their URL", func() { edit("content/en/contact.md", "title: Contact", "title: Contact us") },
			[]string{"content/en/contact.md"}, []string{"/en/about-us/contact/"}},
		{"slug edit renders the pages linking to it", func() { edit("content/pl/kontakt.md", "slug: o-nas/kontakt", "slug: kontakt") },
			[]string{"content/pl/kontakt.md"}, []string{"/", "/de/kontakt/", "/en/about-us/contact/", "/pl/", "/pl/kontakt/"}},
		{"data edit renders the pages using the set", func() { edit("content/pl/data/home.yaml", "82%", "83%") },
			[]string{"content/pl/data/home.yaml"}, []string{"/", "/en/", "/pl/"}},
		{"string edit renders the pages showing it", func() { edit("content/pl/i18n.yaml", "Tylko po polsku", "Tylko po polsku!") },
			[]string{"content/pl/i18n.yaml"}, nil /* every page's header */},
		{"section template edit renders the pages using it", func() { edit("templates/sections/statistics.html", "<ul>", `<ul class="stats">`) },
			[]string{"templates/sections/statistics.html"}, []string{"/", "/en/", "/pl/"}},
		{"layout edit renders the pages of that layout", func() { edit("templates/layouts/error.html", "<h1>", `<h1 class="err">`) },
			[]string{"templates/layouts/error.html"}, []string{"/de/404/", "/de/500/", "/en/404/", "/en/500/", "/pl/404/", "/pl/500/"}},
		{"rename moves the page", func() {
			os.MkdirAll(filepath.Join(dir, "content/pl/wpisy"), 0o755)
			if err := os.Rename(filepath.Join(dir, "content/pl/blog"), filepath.Join(dir, "content/pl/wpisy/blog")); err != nil {
				t.Fatal(err)
			}
		}, []string{"content/pl/blog", "content/pl/wpisy"}, []string{"/de/wpisy/blog/pierwszy/", "/en/wpisy/blog/pierwszy/", "/pl/wpisy/blog/pierwszy/"}},
		{"delete removes the page", func() {
			if err := os.Remove(filepath.Join(dir, "content/pl/500.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"content/pl/500.md"}, []string{}},
		{"css edit renders no page", func() { edit("assets/css/main.css", "{", "{ color: red;") },
			[]string{"assets/css/main.css"}, []string{}},
		{"stylesheet written inline", func() {
			edit("templates/base.html", `<link rel="stylesheet" href="{{ asset "css/main.css" }}">`, `{{ stylesheet "css/main.css" }}`)
		}, []string{"templates/base.html"}, nil},
		{"css edit renders the pages that have it inline", func() { edit("assets/css/main.css", "color: red;", "color: blue;") },
			[]string{"assets/css/main.css"}, nil},
	}
	for _, st := range steps {
		st.change()
		res, err := d.Update(ctx, st.paths)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := affectedPages(res); st.rendered != nil && !reflect.DeepEqual(nonNil(got), st.rendered) {
			t.Errorf("%s: rendered or forgot %v, want %v", st.name, got, st.rendered)
		}
		if got := affectedPages(res); st.rendered == nil && len(got) != res.Pages+1 {
			t.Errorf("%s: rendered or forgot %d pages, want all %d", st.name, len(got), res.Pages+1)
		}
		if len(res.Rendered) > againLimit {
			t.Errorf("%s: rendered %d pages at once, more than %d", st.name, len(res.Rendered), againLimit)
		}
		compareFresh(t, st.name, dir, d)
	}
}

// devFixture builds a copy of the fixture site in memory; the test may
// edit the copy and update the build.
func devFixture(t *testing.T) (string, *Session) {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	d, _, err := New(context.Background(), devOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return dir, d
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// compareFresh checks that d's output equals a fresh dev build of dir,
// apart from the session's build hash and the stylesheet's stable URL.
func compareFresh(t *testing.T, step, dir string, d *Session) {
	t.Helper()
	out := devOutput(t, d)
	fresh, _, err := New(context.Background(), devOpts(dir))
	if err != nil {
		t.Fatalf("%s: fresh build: %v", step, err)
	}
	defer fresh.Close()
	repl := []string{fresh.good.site.Hash, d.good.site.Hash}
	for name, u := range fresh.urls {
		repl = append(repl, u, d.urls[name])
	}
	r := strings.NewReplacer(repl...)
	want := map[string]string{}
	for name, b := range devOutput(t, fresh) {
		want[strings.TrimPrefix(r.Replace("/"+name), "/")] = r.Replace(string(b))
	}
	got := map[string]string{}
	for name, b := range out {
		got[name] = string(b)
	}
	var names []string
	for n := range want {
		names = append(names, n)
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if got[n] != want[n] {
			t.Errorf("%s: %s differs from a fresh build", step, n)
		}
	}
}

// TestDevIsland: an island edit rebuilds its bundles and renders again the
// pages that embed it, and only those.
func TestDevIsland(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	root, _ := filepath.Abs("../..")
	if err := os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	write := func(rel, s string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("assets/islands/Counter.jsx", "export default function Counter({ label }) { return <button type=\"button\">{label}</button>; }\n")
	write("assets/islands/Other.jsx", "export default function Other() { return <p>other</p>; }\n")
	write("templates/layouts/error.html", `{{ define "main" }}<h1>{{ .Page.Title }}</h1>{{ island "Counter" (dict "label" .Page.Title) "load" }}{{ end }}`)
	ctx := context.Background()
	d, _, err := New(ctx, devOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	devOutput(t, d)
	write("assets/islands/Counter.jsx", "export default function Counter({ label }) { return <button type=\"button\" class=\"c\">{label}</button>; }\n")
	res, err := d.Update(ctx, []string{"assets/islands/Counter.jsx"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/de/404/", "/de/500/", "/en/404/", "/en/500/", "/pl/404/", "/pl/500/"}
	if !reflect.DeepEqual(res.Rendered, want) {
		t.Errorf("rendered %v, want %v", res.Rendered, want)
	}
	if b, _ := d.File(ctx, "pl/404/index.html"); !strings.Contains(string(b), `class="c"`) {
		t.Errorf("the 404 page does not show the edited island")
	}
	compareFresh(t, "island edit", dir, d)
}

// TestDevInlineScriptHashes: the dev server's CSP allows the inline scripts
// of every page, also of the pages an update did not render again (their
// hashes were found when they were rendered and are kept with them).
func TestDevInlineScriptHashes(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	const script = `<script>document.documentElement.dataset.err="1"</script>`
	layout := filepath.Join(dir, "templates/layouts/error.html")
	b, err := os.ReadFile(layout)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(layout, bytes.Replace(b, []byte("<h1>"), []byte(script+"<h1>"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	want := output.InlineHashes([]byte(script))[0] // "script-src 'sha256-…'"
	hash := strings.TrimPrefix(want, "script-src ")
	csp := func(rules []output.HeaderRule) string {
		for _, r := range rules {
			for _, h := range r.Headers {
				if h.Name == "Content-Security-Policy" {
					return h.Value
				}
			}
		}
		return ""
	}
	ctx := context.Background()
	d, _, err := New(ctx, devOpts(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.File(ctx, "pl/404/index.html"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csp(d.HeaderRules()), hash) {
		t.Fatalf("the error page rendered: CSP %q lacks its script %s", csp(d.HeaderRules()), hash)
	}
	page := filepath.Join(dir, "content/pl/kontakt.md")
	b, err = os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, bytes.Replace(b, []byte("Pisz na"), []byte("Napisz na"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := d.Update(ctx, []string{"content/pl/kontakt.md"})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range affectedPages(res) {
		if strings.Contains(u, "404") || strings.Contains(u, "500") {
			t.Fatalf("the update rendered an error page (%v): the test needs them kept", res.Rendered)
		}
	}
	if !strings.Contains(csp(d.HeaderRules()), hash) {
		t.Errorf("after a body edit: CSP %q lacks the kept error pages' script %s", csp(d.HeaderRules()), hash)
	}
}

// TestDevBodyEditKeepsSite: an edit of a page's body alone (its front
// matter as it was, the file's digest changed) keeps the site as it was
// (routes, content, strings: the fast path of a one-page edit) and renders
// that page only, with the new body and the output of a fresh build; an
// edit of the front matter assembles the site again.
func TestDevBodyEditKeepsSite(t *testing.T) {
	dir, d := devFixture(t)
	ctx := context.Background()
	page := filepath.Join(dir, "content/pl/kontakt.md")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	devOutput(t, d)
	site := d.good.site
	if err := os.WriteFile(page, append(b, "\nNowy akapit.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := d.Update(ctx, []string{"content/pl/kontakt.md"})
	if err != nil {
		t.Fatal(err)
	}
	if d.good.site != site {
		t.Error("a body edit assembled the site again")
	}
	if want := []string{"/de/o-nas/kontakt/", "/pl/o-nas/kontakt/"}; !slices.Equal(res.Rendered, want) {
		t.Errorf("rendered %v, want %v", res.Rendered, want)
	}
	if b, _ := d.File(ctx, "pl/o-nas/kontakt/index.html"); !bytes.Contains(b, []byte("Nowy akapit.")) {
		t.Error("the page does not show its new body")
	}
	compareFresh(t, "body edit", dir, d)
	if err := os.WriteFile(page, bytes.Replace(b, []byte("title: "), []byte("title: Nowy "), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Update(ctx, []string{"content/pl/kontakt.md"}); err != nil {
		t.Fatal(err)
	}
	if d.good.site == site {
		t.Error("a front matter edit kept the site as it was")
	}
}

// TestDevCacheBound: with a cache smaller than the site, the dev server
// keeps at most its limit of rendered bytes (and the last file), and a page
// forgotten renders again with the same bytes.
func TestDevCacheBound(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	opts := devOpts(dir)
	opts.Cache = 16 << 10
	d, _, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	first := devOutput(t, d)
	var total, largest int
	for _, b := range first {
		total += len(b)
		largest = max(largest, len(b))
	}
	if total <= 2*int(opts.Cache) {
		t.Fatalf("the site has %d bytes: too few to overflow a %d-byte cache", total, opts.Cache)
	}
	if held := d.out.Bytes(); held > opts.Cache+int64(largest) {
		t.Errorf("the cache holds %d bytes, over its limit %d", held, opts.Cache)
	}
	again := devOutput(t, d)
	for name, b := range first {
		if !bytes.Equal(again[name], b) {
			t.Errorf("%s differs when asked for again", name)
		}
	}
}

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
	treetest.Append(t, filepath.Join(dir, "content/pl/kontakt.md"), "\n![Pole o zachodzie](/photos/field.jpg)\n")
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
	d, _, err := New(ctx, devOpts(dir))
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
	b, _ = os.ReadFile(filepath.Join(dir, build.ImageDir, "photos/hero.jpg"))
	os.WriteFile(filepath.Join(dir, build.ImageDir, "photos/hero.jpg"), b, 0o644)
	res, err := d.Update(ctx, []string{"assets/images/photos/hero.jpg"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changed) != 0 {
		t.Errorf("photo saved unchanged: changed %v, want nothing", res.Changed)
	}
}

// writePhoto writes a w×h JPEG into the site's assets/images.
func writePhoto(t *testing.T, site, rel string, w, h int) {
	treetest.Photo(t, filepath.Join(site, build.ImageDir, filepath.FromSlash(rel)), w, h)
}

// TestDevFailedUpdateKeepsSite: after an update with errors, the pages
// render as the last good site has them: the renderer the failed site was
// given (its templates had not changed) is bound to the good one again.
func TestDevFailedUpdateKeepsSite(t *testing.T) {
	dir, d := devFixture(t)
	ctx := context.Background()
	data := filepath.Join(dir, "content/pl/data/home.yaml")
	b, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, bytes.Replace(b, []byte("82%"), []byte("83%"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := "---\nid: bad\ndescription: Bez tytułu.\n---\nTreść.\n"
	if err := os.WriteFile(filepath.Join(dir, "content/pl/zly.md"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Update(ctx, []string{"content/pl/data/home.yaml", "content/pl/zly.md"}); err == nil {
		t.Fatal("an update with a page without a title passed")
	}
	page, err := d.File(ctx, "pl/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte("82%")) || bytes.Contains(page, []byte("83%")) {
		t.Error("the home page shows the failed update's data, not the good site's")
	}
}
