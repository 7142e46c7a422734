package build

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// buildWith builds src into a fresh folder with the given cache folder ("" =
// none) and returns the report and the output tree.
func buildWith(t *testing.T, src, cacheDir string) (*Report, map[string][]byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	rep, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01", Minify: true, CacheDir: cacheDir})
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

// TestCacheByteIdentical builds the real site (Markdown, templates, island
// SSR) without a cache, with an empty cache and twice with the cache the
// second build filled: the outputs are byte-identical, and the later builds
// render again only what is never cached.
func TestCacheByteIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the real site three times")
	}
	site, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(site, "node_modules")); err != nil {
		t.Skip("the real site needs node_modules (make setup)")
	}
	cacheDir := t.TempDir()
	_, none := buildWith(t, site, "")
	cold, first := buildWith(t, site, cacheDir)
	warm, second := buildWith(t, site, cacheDir)
	sameTree(t, "no cache vs empty cache", none, first)
	sameTree(t, "no cache vs filled cache", none, second)
	if cold.CacheHits != 0 || cold.CacheMisses == 0 {
		t.Errorf("empty cache: %d hits, %d misses", cold.CacheHits, cold.CacheMisses)
	}
	// Pages whose Markdown makes pictures are not cached (making them
	// writes image variants): those, and only those, miss every time.
	if warm.CacheHits == 0 || warm.CacheHits+warm.CacheMisses != cold.CacheMisses || warm.CacheMisses > cold.CacheMisses/10 {
		t.Errorf("filled cache: %d hits, %d misses of the first build's %d lookups", warm.CacheHits, warm.CacheMisses, cold.CacheMisses)
	}
	again, third := buildWith(t, site, cacheDir)
	sameTree(t, "no cache vs third build", none, third)
	if again.CacheMisses != warm.CacheMisses {
		t.Errorf("third build: %d misses, the second %d: the second stored something the first did not", again.CacheMisses, warm.CacheMisses)
	}
}

// TestCacheOneChangedPage edits one page's text: the next build renders that
// page's Markdown again and nothing else, and its output is the output of a
// build without a cache. Changing a page's slug changes the route plan that
// every link resolves through, so then every page is rendered again.
func TestCacheOneChangedPage(t *testing.T) {
	src := fixtureCopy(t)
	cacheDir := t.TempDir()
	cold, _ := buildWith(t, src, cacheDir)
	page := filepath.Join(src, "content", "pl", "kontakt.md")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, append(b, []byte("\nOne more paragraph.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	site, err := Load(context.Background(), Options{Source: src, Date: "2026-01-01"})
	if err != nil {
		t.Fatal(err)
	}
	uses := 0 // the page in its locale and where other locales fall back to it
	for _, e := range site.Plan.Entries {
		if e.Page.File == "content/pl/kontakt.md" {
			uses++
		}
	}
	site.Close()
	rep, got := buildWith(t, src, cacheDir)
	if uses == 0 || rep.CacheMisses != int64(uses) || rep.CacheHits != cold.CacheMisses-int64(uses) {
		t.Errorf("after editing one page used %d times: %d misses, %d hits (want %d)", uses, rep.CacheMisses, rep.CacheHits, cold.CacheMisses-int64(uses))
	}
	_, want := buildWith(t, src, "")
	sameTree(t, "edited page, cache vs none", want, got)
	if !bytes.Contains(got["pl/o-nas/kontakt/index.html"], []byte("One more paragraph.")) {
		t.Error("the edited page does not show its new text")
	}

	moved := bytes.Replace(b, []byte("slug: o-nas/kontakt\n"), []byte("slug: o-nas/kontakt-nowy\n"), 1)
	if err := os.WriteFile(page, moved, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, got = buildWith(t, src, cacheDir)
	if rep.CacheHits != 0 {
		t.Errorf("after a slug change %d renders came from the cache", rep.CacheHits)
	}
	_, want = buildWith(t, src, "")
	sameTree(t, "moved page, cache vs none", want, got)
}
