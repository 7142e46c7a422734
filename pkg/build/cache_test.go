package build

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"sitegen/internal/waittest"
)

// buildWith builds src into a fresh folder with the given cache folder ("" =
// none) and returns the report and the output tree. Source images are
// encoded into (and taken from) the repository's image cache, so copies of
// the real site do not encode them again.
func buildWith(t *testing.T, src, cacheDir string) (*Report, map[string][]byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	images, err := filepath.Abs("../../.cache/sitegen/images")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01", Minify: true, CacheDir: cacheDir, ImageCache: images})
	if err != nil {
		t.Fatalf("build %s: %v", src, err)
	}
	return rep, readTree(t, out)
}

func sameTree(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%s: %d files vs %d", what, len(a), len(b))
	}
	for name, x := range a {
		if y, ok := b[name]; !ok || !bytes.Equal(x, y) {
			t.Errorf("%s: %s differs", what, name)
		}
	}
}

// changedPages lists the URLs of the pages (index.html files) whose bytes
// differ between two outputs.
func changedPages(a, b map[string][]byte) []string {
	var out []string
	for name, x := range a {
		if path, ok := strings.CutSuffix(name, "index.html"); ok && !bytes.Equal(x, b[name]) {
			out = append(out, "/"+path)
		}
	}
	sort.Strings(out)
	return out
}

// realSite copies the real site (content, templates, assets, config) into a
// temporary folder a test may edit; node_modules is linked.
func realSite(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules")); err != nil {
		t.Skip("the real site needs node_modules (make setup)")
	}
	dir := filepath.Join(t.TempDir(), "site")
	for _, d := range []string{"site.yaml", "schema.yaml", "content", "templates", "assets", "package.json", "package-lock.json"} {
		src := filepath.Join(root, d)
		st, err := os.Stat(src)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(filepath.Join(dir, d), b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		copyTree(t, src, filepath.Join(dir, d))
	}
	if err := os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// edit rewrites a file of the site with fn applied to its text and returns
// a function that puts the old text back.
func edit(t *testing.T, site, rel string, fn func(string) string) (undo func()) {
	t.Helper()
	p := filepath.Join(site, rel)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	changed := fn(string(b))
	if changed == string(b) {
		t.Fatalf("the edit of %s changes nothing", rel)
	}
	if err := os.WriteFile(p, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// entriesOf returns the URLs of the pages built from a source file (the
// page in its locale, and where other locales fall back to it).
func entriesOf(t *testing.T, site, file string) []string {
	t.Helper()
	s, err := Load(context.Background(), Options{Source: site, Date: "2026-01-01"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out []string
	for _, e := range s.plan.Entries {
		if e.Page.File == file {
			out = append(out, e.URL)
		}
	}
	if root, ok := s.plan.ByURL("/"); ok && root.Page.File == file {
		out = append(out, root.URL)
	}
	sort.Strings(out)
	return out
}

// TestCacheByteIdentical builds the real site without a cache, with an empty
// cache, with the cache the first build filled, and again after a page was
// edited and the edit undone: every output is byte-identical to the one
// without a cache. The build with a filled cache renders no page, parses no
// template and runs no esbuild; after the undo, the page's earlier entry
// serves it again.
func TestCacheByteIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the real site five times")
	}
	site := realSite(t)
	cacheDir := t.TempDir()
	_, none := buildWith(t, site, "")
	cold, first := buildWith(t, site, cacheDir)
	sameTree(t, "no cache vs empty cache", none, first)
	all := cold.PagesRendered
	if all < 90 || cold.PagesCached != 0 || cold.TemplateSets == 0 || cold.EsbuildRuns != 4 {
		t.Errorf("empty cache: %d pages rendered, %d from the cache, %d template sets, %d esbuild runs (want 4)",
			cold.PagesRendered, cold.PagesCached, cold.TemplateSets, cold.EsbuildRuns)
	}
	warm, second := buildWith(t, site, cacheDir)
	sameTree(t, "no cache vs filled cache", none, second)
	if warm.PagesRendered != 0 || warm.PagesCached != all || warm.TemplateSets != 0 || warm.EsbuildRuns != 0 {
		t.Errorf("filled cache: %d pages rendered (%v), %d from the cache of %d, %d template sets, %d esbuild runs",
			warm.PagesRendered, warm.Rendered, warm.PagesCached, all, warm.TemplateSets, warm.EsbuildRuns)
	}

	undo := edit(t, site, "content/en/blog/business/chatbots-in-customer-service.md", func(s string) string {
		return s + "\nOne more paragraph.\n"
	})
	edited, _ := buildWith(t, site, cacheDir)
	if edited.PagesRendered == 0 {
		t.Error("an edited page was not rendered")
	}
	undo()
	again, third := buildWith(t, site, cacheDir)
	sameTree(t, "no cache vs after an edit and its undo", none, third)
	if again.PagesRendered != 0 {
		t.Errorf("after the undo %d pages rendered (%v), want 0", again.PagesRendered, again.Rendered)
	}
}

// TestCacheOneChangedPage edits pages of the real site between builds on one
// cache: a post's body re-renders that post alone; its title re-renders the
// post and the listings that show it, and nothing else (the pages whose
// output changed, found by building without a cache); a slug changes the
// route plan every link resolves through, so every page renders again.
// Each output is the output of a build without a cache.
func TestCacheOneChangedPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the real site several times")
	}
	site := realSite(t)
	cacheDir := t.TempDir()
	_, before := buildWith(t, site, cacheDir)
	const post = "content/pl/blog/biznes/chatboty-w-obsludze-klienta.md"
	own := entriesOf(t, site, post)
	if len(own) == 0 {
		t.Fatalf("no page from %s", post)
	}

	edit(t, site, post, func(s string) string { return s + "\nJeszcze jeden akapit.\n" })
	rep, got := buildWith(t, site, cacheDir)
	if !slices.Equal(rep.Rendered, own) || rep.PagesRendered != len(own) || rep.PagesCached == 0 {
		t.Errorf("body edit: rendered %v (%d from the cache), want %v", rep.Rendered, rep.PagesCached, own)
	}
	_, want := buildWith(t, site, "")
	sameTree(t, "body edit, cache vs none", want, got)
	if ch := changedPages(before, want); !slices.Equal(ch, own) {
		t.Errorf("body edit changed %v, the test expects it to change %v", ch, own)
	}

	before = want
	edit(t, site, post, func(s string) string {
		return strings.Replace(s, "title: Chatboty w obsłudze klienta", "title: Chatboty w obsłudze klientów", 1)
	})
	rep, got = buildWith(t, site, cacheDir)
	_, want = buildWith(t, site, "")
	sameTree(t, "title edit, cache vs none", want, got)
	changed := changedPages(before, want)
	var lists []string
	for _, u := range changed {
		if !slices.Contains(own, u) {
			lists = append(lists, u)
		}
	}
	if len(lists) == 0 {
		t.Fatalf("the title edit changed only %v: no listing shows the post", changed)
	}
	if !slices.Equal(rep.Rendered, changed) {
		t.Errorf("title edit: rendered %v, want the pages it changed: %v", rep.Rendered, changed)
	}

	edit(t, site, post, func(s string) string {
		return strings.Replace(s, "slug: blog/biznes/chatboty-w-obsludze-klienta", "slug: blog/biznes/chatboty-nowe", 1)
	})
	rep, got = buildWith(t, site, cacheDir)
	if rep.PagesCached != 0 {
		t.Errorf("after a slug change %d pages came from the cache", rep.PagesCached)
	}
	_, want = buildWith(t, site, "")
	sameTree(t, "moved page, cache vs none", want, got)
}

// TestCacheReplay: a build whose pages all come from the cache reports what
// rendering them would have: the UI strings missing in a locale, the data
// sets taken from the default locale, the script payloads.
func TestCacheReplay(t *testing.T) {
	src := fixtureCopy(t)
	cacheDir := t.TempDir()
	none, want := buildWith(t, src, "")
	buildWith(t, src, cacheDir)
	warm, got := buildWith(t, src, cacheDir)
	sameTree(t, "fixture, cache vs none", want, got)
	if warm.PagesRendered != 0 || warm.PagesCached == 0 {
		t.Fatalf("second build: %d pages rendered, %d from the cache", warm.PagesRendered, warm.PagesCached)
	}
	if len(none.StringMisses) == 0 || !slices.Equal(warm.StringMisses, none.StringMisses) {
		t.Errorf("string misses from the cache %v, without %v", warm.StringMisses, none.StringMisses)
	}
	if !slices.Equal(warm.DataFallbacks, none.DataFallbacks) {
		t.Errorf("data fallbacks from the cache %v, without %v", warm.DataFallbacks, none.DataFallbacks)
	}
	for l, js := range none.JS {
		if w := warm.JS[l]; w.GzipBytes != js.GzipBytes || w.Page != js.Page || !slices.Equal(w.Islands, js.Islands) {
			t.Errorf("layout %s: script payload from the cache %+v, without %+v", l, w, js)
		}
	}
}

// TestCacheConcurrentBuilds: builds sharing one cache folder at the same
// time (each reading what the others finished, merging segments) give the
// output of a build without a cache.
func TestCacheConcurrentBuilds(t *testing.T) {
	src := fixtureCopy(t)
	cacheDir := t.TempDir()
	_, want := buildWith(t, src, "")
	const builds = 12
	outs := make([]string, builds)
	errs := make(chan error, builds)
	for i := range outs {
		outs[i] = filepath.Join(t.TempDir(), "public")
		go func(out string) {
			_, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01", Minify: true, CacheDir: cacheDir})
			errs <- err
		}(outs[i])
	}
	for range outs {
		if err := waittest.Within(t, errs, "a concurrent build"); err != nil {
			t.Fatal(err)
		}
	}
	for _, out := range outs {
		sameTree(t, "concurrent build", want, readTree(t, out))
	}
	_, got := buildWith(t, src, cacheDir)
	sameTree(t, "after concurrent builds", want, got)
}

// TestCacheIconEdit: an icon read from outside the folders the build hash
// covers (an npm icon package) is traced like a source file: editing it
// renders again the pages that show it, and only those.
func TestCacheIconEdit(t *testing.T) {
	src := fixtureCopy(t)
	write := func(rel, s string) {
		t.Helper()
		p := filepath.Join(src, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("icons/star.svg", `<svg viewBox="0 0 24 24"><path d="M1 1"/></svg>`)
	edit(t, src, "site.yaml", func(s string) string { return s + "\nicons:\n  dir: icons\n" })
	edit(t, src, "templates/layouts/page.html", func(s string) string {
		return strings.Replace(s, "<h1>", `<h1>{{ icon "star" }}`, 1)
	})
	cacheDir := t.TempDir()
	cold, _ := buildWith(t, src, cacheDir)
	write("icons/star.svg", `<svg viewBox="0 0 24 24"><path d="M2 2"/></svg>`)
	rep, got := buildWith(t, src, cacheDir)
	_, want := buildWith(t, src, "")
	sameTree(t, "icon edit, cache vs none", want, got)
	if rep.PagesRendered == 0 || rep.PagesCached == 0 || rep.PagesRendered+rep.PagesCached != cold.PagesRendered {
		t.Errorf("icon edit: %d pages rendered (%v), %d from the cache; want the pages of layout page only", rep.PagesRendered, rep.Rendered, rep.PagesCached)
	}
	if !bytes.Contains(got["pl/kontakt/index.html"], []byte(`d="M2 2"`)) && !bytes.Contains(got["pl/blog/pierwszy/index.html"], []byte(`d="M2 2"`)) {
		t.Error("no page shows the edited icon")
	}
}
