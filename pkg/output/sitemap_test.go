package output

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// sitemapPlan is a two-locale site of n pages per locale (ids p0..), the
// Polish ones dated, plus one page only in Polish (its English fallback is
// left out of the sitemap) and one marked noindex.
func sitemapPlan(t testing.TB, n int) *route.Plan {
	t.Helper()
	cfg, err := config.Parse([]byte(`baseURL: https://example.test
title: T
locales:
  - {code: pl, name: Polski, prefix: /pl, default: true}
  - {code: en, name: English, prefix: /en}
`))
	if err != nil {
		t.Fatal(err)
	}
	parse := func(lang, file, src string) *content.Page {
		p, errs := content.ParsePage(file, lang, strings.TrimPrefix(file, "content/"+lang+"/"), []byte(src))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return p
	}
	pl := &content.Locale{Lang: "pl"}
	en := &content.Locale{Lang: "en"}
	pl.Pages = append(pl.Pages, parse("pl", "content/pl/index.md", "---\nid: home\ntitle: a\ndescription: b\n---\n"))
	en.Pages = append(en.Pages, parse("en", "content/en/index.md", "---\nid: home\ntitle: a\ndescription: b\n---\n"))
	pl.Pages = append(pl.Pages, parse("pl", "content/pl/tylko.md", "---\nid: only-pl\ntitle: a\ndescription: b\n---\n"))
	pl.Pages = append(pl.Pages, parse("pl", "content/pl/ukryta.md", "---\nid: hidden\ntitle: a\ndescription: b\nparams: {noindex: true}\n---\n"))
	for i := range n {
		pl.Pages = append(pl.Pages, parse("pl", fmt.Sprintf("content/pl/strona-%d.md", i), fmt.Sprintf("---\nid: p%d\ntitle: a\ndescription: b\ndate: 2024-01-%02dT10:00:00Z\n---\n", i, i%28+1)))
		en.Pages = append(en.Pages, parse("en", fmt.Sprintf("content/en/page-%d.md", i), fmt.Sprintf("---\nid: p%d\ntitle: a\ndescription: b\n---\n", i)))
	}
	p, err := route.Build(cfg, &content.Source{Locales: map[string]*content.Locale{"pl": pl, "en": en}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// marshalSitemap is the sitemap as encoding/xml writes it: what sitemap.xml
// was before it was written directly, and the reference for one file.
func marshalSitemap(t testing.TB, plan *route.Plan, baseURL string) []byte {
	type link struct {
		Rel      string `xml:"rel,attr"`
		Hreflang string `xml:"hreflang,attr"`
		Href     string `xml:"href,attr"`
	}
	type url struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod,omitempty"`
		Links   []link `xml:"xhtml:link"`
	}
	type urlset struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		XHTML   string   `xml:"xmlns:xhtml,attr"`
		URLs    []url    `xml:"url"`
	}
	us := urlset{NS: sitemapNS, XHTML: "http://www.w3.org/1999/xhtml"}
	for _, e := range plan.Entries {
		if e.NoIndex() || e.Root || e.Fallback {
			continue
		}
		u := url{Loc: baseURL + e.URL, LastMod: e.Page.Date}
		var def string
		for _, v := range plan.Variants(e.ID) {
			if v.Fallback {
				continue
			}
			u.Links = append(u.Links, link{"alternate", v.Lang, baseURL + v.URL})
			if v.Lang == plan.Default.Code {
				def = baseURL + v.URL
			}
		}
		if def != "" {
			u.Links = append(u.Links, link{"alternate", "x-default", def})
		}
		us.URLs = append(us.URLs, u)
	}
	b, err := xml.MarshalIndent(us, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(xml.Header), append(b, '\n')...)
}

type sitemapFileXML struct {
	XMLName xml.Name
	URLs    []struct {
		Loc   string `xml:"loc"`
		Links []struct {
			Hreflang string `xml:"hreflang,attr"`
		} `xml:"link"`
	} `xml:"url"`
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

func TestSitemaps(t *testing.T) {
	const base = "https://example.test"
	small := sitemapPlan(t, 3)
	large := sitemapPlan(t, 40)
	urls := bytes.Count(marshalSitemap(t, large, base), []byte("<url>"))
	if urls != 83 { // 2 homes, 80 pages, the Polish-only page
		t.Fatalf("the plan has %d indexable pages", urls)
	}
	tests := []struct {
		name    string
		plan    *route.Plan
		baseURL string
		lim     sitemapLimits
		parts   int // 0: one sitemap.xml, the bytes encoding/xml writes
	}{
		{"one file", small, base, protocolLimits, 0},
		{"one file, escaped base URL", small, "https://example.test/a&b'<c>", protocolLimits, 0},
		{"one file at the URL limit", large, base, sitemapLimits{urls, 1 << 20, 10}, 0},
		{"one URL over the limit", large, base, sitemapLimits{urls - 1, 1 << 20, 10}, 9},
		{"parts by URLs", large, base, sitemapLimits{50, 1 << 20, 25}, 4},
		{"parts by bytes", large, base, sitemapLimits{1000, 4000, 1000}, -1},
		{"an empty site", sitemapPlan(t, 0), base, protocolLimits, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string][]byte{}
			var order []string
			err := sitemaps(tt.plan, tt.baseURL, tt.lim, func(name string, b []byte) error {
				if _, dup := files[name]; dup {
					t.Errorf("%s emitted twice", name)
				}
				files[name] = b
				order = append(order, name)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := marshalSitemap(t, tt.plan, tt.baseURL)
			if tt.parts == 0 {
				if len(files) != 1 || !bytes.Equal(files[sitepath.Sitemap], want) {
					t.Fatalf("got files %v; sitemap.xml:\n%s\nwant:\n%s", order, files[sitepath.Sitemap], want)
				}
				return
			}
			if order[len(order)-1] != sitepath.Sitemap {
				t.Errorf("the index must come last (after its parts): %v", order)
			}
			var index sitemapFileXML
			if err := xml.Unmarshal(files[sitepath.Sitemap], &index); err != nil {
				t.Fatalf("index: %v", err)
			}
			if index.XMLName.Local != "sitemapindex" || index.XMLName.Space != sitemapNS {
				t.Errorf("index root %v", index.XMLName)
			}
			if tt.parts > 0 && len(index.Sitemaps) != tt.parts {
				t.Errorf("%d parts, want %d", len(index.Sitemaps), tt.parts)
			}
			if len(index.Sitemaps) < 2 {
				t.Fatalf("%d parts: not split", len(index.Sitemaps))
			}
			// The parts, in the index's order, list what one file would.
			var all sitemapFileXML
			if err := xml.Unmarshal(want, &all); err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, s := range index.Sitemaps {
				name := sitepath.SitemapPart(i + 1)
				if s.Loc != tt.baseURL+"/"+name {
					t.Errorf("index entry %d is %s, want %s", i, s.Loc, tt.baseURL+"/"+name)
				}
				b := files[name]
				if len(b) > tt.lim.maxBytes {
					t.Errorf("%s is %d bytes, over %d", name, len(b), tt.lim.maxBytes)
				}
				var part sitemapFileXML
				if err := xml.Unmarshal(b, &part); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(part.URLs) == 0 || len(part.URLs) > tt.lim.partURLs {
					t.Errorf("%s lists %d URLs (at most %d)", name, len(part.URLs), tt.lim.partURLs)
				}
				for _, u := range part.URLs {
					got = append(got, fmt.Sprint(u.Loc, len(u.Links)))
				}
			}
			if len(files) != len(index.Sitemaps)+1 {
				t.Errorf("%d files for %d parts and the index", len(files), len(index.Sitemaps))
			}
			var wantURLs []string
			for _, u := range all.URLs {
				wantURLs = append(wantURLs, fmt.Sprint(u.Loc, len(u.Links)))
			}
			if strings.Join(got, "\n") != strings.Join(wantURLs, "\n") {
				t.Errorf("the parts list\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantURLs, "\n"))
			}
		})
	}
}

// TestSitemapsProtocolLimits: a site of more than 50,000 indexable pages
// gets an index and parts within the protocol's limits.
func TestSitemapsProtocolLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 50,002-page plan")
	}
	plan := sitemapPlan(t, SitemapMaxURLs/2)
	files, err := Sitemap(plan, "https://example.test")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(files[sitepath.Sitemap], []byte(xml.Header+sitemapIndex)) {
		t.Fatalf("sitemap.xml is not an index:\n%.300s", files[sitepath.Sitemap])
	}
	want := (SitemapMaxURLs + 1 + sitemapPartURLs - 1) / sitemapPartURLs
	if len(files) != want+1 {
		t.Errorf("%d files, want %d parts and the index", len(files), want)
	}
	for name, b := range files {
		if n := bytes.Count(b, []byte("<url>")); n > sitemapPartURLs || len(b) > SitemapMaxBytes {
			t.Errorf("%s: %d URLs, %d bytes", name, n, len(b))
		}
	}
}
