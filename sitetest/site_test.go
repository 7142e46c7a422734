// Package sitetest checks the built website: every route of the
// specification resolves, every internal link and #anchor resolves, every
// page has its head and one h1, and no page holds placeholder text.
package sitetest

import (
	"context"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"sitegen/pkg/build"
)

const baseURL = "https://www.botforge.pl"

var (
	buildOnce sync.Once
	outDir    string
	buildErr  error
)

// site builds the repository's website once per test binary.
func site(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sitetest-")
		if err != nil {
			buildErr = err
			return
		}
		outDir = filepath.Join(dir, "public")
		_, buildErr = build.Run(context.Background(), build.Options{Source: "..", Out: outDir, Date: "2026-08-15", Minify: true})
	})
	if buildErr != nil {
		t.Fatalf("building the website: %v", buildErr)
	}
	return outDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if outDir != "" {
		os.RemoveAll(filepath.Dir(outDir))
	}
	os.Exit(code)
}

// page is what the checks need of one HTML file.
type page struct {
	file       string
	title      string
	desc       string
	h1         int
	hreflangs  int
	canonical  string
	ids        map[string]bool
	links      []string // href/src values
	text       strings.Builder
	redirectTo string
	lang       string
	head       map[string]bool // "og:title", "twitter:card", "rel:manifest", "rel:icon", "keywords", ...
}

func parse(t *testing.T, file string) *page {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	p := &page{file: file, ids: map[string]bool{}, head: map[string]bool{}}
	var walk func(n *html.Node, inHead, skipText bool)
	walk = func(n *html.Node, inHead, skipText bool) {
		if n.Type == html.ElementNode {
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
			}
			if id, ok := attr["id"]; ok {
				p.ids[id] = true
			}
			if name, ok := attr["name"]; ok && n.Data == "a" {
				p.ids[name] = true
			}
			switch n.Data {
			case "html":
				p.lang = attr["lang"]
			case "title":
				if n.FirstChild != nil {
					p.title = strings.TrimSpace(n.FirstChild.Data)
				}
			case "meta":
				if k := attr["property"] + attr["name"]; k != "" && strings.TrimSpace(attr["content"]) != "" {
					p.head[k] = true
				} else if k != "" {
					p.head["empty:"+k] = true
				}
				if attr["name"] == "description" {
					p.desc = attr["content"]
				}
				if strings.EqualFold(attr["http-equiv"], "refresh") {
					if _, u, ok := strings.Cut(attr["content"], "url="); ok {
						p.redirectTo = u
					}
				}
			case "h1":
				p.h1++
			case "link":
				switch attr["rel"] {
				case "alternate":
					if attr["hreflang"] != "" {
						p.hreflangs++
					}
				case "canonical":
					p.canonical = attr["href"]
				}
				p.head["rel:"+attr["rel"]] = true
				if attr["rel"] != "alternate" && attr["rel"] != "canonical" {
					p.links = append(p.links, attr["href"])
				}
			case "a":
				if h, ok := attr["href"]; ok {
					p.links = append(p.links, h)
				}
			case "img", "script", "source", "iframe":
				if s, ok := attr["src"]; ok {
					p.links = append(p.links, s)
				}
			case "form":
				p.links = append(p.links, "form:"+attr["action"])
			}
			if n.Data == "script" || n.Data == "style" || n.Data == "pre" || n.Data == "code" {
				skipText = true // code may hold {{ }} and the like
			}
		}
		if n.Type == html.TextNode && !skipText {
			p.text.WriteString(n.Data)
			p.text.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inHead, skipText)
		}
	}
	walk(doc, false, false)
	return p
}

// pages parses every HTML file of the output.
func pages(t *testing.T) map[string]*page {
	t.Helper()
	out := site(t)
	all := map[string]*page{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		all["/"+filepath.ToSlash(rel)] = parse(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// target maps a site path to the output file that serves it.
func target(out, p string) (string, bool) {
	p = path.Clean("/" + p)
	f := filepath.Join(out, filepath.FromSlash(p))
	if st, err := os.Stat(f); err == nil {
		if !st.IsDir() {
			return "/" + strings.TrimPrefix(p, "/"), true
		}
		if _, err := os.Stat(filepath.Join(f, "index.html")); err == nil {
			return strings.TrimSuffix(p, "/") + "/index.html", true
		}
	}
	return "", false
}

// Spec §2 and issue 4: every route answers with its page or a redirect to it.
var routes = []string{
	// Polish route map.
	"/pl/", "/pl/index", "/pl/produkty/intrabot", "/pl/produkty/custombot", "/pl/produkty/hirebot",
	"/pl/technologie/sztuczna-inteligencja", "/pl/technologie/interfejs-konwersacyjny",
	"/pl/technologie/inteligentna-automatyzacja", "/pl/technologie/platforma",
	"/pl/rozwiazania/sprzedaz", "/pl/rozwiazania/obsluga-klienta", "/pl/rozwiazania/komunikacja-wewnetrzna",
	"/pl/rozwiazania/twoj-wlasny-bot", "/pl/rozwiazania/rekrutacja",
	"/pl/dla-inwestorow/informacje-ogolne", "/pl/dla-inwestorow/wza", "/pl/dla-inwestorow/raporty",
	"/pl/dla-inwestorow/akcje", "/pl/dla-inwestorow/kalendarz",
	"/pl/o-nas/czym", "/pl/o-nas/kontakt", "/pl/o-nas/praca", "/pl/o-nas/zespol", "/pl/o-nas/dlaczego-my",
	"/pl/projekty-unijne", "/pl/podziekowanie", "/pl/politykacsr", "/pl/blog", "/pl/blog/biznes", "/pl/hirebot",
	"/pl/404", "/pl/500", "/pl/devblog",
	// English pages and aliases.
	"/en/", "/en/index", "/en/solutions/support", "/en/solutions/communication", "/en/solutions/recruitment",
	"/en/solutions/sales", "/en/solutions/other-bots",
	"/en/about-us/why-us", "/en/about-us/jobs", "/en/about-us/team", "/en/about-us/contact", "/en/about-us/about",
	"/en/technology/platform", "/en/technology/automation", "/en/technology/conversation-interface",
	"/en/technology/artificial-inteligence",
	"/en/technologies/platform", "/en/technologies/artificial-inteligence", "/en/technologies/automation",
	"/en/technologies/conversation-interface",
	"/en/products/custombot", "/en/products/intrabot", "/en/products/hirebot",
	"/en/for-investors/investors", "/en/for-investors/wza", "/en/for-investors/raports",
	"/en/for-investors/stock", "/en/for-investors/calendar",
	"/en/grants", "/en/thanks", "/en/404", "/en/500", "/en/csrpolicy", "/en/blog", "/en/blog/business",
	"/en/about-us/blog", "/en/devblog", "/en/hirebot",
	"/solutions/support", "/solutions/communication", "/solutions/recruitment", "/solutions/sales",
	"/solutions/other-bots", "/about-us/why-us", "/about-us/jobs", "/about-us/team", "/about-us/contact",
	"/about-us/about", "/technology/platform", "/technology/automation", "/technology/conversation-interface",
	"/technology/artificial-inteligence", "/products/custombot", "/products/intrabot", "/products/hirebot",
	"/for-investors/investors", "/for-investors/wza", "/for-investors/raports", "/for-investors/stock",
	"/for-investors/calendar", "/grants", "/thanks", "/csrpolicy", "/blog",
	// Short paths used in copy.
	"/contact", "/support", "/recruitment", "/sales", "/communication", "/conversation-interface",
	"/artificial-inteligence", "/automation",
	// Error pages at the root.
	"/404.html", "/500.html", "/pl/404.html", "/en/404.html",
}

func TestRoutesResolve(t *testing.T) {
	out := site(t)
	for _, r := range routes {
		f, ok := target(out, r)
		if !ok {
			t.Errorf("route %s: no page", r)
			continue
		}
		p := parse(t, filepath.Join(out, filepath.FromSlash(f)))
		if p.redirectTo == "" {
			continue
		}
		g, ok := target(out, p.redirectTo)
		if !ok {
			t.Errorf("route %s redirects to %s, which does not exist", r, p.redirectTo)
			continue
		}
		if q := parse(t, filepath.Join(out, filepath.FromSlash(g))); q.redirectTo != "" || q.h1 != 1 {
			t.Errorf("route %s redirects to %s, which is not a page", r, p.redirectTo)
		}
	}
	// Short paths in copy resolve per locale: English copy links /contact to the English page.
	en := parse(t, filepath.Join(out, "en/about-us/contact/index.html"))
	if en.lang != "en" {
		t.Errorf("/en/about-us/contact/ has lang %q", en.lang)
	}
}

func TestLinksAndAnchors(t *testing.T) {
	out := site(t)
	all := pages(t)
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	broken := 0
	for _, name := range names {
		p := all[name]
		for _, l := range p.links {
			if strings.HasPrefix(l, "form:") {
				continue
			}
			if l == "" || l == "#" {
				t.Errorf("%s: empty link %q", name, l)
				continue
			}
			u, err := url.Parse(l)
			if err != nil {
				t.Errorf("%s: bad link %q", name, l)
				continue
			}
			abs := strings.HasPrefix(l, baseURL)
			if u.Scheme != "" && !abs || strings.HasPrefix(l, "//") {
				continue // external
			}
			var tgt *page
			if u.Path == "" {
				tgt = p
			} else {
				f, ok := target(out, u.Path)
				if !ok {
					t.Errorf("%s: link %s: no such file", name, l)
					broken++
					continue
				}
				if strings.HasSuffix(f, ".html") {
					tgt = all[f]
				}
			}
			if u.Fragment != "" && tgt != nil && tgt.redirectTo == "" && !tgt.ids[u.Fragment] {
				t.Errorf("%s: link %s: no element with id %q", name, l, u.Fragment)
				broken++
			}
		}
		if broken > 200 {
			t.Fatal("too many broken links")
		}
	}
}

var placeholderRE = regexp.MustCompile(`(?i)lorem ipsum|\bTODO\b|\bFIXME\b|\bTBD\b|\bXXX\b|placeholder|(details|more|content) coming soon|\{\{|\}\}`)

func TestEveryPage(t *testing.T) {
	all := pages(t)
	for name, p := range all {
		if p.redirectTo != "" {
			continue
		}
		if p.title == "" {
			t.Errorf("%s: no title", name)
		}
		if strings.TrimSpace(p.desc) == "" {
			t.Errorf("%s: no meta description", name)
		}
		if p.h1 != 1 {
			t.Errorf("%s: %d h1 elements, want 1", name, p.h1)
		}
		if p.hreflangs < 2 && !strings.HasSuffix(name, "/404.html") && !strings.HasSuffix(name, "/500.html") && name != "/404.html" && name != "/500.html" {
			t.Errorf("%s: %d hreflang links", name, p.hreflangs)
		}
		if p.canonical == "" || !strings.HasPrefix(p.canonical, baseURL) {
			t.Errorf("%s: canonical %q", name, p.canonical)
		}
		if p.lang != "pl" && p.lang != "en" {
			t.Errorf("%s: html lang %q", name, p.lang)
		}
		if p.head["empty:keywords"] {
			t.Errorf("%s: an empty meta keywords (emit it only when there are keywords)", name)
		}
		for _, k := range []string{"og:title", "og:description", "og:url", "og:image", "og:locale", "twitter:card", "rel:icon", "rel:manifest", "rel:stylesheet"} {
			if !p.head[k] {
				t.Errorf("%s: no %s in the head", name, k)
			}
		}
		if m := placeholderRE.FindString(p.text.String()); m != "" {
			t.Errorf("%s: placeholder text %q", name, m)
		}
	}
}

// TestSpecTexts checks the exact texts the specification gives.
func TestSpecTexts(t *testing.T) {
	out := site(t)
	text := func(p string) string {
		f, ok := target(out, p)
		if !ok {
			t.Fatalf("no page %s", p)
		}
		return strings.Join(strings.Fields(parse(t, filepath.Join(out, filepath.FromSlash(f))).text.String()), " ")
	}
	tests := []struct{ page, want string }{
		{"/pl/404/", "Wygląda na to, że nic tutaj nie ma..."},
		{"/en/404/", "There seems to be nothing here..."},
		{"/404.html", "Wygląda na to, że nic tutaj nie ma..."},
		{"/en/404/", "Go to main page"},
		{"/pl/podziekowanie/", "Dziękujemy!"},
		{"/pl/podziekowanie/", "24 godzin roboczych"},
		{"/en/thanks/", "24 hours"},
		{"/pl/o-nas/kontakt/", "Umów demo"},
		{"/pl/dla-inwestorow/raporty/", "Bieżące"},
		{"/pl/hirebot/", "599"},
		{"/pl/dla-inwestorow/informacje-ogolne/", "6 899 373"},
		{"/pl/dla-inwestorow/informacje-ogolne/", "689 937,30"},
	}
	for _, tt := range tests {
		if got := text(tt.page); !strings.Contains(strings.ReplaceAll(got, "\u00a0", " "), tt.want) {
			t.Errorf("%s lacks %q", tt.page, tt.want)
		}
	}
	if strings.Contains(text("/en/thanks/"), "working hours") {
		t.Errorf("the English thank-you page promises 24 hours, not working hours")
	}
}

// TestMarketingConstants: every §9 constant stands somewhere on the site, and
// the 85% claim appears in exactly one English page.
func TestMarketingConstants(t *testing.T) {
	all := pages(t)
	var site strings.Builder
	pages85 := 0
	for name, p := range all {
		if p.redirectTo != "" || strings.HasSuffix(name, "/404.html") || strings.HasSuffix(name, "/500.html") {
			continue
		}
		s := strings.ReplaceAll(p.text.String(), "\u00a0", " ")
		site.WriteString(s)
		if strings.HasPrefix(name, "/en/") && regexp.MustCompile(`\b85 ?%`).MatchString(s) {
			pages85++
		}
	}
	s := site.String()
	for _, c := range []string{"82%", "37%", "75", "90%", "300", "180", "3.5", "3,5", "7.8", "8.7", "170", "40%", "53%", "76%", "45%", "73%", "26.97%", "26,97%"} {
		if !strings.Contains(strings.ReplaceAll(s, " %", "%"), c) {
			t.Errorf("no page states %s", c)
		}
	}
	if pages85 != 1 {
		t.Errorf("85%% appears on %d English pages, want exactly 1", pages85)
	}
}
