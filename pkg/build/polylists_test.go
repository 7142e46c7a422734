package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/pkg/output"
)

// TestPolyglotLists: the polyglot fixture's blog is paged in each locale
// (two posts to a page: /2/ under each locale's slug, percent-encoded in
// the sitemap, with its page data, a canonical link of its own and an
// hreflang link to page 2 of the other locales), its tags get a term list
// and term pages under each locale's slug for the taxonomy, paged, with a
// valid feed per term; and when the blog shrinks to one page, a warm build
// drops /2/ as a cold one does, byte for byte.
func TestPolyglotLists(t *testing.T) {
	site := fixtureSite(t, "polyglot", t.TempDir())
	out, cacheDir := filepath.Join(t.TempDir(), "public"), t.TempDir()
	build := func(out, cacheDir string) {
		t.Helper()
		if _, err := Run(context.Background(), Options{Source: site, Out: out, Date: "2026-03-01", CacheDir: cacheDir}); err != nil {
			t.Fatal(err)
		}
	}
	build(out, cacheDir)
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const ja = "/ja/%E3%83%96%E3%83%AD%E3%82%B0/2/" // /ja/ブログ/2/
	for p, wants := range map[string][]string{
		"en/blog/index.html": {`<a rel="next" href="/en/blog/2/"`, `<a href="/en/tags/lists/" rel="tag">Lists</a>`},
		"en/blog/2/index.html": {`<link rel="canonical" href="https://polyglot.example.test/en/blog/2/">`, `<a rel="prev" href="/en/blog/"`,
			`hreflang="ja" href="https://polyglot.example.test` + ja + `"`, `<a href="/en/blog/warm-builds/">Warm builds</a>`},
		"ja/ブログ/2/index.html": {`<link rel="canonical" href="https://polyglot.example.test` + ja + `">`,
			`<a href="/ja/%e3%82%bf%e3%82%b0/%e3%83%93%e3%83%ab%e3%83%89/" rel="tag">ビルド</a>`},
		"de/blog/2/index.html":              {`<a href="/de/blog/warme-builds/">Warme Builds</a>`},
		"de/schlagworte/index.html":         {`<h1>Schlagwörter</h1>`, `<a href="/de/schlagworte/cache/">Cache</a> (1)`},
		"en/tags/lists/index.html":          {`<a href="/en/tags/">Tags</a>: Lists`, `<a rel="next" href="/en/tags/lists/2/"`, `title="Tags: Lists (RSS)" href="https://polyglot.example.test/en/tags/lists/feed.xml"`},
		"en/tags/lists/2/index.html":        {`<a href="/en/blog/feeds/">Feeds for every list</a>`},
		"ja/タグ/ビルド/index.html":              {`<a href="/ja/%e3%82%bf%e3%82%b0/">タグ</a>: ビルド`},
		"sitemap.xml":                       {"<loc>https://polyglot.example.test" + ja + "</loc>", "<loc>https://polyglot.example.test/ja/%E3%82%BF%E3%82%B0/%E3%83%93%E3%83%AB%E3%83%89/</loc>"},
		"page-data/ja/ブログ/2/page-data.json": {"ビルド"},
	} {
		got := read(p)
		for _, want := range wants {
			if !strings.Contains(got, want) {
				t.Errorf("%s lacks %s", p, want)
			}
		}
	}
	for _, p := range []string{"en/blog/3/index.html", "en/tags/builds/2/index.html"} {
		if _, err := os.Stat(filepath.Join(out, p)); err == nil {
			t.Errorf("%s written: an empty page", p)
		}
	}
	for _, f := range []string{"en/tags/lists/feed.xml", "en/tags/lists/atom.xml", "ja/タグ/ビルド/feed.xml"} {
		if errs := output.CheckFeed([]byte(read(f))); len(errs) > 0 {
			t.Errorf("%s: %v", f, errs)
		}
	}

	// The blog shrinks to one page: three posts, three to a page.
	for _, l := range []string{"en", "de", "ja"} {
		p := filepath.Join(site, "content", l, "blog", "index.md")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), "paginate: 2", "paginate: 3", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build(out, cacheDir)
	for _, p := range []string{"en/blog/2", "de/blog/2", "ja/ブログ/2", "page-data/en/blog/2"} {
		if _, err := os.Stat(filepath.Join(out, p)); err == nil {
			t.Errorf("%s is still in the output of the warm build", p)
		}
	}
	if strings.Contains(read("sitemap.xml"), "/blog/2/") || strings.Contains(read("en/blog/index.html"), `rel="next"`) {
		t.Errorf("the sitemap or the blog still has page 2")
	}
	sameAsCold := func(what string) {
		t.Helper()
		cold := filepath.Join(t.TempDir(), "public")
		build(cold, "")
		warmFiles, coldFiles := readTree(t, out), readTree(t, cold)
		for name, b := range coldFiles {
			if w, ok := warmFiles[name]; !ok || string(w) != string(b) {
				t.Errorf("%s: warm and cold builds differ at %s", what, name)
			}
		}
		for name := range warmFiles {
			if _, ok := coldFiles[name]; !ok {
				t.Errorf("%s: the warm build has %s, the cold one not", what, name)
			}
		}
	}
	sameAsCold("the blog shrank")

	// A post's terms change: the listings that show them, the term pages
	// and their feeds follow in a warm build.
	p := filepath.Join(site, "content", "en", "blog", "feeds.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "[Feeds, Lists]", "[Feeds, Atom]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	build(out, cacheDir)
	if !strings.Contains(read("en/blog/index.html"), `<a href="/en/tags/atom/" rel="tag">Atom</a>`) {
		t.Errorf("the blog does not show the post's new term")
	}
	if _, err := os.Stat(filepath.Join(out, "en/tags/lists/2")); err == nil {
		t.Errorf("the term lists still has a page 2")
	}
	sameAsCold("a post's terms changed")

	// A term spelled otherwise (the same slug, the same pages): the term
	// list shows the new spelling after a warm build.
	b, _ = os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "[Feeds, Atom]", "[FEEDS, Atom]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	build(out, cacheDir)
	if !strings.Contains(read("en/tags/index.html"), `>FEEDS</a>`) {
		t.Errorf("the term list does not show the term's new spelling")
	}
	sameAsCold("a term's spelling changed")
}

// TestListingFieldsWarm: what a listing shows of a page besides its title
// and dates (its tags, params and terms) is in the trace of the page that
// lists it: a warm build after changing them equals a cold one.
func TestListingFieldsWarm(t *testing.T) {
	site := fixtureSite(t, "minimal", t.TempDir())
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(site, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("content/en/blog/index.md", "---\nid: blog\ntitle: Blog\ndescription: d\nlayout: blog\n---\n")
	write("templates/layouts/blog.html", `{{ define "main" }}{{ range pages "blog" }}{{ .Title }} {{ .Params.kind }} {{ .Tags }};{{ end }}{{ end }}`)
	post := "---\nid: post\ntitle: Post\ndescription: d\nparams: {kind: KIND}\ntags: [TAG]\n---\nBody.\n"
	write("content/en/blog/post.md", post)
	out, cacheDir := filepath.Join(t.TempDir(), "public"), t.TempDir()
	build := func(out, cacheDir string) string {
		t.Helper()
		if _, err := Run(context.Background(), Options{Source: site, Out: out, Date: "2026-03-01", CacheDir: cacheDir}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, "en/blog/index.html"))
		must(t, err)
		return string(b)
	}
	build(out, cacheDir)
	for _, edit := range [][2]string{{"KIND", "SORT"}, {"TAG", "LABEL"}} {
		post = strings.Replace(post, edit[0], edit[1], 1)
		write("content/en/blog/post.md", post)
		warm, cold := build(out, cacheDir), build(filepath.Join(t.TempDir(), "public"), "")
		if warm != cold || !strings.Contains(warm, edit[1]) {
			t.Errorf("after %s -> %s, the warm build's blog is\n%s\nthe cold one's\n%s", edit[0], edit[1], warm, cold)
		}
	}
}
