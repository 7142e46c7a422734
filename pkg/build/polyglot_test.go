package build

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/pkg/output"
)

const polyglot = "../../testdata/sites/polyglot"

// TestPolyglotFiles: the polyglot fixture's feeds pass the feed rules in
// every locale, and its templates/files are written once per locale as
// the files they are (llms.txt, search.json), not as pages.
func TestPolyglotFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Run(context.Background(), Options{Source: polyglot, Out: out, Date: "2026-03-01"}); err != nil {
		t.Fatal(err)
	}
	read := func(p string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, dir := range []string{"en/blog", "de/blog", "ja/ブログ"} {
		for _, f := range []string{output.RSSFile, output.AtomFile} {
			if errs := output.CheckFeed(read(dir + "/" + f)); len(errs) > 0 {
				t.Errorf("%s/%s: %v", dir, f, errs)
			}
		}
	}
	// The listing is the same in every locale (item ids, fallbacks included).
	for _, dir := range []string{"en/blog", "de/blog", "ja/ブログ"} {
		if n := strings.Count(string(read(dir+"/"+output.RSSFile)), "<item>"); n != 3 {
			t.Errorf("%s/feed.xml lists %d posts, want the blog's 3", dir, n)
		}
	}
	if !strings.Contains(string(read("ja/ブログ/feed.xml")), "<link>https://polyglot.example.test/ja/blog/listings/</link>") {
		t.Errorf("the Japanese feed lacks the English-only post (a fallback under the default slug):\n%s", read("ja/ブログ/feed.xml"))
	}
	if !strings.Contains(string(read("ja/ブログ/feed.xml")), "<link>https://polyglot.example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/%E3%83%95%E3%82%A3%E3%83%BC%E3%83%89/</link>") {
		t.Errorf("the Japanese feed does not list its newest post first, encoded:\n%s", read("ja/ブログ/feed.xml"))
	}
	for _, lang := range []string{"en", "de", "ja"} {
		var index []struct{ Title, URL, Summary string }
		if err := json.Unmarshal(read(lang+"/search.json"), &index); err != nil {
			t.Fatalf("%s/search.json: %v", lang, err)
		}
		if len(index) != 6 {
			t.Errorf("%s/search.json lists %d pages, want the 6 indexable ones: %+v", lang, len(index), index)
		}
		if _, err := os.Stat(filepath.Join(out, lang, "llms.txt", "index.html")); err == nil {
			t.Errorf("%s/llms.txt written as a page", lang)
		}
	}
	// Coloured code: the post's code block has chroma's classes, and the
	// bundled stylesheet the rules highlight-css wrote for them.
	css, _ := filepath.Glob(filepath.Join(out, "_assets", "*.css"))
	coloured := false
	for _, f := range css {
		b, _ := os.ReadFile(f)
		coloured = coloured || strings.Contains(string(b), ".chroma .k")
	}
	if !coloured || !strings.Contains(string(read("en/blog/warm-builds/index.html")), `<span class="kd">func</span>`) {
		t.Errorf("code is not coloured: stylesheet has the chroma rules %t", coloured)
	}
	// A table of contents (toc 2 3), in any script.
	for p, want := range map[string]string{
		"en/blog/warm-builds/index.html": `<nav class="toc" aria-label="Contents"><a class="toc-2" href="#what-is-compared">What is compared</a><a class="toc-3" href="#templates">Templates</a></nav>`,
		"ja/ブログ/ウォームビルド/index.html":      `<nav class="toc" aria-label="目次"><a class="toc-2" href="#%e6%af%94%e8%bc%83%e3%81%99%e3%82%8b%e3%82%82%e3%81%ae">比較するもの</a></nav>`,
	} {
		if !strings.Contains(string(read(p)), want) {
			t.Errorf("%s lacks the table of contents %s", p, want)
		}
	}
	// Localised dates (localDate "long").
	for p, want := range map[string]string{"en/blog/warm-builds/index.html": ">January 12, 2026</time>",
		"de/blog/warme-builds/index.html": ">12. Januar 2026</time>", "ja/ブログ/ウォームビルド/index.html": ">2026年1月12日</time>"} {
		if !strings.Contains(string(read(p)), want) {
			t.Errorf("%s lacks %s", p, want)
		}
	}
	if got := string(read("ja/llms.txt")); !strings.HasPrefix(got, "# Polyglot Engineering\n\n> エンジニアリングチームのノート") ||
		!strings.Contains(got, "- [ウォームビルド](https://polyglot.example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/%E3%82%A6%E3%82%A9%E3%83%BC%E3%83%A0%E3%83%93%E3%83%AB%E3%83%89/): ") ||
		strings.Contains(got, "404") {
		t.Errorf("ja/llms.txt:\n%s", got)
	}
}
