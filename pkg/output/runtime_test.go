package output

import (
	"regexp"
	"strings"
	"testing"

	"sitegen/pkg/config"
)

// TestAnalyticsSources: the CSP allows exactly the hosts the configured
// analytics scripts need, and none without a script.
func TestAnalyticsSources(t *testing.T) {
	for _, c := range []struct {
		name string
		a    config.Analytics
		want []string
	}{
		{"none", config.Analytics{}, nil},
		{"tag manager", config.Analytics{Scripts: []string{"https://www.googletagmanager.com/gtm.js?id=GTM-ABC1234"}, Params: map[string]string{"gtm": "GTM-ABC1234"},
			DataOrigins: []string{"https://*.google-analytics.com", "https://*.analytics.google.com"}},
			[]string{"https://www.googletagmanager.com", "https://*.google-analytics.com", "https://*.analytics.google.com"}},
		{"two scripts, one origin", config.Analytics{Scripts: []string{"https://www.googletagmanager.com/gtm.js?id=GTM-ABC1234", "https://www.googletagmanager.com/gtag/js?id=G-ABC1234"},
			DataOrigins: []string{"https://*.google-analytics.com"}},
			[]string{"https://www.googletagmanager.com", "https://*.google-analytics.com"}},
		{"another vendor", config.Analytics{Scripts: []string{"https://counter.example.com/count.js", "https://cdn.example.net/extra.js"}},
			[]string{"https://counter.example.com", "https://cdn.example.net"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			csp := AnalyticsSources(c.a).String()
			hosts := map[string]bool{}
			for _, dir := range strings.Split(csp, ";") {
				f := strings.Fields(dir)
				for _, src := range f[1:] {
					if strings.HasPrefix(src, "https://") {
						hosts[src] = true
					}
				}
				if f[0] == "script-src" && (f[1] != "'self'" || strings.Contains(dir, "unsafe") || len(f) > 2 && !c.a.Enabled()) {
					t.Errorf("script-src %q", dir)
				}
			}
			for _, h := range c.want {
				if !hosts[h] {
					t.Errorf("CSP %q lacks %s", csp, h)
				}
				delete(hosts, h)
			}
			if len(hosts) > 0 {
				t.Errorf("CSP %q allows hosts nothing needs: %v", csp, hosts)
			}
			if !strings.Contains(string(Headers(HeaderRules(AnalyticsSources(c.a)))), "Content-Security-Policy: "+csp+"\n") {
				t.Error("_headers does not carry the CSP")
			}
		})
	}
}

func TestSlices(t *testing.T) {
	page := []byte(`<!doctype html><html><head><title>x</title></head><body class="a"><a class="skip-link" href="#main">Skip</a>
<header>H</header>
<main id="main">M</main>
<footer>F</footer><div id="sg-announcer"></div><script type="module" src="/r.js"></script></body></html>`)
	parts, ok := Slices(page)
	if !ok {
		t.Fatal("no slices")
	}
	if parts["header"] != "<a class=\"skip-link\" href=\"#main\">Skip</a>\n<header>H</header>" {
		t.Errorf("header slice %q", parts["header"])
	}
	if parts["footer"] != `<footer>F</footer><div id="sg-announcer"></div>` {
		t.Errorf("footer slice %q", parts["footer"])
	}
	if _, ok := Slices([]byte(`<html><body>no main</body></html>`)); ok {
		t.Error("a page without <main> was cut")
	}
}

func TestHeadAndIslandNames(t *testing.T) {
	h := ParseHead([]byte(`<head><title>A &amp; B | Site</title><meta name="description" content="d &#34;q&#34;"><link rel="canonical" href="https://x.test/a/"><meta name="robots" content="noindex, follow"></head><body><title>no</title>`))
	if h != (Head{Title: "A & B | Site", Description: `d "q"`, Canonical: "https://x.test/a/", Robots: "noindex, follow"}) {
		t.Errorf("head %+v", h)
	}
	is := []RSCIsland{{Component: "Tabs", Directive: "media"}, {Component: "Menu", Directive: "load"}, {Component: "Tabs", Directive: "load"}}
	if got := strings.Join(IslandNames(is), ","); got != "Tabs,Menu" {
		t.Errorf("IslandNames %s", got)
	}
}

// headREs are the regular expressions ParseHead's plain searches stand for.
var headREs = []struct {
	re          *regexp.Regexp
	open, close string
	stop        byte
}{
	{regexp.MustCompile(`<title>([^<]*)</title>`), "<title>", "</title>", '<'},
	{regexp.MustCompile(`<meta name="description" content="([^"]*)">`), `<meta name="description" content="`, `">`, '"'},
	{regexp.MustCompile(`<link rel="canonical" href="([^"]*)">`), `<link rel="canonical" href="`, `">`, '"'},
}

// FuzzBetween: between finds what the regular expression finds, also in
// heads where the first opening is not a match (<title><b>x</b></title>,
// an attribute value that runs into another attribute).
func FuzzBetween(f *testing.F) {
	for _, s := range []string{
		`<title>A</title>`, `<title><b>x</b></title><title>y</title>`, `<title>a<title>b</title>`,
		`<meta name="description" content="a" x="b"><meta name="description" content="c">`,
		`<link rel="canonical" href="/a/"`, `<title>`, ``, "<title>\n</title>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, h := range headREs {
			got, ok := between([]byte(s), h.open, h.stop, h.close)
			m := h.re.FindStringSubmatch(s)
			if ok != (m != nil) || ok && string(got) != m[1] {
				t.Fatalf("between(%q, %q) = %q, %v; the expression finds %q", s, h.open, got, ok, m)
			}
		}
	})
}
