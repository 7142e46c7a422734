package route

import (
	"strings"
	"testing"

	"sitegen/pkg/config"
	"sitegen/pkg/content"
)

func page(t *testing.T, lang, file, src string) *content.Page {
	t.Helper()
	p, errs := content.ParsePage(file, lang, strings.TrimPrefix(file, "content/"+lang+"/"), []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return p
}

func testPlan(t *testing.T) *Plan {
	t.Helper()
	cfg, err := config.Parse([]byte(`baseURL: https://example.test
title: T
locales:
  - {code: pl, name: Polski, prefix: /pl, default: true}
  - {code: en, name: English, prefix: /en}
legacyPaths: {/contact: contact, /sales: solution-sales}
`))
	if err != nil {
		t.Fatal(err)
	}
	src := &content.Source{Locales: map[string]*content.Locale{
		"pl": {Pages: []*content.Page{
			page(t, "pl", "content/pl/index.md", "---\nid: home\ntitle: a\ndescription: b\n---\n"),
			page(t, "pl", "content/pl/kontakt.md", "---\nid: contact\nslug: o-nas/kontakt\ntitle: a\ndescription: b\n---\n"),
			page(t, "pl", "content/pl/sprzedaz.md", "---\nid: solution-sales\nslug: rozwiazania/sprzedaz\ntitle: a\ndescription: b\n---\n"),
			page(t, "pl", "content/pl/tylko.md", "---\nid: only-pl\ntitle: a\ndescription: b\n---\n"),
		}},
		"en": {Pages: []*content.Page{
			page(t, "en", "content/en/index.md", "---\nid: home\ntitle: a\ndescription: b\n---\n"),
			page(t, "en", "content/en/contact.md", "---\nid: contact\nslug: about-us/contact\ntitle: a\ndescription: b\naliases: [/about-us/contact]\n---\n"),
			page(t, "en", "content/en/sales.md", "---\nid: solution-sales\nslug: solutions/sales\ntitle: a\ndescription: b\naliases: [/solutions/sales, /en/solution/sales]\n---\n"),
		}},
	}}
	p, err := Build(cfg, src, map[string]bool{"/investor-docs/raport.pdf": true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolve(t *testing.T) {
	p := testPlan(t)
	tests := []struct {
		lang, target, want, err string
	}{
		{"pl", "ref:contact", "/pl/o-nas/kontakt/", ""},
		{"en", "ref:contact", "/en/about-us/contact/", ""},
		{"en", "ref:contact#demo-form", "/en/about-us/contact/#demo-form", ""},
		{"pl", "/contact", "/pl/o-nas/kontakt/", ""},
		{"en", "/contact", "/en/about-us/contact/", ""},
		{"en", "/sales#top", "/en/solutions/sales/#top", ""},
		{"en", "ref:only-pl", "/en/tylko/", ""}, // falls back to the Polish page under /en
		{"pl", "#demo-form", "#demo-form", ""},
		{"pl", "/pl/o-nas/kontakt", "/pl/o-nas/kontakt/", ""},
		{"pl", "/solutions/sales", "/solutions/sales/", ""},
		{"pl", "/investor-docs/raport.pdf", "/investor-docs/raport.pdf", ""},
		{"pl", "https://example.org/x", "https://example.org/x", ""},
		{"pl", "mailto:a@b.pl", "mailto:a@b.pl", ""},
		{"pl", "tel:+48221234567", "tel:+48221234567", ""},
		{"pl", "ref:nope", "", `unknown page id "nope" (hint: page ids are the id: fields`},
		{"en", "ref:contcat", "", `unknown page id "contcat" (hint: did you mean "contact"?)`},
		{"en", "ref:hom", "", `(hint: did you mean "home"?)`},
		{"pl", "/nie/ma", "", "no page, redirect or file"},
		{"pl", "kontakt.html", "", "relative link"},
		{"pl", "//evil.example", "", "protocol-relative"},
		{"pl", "javascript:alert(1)", "", "relative link"},
		{"pl", "", "", "empty link"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+tt.target, func(t *testing.T) {
			got, err := p.Resolve(tt.lang, tt.target)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPlan(t *testing.T) {
	p := testPlan(t)
	var urls []string
	for _, e := range p.Entries {
		urls = append(urls, e.URL)
	}
	want := "/en/ /en/about-us/contact/ /en/solutions/sales/ /en/tylko/ /pl/ /pl/o-nas/kontakt/ /pl/rozwiazania/sprzedaz/ /pl/tylko/"
	if got := strings.Join(urls, " "); got != want {
		t.Errorf("entries:\n got %s\nwant %s", got, want)
	}
	root, ok := p.ByURL("/")
	if !ok || !root.Root || root.Lang != "pl" || root.PageData != "index" {
		t.Errorf("root entry = %+v", root)
	}
	var rs []string
	for _, r := range p.Redirects {
		rs = append(rs, r.From+">"+r.To)
	}
	wantR := "/about-us/contact/>/en/about-us/contact/ /contact/>/pl/o-nas/kontakt/ /en/solution/sales/>/en/solutions/sales/ /sales/>/pl/rozwiazania/sprzedaz/ /solutions/sales/>/en/solutions/sales/"
	if got := strings.Join(rs, " "); got != wantR {
		t.Errorf("redirects:\n got %s\nwant %s", got, wantR)
	}
	vs := p.Variants("contact")
	if len(vs) != 2 || vs[0].Lang != "pl" || vs[1].URL != "/en/about-us/contact/" {
		t.Errorf("variants = %v", vs)
	}
	if e, _ := p.Lookup("en", "only-pl"); e == nil || !e.Fallback || e.Page.Lang != "pl" {
		t.Errorf("only-pl in en should be a fallback to the Polish page: %+v", e)
	}
}

// TestHomeAndOffline: the home page is the page with the empty slug,
// whatever its id, and the site root shows the default locale's; a
// locale without its own takes the default locale's as a fallback.
// serviceWorker.offlinePage must name a page.
func TestHomeAndOffline(t *testing.T) {
	cfg, err := config.Parse([]byte("baseURL: https://example.test\ntitle: T\nlocales:\n  - {code: de, name: D, prefix: /de, default: true}\n  - {code: fr, name: F, prefix: /fr}\nserviceWorker: {offlinePage: hors-ligne}\n"))
	if err != nil {
		t.Fatal(err)
	}
	src := &content.Source{Locales: map[string]*content.Locale{
		"de": {Pages: []*content.Page{
			page(t, "de", "content/de/start.md", "---\nid: start\nslug: \"\"\ntitle: a\ndescription: b\n---\n"),
			page(t, "de", "content/de/home.md", "---\nid: home\ntitle: a\ndescription: b\n---\n"),
		}},
	}}
	p, err := Build(cfg, src, nil)
	if err == nil || !strings.Contains(err.Error(), `site.yaml:6:`) || !strings.Contains(err.Error(), `serviceWorker.offlinePage names page id "hors-ligne"`) {
		t.Errorf("offline page that does not exist: %v", err)
	}
	for _, c := range []struct{ lang, url string }{{"de", "/de/"}, {"fr", "/fr/"}} {
		if e, ok := p.Home(c.lang); !ok || e.ID != "start" || e.URL != c.url || !e.Home {
			t.Errorf("Home(%s) = %+v, %t; want start at %s", c.lang, e, ok, c.url)
		}
	}
	if r, ok := p.ByURL("/"); !ok || r.ID != "start" || !r.Root || !r.Home {
		t.Errorf("/ is %+v, %t; want start", r, ok)
	}
	if e, _ := p.Lookup("de", "home"); e == nil || e.Home {
		t.Errorf("the page of id home at %+v is taken for the home page", e)
	}
}
