package sitepath

import (
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		p, err string
	}{
		{"/", ""},
		{"/kontakt", ""},
		{"/o-nas/kontakt/", ""},
		{"/caf%C3%A9", ""},
		{"/zażółć", ""},
		{"kontakt", "must start with /"},
		{"/x\n/* https://evil.example/ 200", "holds a control character"},
		{"/stara strona", "holds whitespace"},
		{"/a\u00a0b", "holds whitespace"},
		{"/a\u200bb", "holds a control character"},
		{"/a\\b", "holds a backslash"},
		{"/a/../b", `has a ".." segment`},
		{"/a/./b", `has a "." segment`},
		{"/a//b", "has an empty segment (//)"},
		{"/a?x=1", `holds '?' (a query or fragment is not part of a path)`},
		{"/a#top", `holds '#' (a query or fragment is not part of a path)`},
		{"/a%0Ab", "holds a control character once percent-decoded"},
		{"/a%20b", "holds whitespace once percent-decoded"},
		{"/a/%2e%2E/b", `has a ".." segment once percent-decoded`},
		{"/a%2Fb", ""},
		{"/a%5Cb", "holds a backslash once percent-decoded"},
		{"/a%zz", "has an invalid percent-escape"},
		{"/\xff", "is not valid UTF-8"},
	} {
		err := Check(tt.p)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("Check(%q) = %q, want %q", tt.p, got, tt.err)
		}
	}
}

func TestReserved(t *testing.T) {
	prefixes := []string{"/pl", "/en"}
	for p, want := range map[string]string{
		"/sitemap.xml/": "/sitemap.xml", "/robots.txt": "/robots.txt", "/404.html/": "/404.html", "/500.html": "/500.html",
		"/_headers/": "/_headers", "/_redirects": "/_redirects", "/page-data/x/": "/page-data", "/slice-data/": "/slice-data",
		"/sw.js/": "/sw.js", "/_assets/main.css": "/_assets", "/pl/404.html/": "/pl/404.html", "/en/500.html": "/en/500.html",
		"/pl/o-nas/": "", "/pl/404/": "", "/de/404.html/": "", "/sitemap/": "", "/": "",
		"/sitemap-1.xml": "/sitemap-1.xml", "/sitemap-12.xml/": "/sitemap-12.xml", "/sitemap-.xml": "", "/sitemap-1a.xml": "", "/sitemap-1.xml.gz": "",
	} {
		if got := Reserved(p, prefixes); got != want {
			t.Errorf("Reserved(%q) = %q, want %q", p, got, want)
		}
	}
}

var redirectLine = regexp.MustCompile(`^(\S+) (\S+) 301$`)

// FuzzCheck: a path Check accepts is a clean URL path that a line-based
// rule file (_redirects, an nginx location) reads back as exactly that one
// path, before and after percent-decoding; Reserved never panics.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"/", "/kontakt", "/o-nas/kontakt/", "/a%2e%2e", "/x\n/*", "/a b", "/a\\b", "/a/../b", "/%", "/a%0a"} {
		f.Add(s)
	}
	// The aliases and legacy paths written in testdata.
	aliasRE := regexp.MustCompile(`(?m)^(?:aliases: \[(.*)\]|  (/\S*): \S+)$`)
	filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		for _, m := range aliasRE.FindAllStringSubmatch(string(b), -1) {
			for _, a := range strings.Split(m[1]+","+m[2], ",") {
				if a = strings.TrimSpace(a); a != "" {
					f.Add(a)
				}
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, p string) {
		Reserved(p, []string{"/pl", "/en"})
		if Check(p) != nil {
			return
		}
		for _, form := range []string{p, mustUnescape(t, p)} {
			for _, r := range form {
				if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\\' || r == '?' || r == '#' || r == unicode.ReplacementChar {
					t.Fatalf("accepted %q holding %q", p, r)
				}
			}
			if c := path.Clean(form); c != strings.TrimSuffix(form, "/") && form != "/" {
				t.Fatalf("accepted %q, which cleans to %q", form, c)
			}
		}
		line := p + " /pl/ 301"
		m := redirectLine.FindStringSubmatch(line)
		if m == nil || m[1] != p || len(strings.Fields(line)) != 3 || strings.Count(line, "\n") != 0 {
			t.Fatalf("rule %q does not read back as one rule for %q", line, p)
		}
	})
}

func mustUnescape(t *testing.T, p string) string {
	s, err := url.PathUnescape(p)
	if err != nil {
		t.Fatalf("accepted %q with a bad escape", p)
	}
	return s
}

func TestURL(t *testing.T) {
	for p, want := range map[string]string{
		"/":                "/",
		"/en/blog/":        "/en/blog/",
		"/ja/ブログ/":         "/ja/%E3%83%96%E3%83%AD%E3%82%B0/",
		"/pl/zażółć/":      "/pl/za%C5%BC%C3%B3%C5%82%C4%87/",
		"/caf%C3%A9":       "/caf%C3%A9",
		"/a+b/c=d;e":       "/a+b/c=d;e",
		"/de/über-uns/":    "/de/%C3%BCber-uns/",
		"/x/\"<>`{}|^[]\\": "/x/%22%3C%3E%60%7B%7D%7C%5E%5B%5D%5C",
	} {
		if got := URL(p); got != want {
			t.Errorf("URL(%q) = %q, want %q", p, got, want)
		}
		if back, err := url.PathUnescape(URL(p)); err != nil || back != mustUnescape(t, p) {
			t.Errorf("URL(%q) decodes to %q, %v", p, back, err)
		}
	}
}
