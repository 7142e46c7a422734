package route

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
)

const listsConfig = `baseURL: https://example.test
title: T
locales:
  - {code: en, name: English, prefix: /en, default: true}
  - {code: ja, name: 日本語, prefix: /ja}
taxonomies:
  - name: tags
    slug: {en: tags, ja: タグ}
    paginate: 2
`

// listsPlan is the plan of a blog paged 2 to a page with posts posts in
// English (each with the tags terms[i]) and, in Japanese, the list (slug
// ブログ) and the first post, translated, with the tag ビルド.
func listsPlan(t *testing.T, cfgText string, posts int, terms ...string) (*Plan, error) {
	t.Helper()
	cfg, err := config.Parse([]byte(cfgText))
	if err != nil {
		t.Fatal(err)
	}
	en := []*content.Page{page(t, "en", "content/en/blog/index.md", "---\nid: blog\ntitle: Blog\ndescription: b\npaginate: 2\n---\n")}
	for i := 1; i <= posts; i++ {
		fm := fmt.Sprintf("---\nid: post%d\ntitle: Post %d\ndescription: b\ndate: 2026-01-%02d\n", i, i, i)
		if i <= len(terms) {
			fm += "terms: {tags: [" + terms[i-1] + "]}\n"
		}
		en = append(en, page(t, "en", fmt.Sprintf("content/en/blog/post%d.md", i), fm+"---\n"))
	}
	ja := []*content.Page{
		page(t, "ja", "content/ja/blog/index.md", "---\nid: blog\nslug: ブログ\ntitle: ブログ\ndescription: b\npaginate: 2\n---\n"),
		page(t, "ja", "content/ja/blog/post1.md", "---\nid: post1\nslug: ブログ/一\ntitle: 一\ndescription: b\ndate: 2026-01-01\nterms: {tags: [ビルド]}\n---\n"),
	}
	src := &content.Source{Locales: map[string]*content.Locale{"en": {Pages: en}, "ja": {Pages: ja}}}
	return Build(cfg, src, nil)
}

func urls(p *Plan) []string {
	var out []string
	for _, e := range p.Entries {
		out = append(out, e.URL)
	}
	return out
}

// TestPagedList: a page with paginate: N lists the pages below it N to a
// page, page 1 at its own URL and the others at /2/, /3/… below it (in
// every locale, under its slug there); the count follows the pages (no
// empty page, and a list that shrinks to one page has no /2/); every page
// knows its items, its number, the total and every page's URL; the paged
// URLs are entries of the plan, so sitemap, hosts, hreflang and check
// see them, and page n of a list pairs with page n in the other locales.
func TestPagedList(t *testing.T) {
	p, err := listsPlan(t, listsConfig, 5)
	if err != nil {
		t.Fatal(err)
	}
	got := urls(p)
	for _, want := range []string{"/en/blog/", "/en/blog/2/", "/en/blog/3/", "/ja/ブログ/", "/ja/ブログ/2/", "/ja/ブログ/3/"} {
		if !slices.Contains(got, want) {
			t.Errorf("no entry at %s: %q", want, got)
		}
	}
	if slices.Contains(got, "/en/blog/4/") || slices.Contains(got, "/en/blog/1/") {
		t.Errorf("an empty page or a /1/: %q", got)
	}
	e, _ := p.ByURL("/en/blog/3/")
	if e.Pager == nil || e.Pager.Number != 3 || e.Pager.Total != 3 || len(e.Pager.Items) != 1 || e.Pager.Items[0].ID != "post1" ||
		e.Pager.All != 5 || !slices.Equal(e.Pager.URLs, []string{"/en/blog/", "/en/blog/2/", "/en/blog/3/"}) || !e.Generated {
		t.Errorf("page 3: %+v", e.Pager)
	}
	first, _ := p.Lookup("en", "blog")
	if first.Pager == nil || first.Pager.Number != 1 || len(first.Pager.Items) != 2 || first.Pager.Items[0].ID != "post5" {
		t.Errorf("page 1 (the list's own URL): %+v", first.Pager)
	}
	// The Japanese blog lists the English posts it lacks (fallbacks), paged the same.
	if ja, _ := p.ByURL("/ja/ブログ/3/"); ja == nil || ja.Pager.Items[0].URL != "/ja/ブログ/一/" {
		t.Errorf("ja page 3: %+v", ja)
	}
	if vs := p.Variants("blog@2"); len(vs) != 2 || vs[1].URL != "/ja/ブログ/2/" {
		t.Errorf("page 2's variants (hreflang): %+v", vs)
	}
	// The list shrinks: one page, no /2/.
	p, err = listsPlan(t, listsConfig, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := urls(p); slices.Contains(got, "/en/blog/2/") {
		t.Errorf("two posts, two to a page, still have a page 2: %q", got)
	}
	if u, err := p.Resolve("en", "/en/blog/2/"); err == nil {
		t.Errorf("a link to the page that went resolves to %s", u)
	}
	// The below list does not list the list's own pages 2….
	p, _ = listsPlan(t, listsConfig, 5)
	for _, e := range p.Below(first) {
		if e.Generated {
			t.Errorf("pages below the blog include the generated %s", e.URL)
		}
	}
}

// TestTaxonomies: a taxonomy of site.yaml gets, per locale with terms, a
// term list at its translated slug and a page per term (slugified by the
// slug rule, in any script), paged by the taxonomy's paginate; each term
// lists its pages newest first, fallbacks included.
func TestTaxonomies(t *testing.T) {
	p, err := listsPlan(t, listsConfig, 4, "Go, Warm builds", "go", "Go", "C++")
	if err != nil {
		t.Fatal(err)
	}
	got := urls(p)
	for _, want := range []string{"/en/tags/", "/en/tags/go/", "/en/tags/go/2/", "/en/tags/warm-builds/", "/en/tags/c/",
		"/ja/タグ/", "/ja/タグ/ビルド/", "/ja/タグ/go/"} {
		if !slices.Contains(got, want) {
			t.Errorf("no entry at %s: %q", want, got)
		}
	}
	goTerm, _ := p.ByURL("/en/tags/go/")
	if goTerm.Term == nil || goTerm.Term.Name != "Go" || len(goTerm.Term.Pages) != 3 || goTerm.Pager.Total != 2 ||
		goTerm.Pager.Items[0].ID != "post3" || goTerm.Page.Layout != config.TermLayout || goTerm.ID != TermID("tags", "go") {
		t.Errorf("term go: %+v %+v", goTerm.Term, goTerm.Pager)
	}
	list, _ := p.ByURL("/ja/タグ/")
	if list.Taxonomy == nil || list.Page.Layout != config.TermsLayout || len(p.Terms("ja", "tags")) != 3 { // ビルド, and go and c from the English posts it lacks
		t.Errorf("ja term list: %+v, terms %d", list, len(p.Terms("ja", "tags")))
	}
	post1, _ := p.Lookup("en", "post1")
	if ts := p.TermsOf(post1, "tags"); len(ts) != 2 || ts[1].URL != "/en/tags/warm-builds/" {
		t.Errorf("post1's terms: %+v", ts)
	}
	if u, err := p.Resolve("ja", "ref:"+TermListID("tags")); err != nil || u != "/ja/タグ/" {
		t.Errorf("ref to the term list: %q %v", u, err)
	}
}

// TestTaxonomyErrors: an unknown taxonomy, a term without a slug, two
// terms with one slug and a bad taxonomy slug are errors at their line.
func TestTaxonomyErrors(t *testing.T) {
	for _, c := range []struct {
		name, cfg string
		terms     []string
		want      string
	}{
		{"unknown taxonomy", listsConfig, []string{"go"}, ""},
		{"no slug", listsConfig, []string{"++"}, `content/en/blog/post1.md:6:16: terms: tags: "++" has no letter or digit`},
		{"collision", listsConfig, []string{"C++", "C#"}, `content/en/blog/post2.md:6:16: terms: tags: "C#" and "C++" are two terms with the same slug "c"`},
		{"bad slug", strings.Replace(listsConfig, "ja: タグ", "ja: Tags", 1), nil, `site.yaml:8:26: taxonomies: tags: slug "Tags" in ja holds the upper-case 'T'`},
		{"page over a term", listsConfig + "", []string{"blog"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			if c.name == "unknown taxonomy" {
				cfg = strings.Replace(cfg, "name: tags", "name: topics", 1)
				c.want = `content/en/blog/post1.md:6:9: terms: "tags" is not a taxonomy of site.yaml (hint: site.yaml declares topics)`
			}
			if c.name == "page over a term" {
				cfg = strings.Replace(cfg, "en: tags", "en: blog", 1)
				c.want = `site.yaml:8:16: page "taxonomy:tags" and page "blog" are both at /en/blog/`
			}
			_, err := listsPlan(t, cfg, 2, c.terms...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %s", err, c.want)
			}
		})
	}
}

// TestPagedData: a page with paginateData pages through a data set's
// records (the locale's set, else the default locale's); a name that is
// no list of records is an error at its line.
func TestPagedData(t *testing.T) {
	cfg, err := config.Parse([]byte(listsConfig))
	if err != nil {
		t.Fatal(err)
	}
	talks := func(fm string) *content.Source {
		return &content.Source{Locales: map[string]*content.Locale{
			"en": {Pages: []*content.Page{page(t, "en", "content/en/talks.md", "---\nid: talks\ntitle: T\ndescription: d\npaginate: 2\n"+fm+"---\n")},
				Data: map[string]*content.DataSet{
					"talks.all": {Name: "talks.all", Value: []any{"a", "b", "c", "d", "e"}},
					"site.one":  {Name: "site.one", Value: map[string]any{"a": 1}},
				}},
			"ja": {},
		}}
	}
	p, err := Build(cfg, talks("paginateData: talks.all\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := p.ByURL("/ja/talks/3/") // the Japanese fallback pages the English set
	if !ok || e.Pager.Data != "talks.all" || e.Pager.Lo != 4 || e.Pager.Hi != 5 || e.Pager.Total != 3 || len(e.Pager.Items) != 0 {
		t.Fatalf("page 3: %+v", e)
	}
	for fm, want := range map[string]string{
		"paginateData: talks.none\n": `content/en/talks.md:6:15: paginateData "talks.none" names no data set`,
		"paginateData: site.one\n":   `content/en/talks.md:6:15: paginateData "site.one" is one record (item:), not a list of records (items:)`,
	} {
		if _, err := Build(cfg, talks(fm), nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %s", fm, err, want)
		}
	}
}

// TestTermsWithoutTaxonomies: terms on a site that declares no taxonomy
// (and pages no list) are an error at their line.
func TestTermsWithoutTaxonomies(t *testing.T) {
	cfg, err := config.Parse([]byte(strings.Split(listsConfig, "taxonomies:")[0]))
	if err != nil {
		t.Fatal(err)
	}
	src := &content.Source{Locales: map[string]*content.Locale{"en": {Pages: []*content.Page{
		page(t, "en", "content/en/a.md", "---\nid: a\ntitle: A\ndescription: d\nterms: {tags: [go]}\n---\n")}}}}
	_, err = Build(cfg, src, nil)
	if want := `content/en/a.md:5:9: terms: "tags" is not a taxonomy of site.yaml (hint: declare it in site.yaml: taxonomies: [{name: tags}])`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestPagedOverPage: a page at the URL of a list's page 2 is an error at
// its slug.
func TestPagedOverPage(t *testing.T) {
	cfg, err := config.Parse([]byte(listsConfig))
	if err != nil {
		t.Fatal(err)
	}
	src := &content.Source{Locales: map[string]*content.Locale{"en": {Pages: []*content.Page{
		page(t, "en", "content/en/blog/index.md", "---\nid: blog\ntitle: B\ndescription: d\npaginate: 1\n---\n"),
		page(t, "en", "content/en/blog/a.md", "---\nid: a\ntitle: A\ndescription: d\n---\n"),
		page(t, "en", "content/en/blog/b.md", "---\nid: b\nslug: blog/2\ntitle: B\ndescription: d\n---\n"),
	}}}}
	_, err = Build(cfg, src, nil)
	if want := `content/en/blog/b.md:3:7: page "b" is at /en/blog/2/, where page 2 of the paged list "blog" goes`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
}
