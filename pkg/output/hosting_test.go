package output

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sitegen/pkg/route"
)

// rule is one line of _redirects as a host reads it.
type rule struct{ From, To, Status string }

// parseRedirects reads _redirects the way Netlify and Cloudflare Pages do:
// one rule per line, fields separated by white space, # starts a comment.
func parseRedirects(t testing.TB, b []byte) []rule {
	var out []rule
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("_redirects line %d has %d fields: %q", i+1, len(f), line)
		}
		out = append(out, rule{f[0], f[1], f[2]})
	}
	return out
}

// directive is one nginx directive: its words and, for a block, what is in it.
type directive struct {
	Args  []string
	Block []directive
}

// parseNginx reads nginx configuration syntax: words separated by white
// space, "..." and '...' quoted strings with backslash escapes, # comments,
// directives ended by ";" or a {} block.
func parseNginx(src string) ([]directive, error) {
	var toks []string
	var quoted []bool
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == ';' || c == '{' || c == '}':
			toks, quoted = append(toks, string(c)), append(quoted, false)
			i++
		case c == '"' || c == '\'':
			var w strings.Builder
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' && j+1 < len(src) {
					j++
				}
				w.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, fmt.Errorf("unterminated string")
			}
			toks, quoted = append(toks, w.String()), append(quoted, true)
			i = j + 1
		default:
			j := i
			for j < len(src) && !strings.ContainsRune(" \t\n\r;{}\"'#", rune(src[j])) {
				j++
			}
			toks, quoted = append(toks, src[i:j]), append(quoted, false)
			i = j
		}
	}
	pos := 0
	var block func(depth int) ([]directive, error)
	block = func(depth int) ([]directive, error) {
		var out []directive
		var args []string
		for pos < len(toks) {
			tok, q := toks[pos], quoted[pos]
			pos++
			switch {
			case tok == ";" && !q:
				if len(args) == 0 {
					return nil, fmt.Errorf("empty directive")
				}
				out = append(out, directive{Args: args})
				args = nil
			case tok == "{" && !q:
				inner, err := block(depth + 1)
				if err != nil {
					return nil, err
				}
				out = append(out, directive{Args: args, Block: inner})
				args = nil
			case tok == "}" && !q:
				if depth == 0 || len(args) > 0 {
					return nil, fmt.Errorf("unexpected }")
				}
				return out, nil
			default:
				args = append(args, tok)
			}
		}
		if depth > 0 || len(args) > 0 {
			return nil, fmt.Errorf("unexpected end")
		}
		return out, nil
	}
	return block(0)
}

// nginxRules reads back what the snippet does: its redirects (exact
// location -> target), its 404 pages per location and the headers per
// location, refusing any directive sitegen does not write.
type nginxRead struct {
	Redirects map[string]string
	NotFound  map[string]string   // location ("" = server) -> page
	Headers   map[string][]Header // location ("" = server) -> headers
}

func readNginx(src string) (*nginxRead, error) {
	ds, err := parseNginx(src)
	if err != nil {
		return nil, err
	}
	r := &nginxRead{Redirects: map[string]string{}, NotFound: map[string]string{}, Headers: map[string][]Header{}}
	apply := func(loc string, d directive) error {
		switch {
		case d.Args[0] == "add_header" && (len(d.Args) == 4 && d.Args[3] == "always" || len(d.Args) == 3 && d.Args[1] == "Cache-Control"):
			r.Headers[loc] = append(r.Headers[loc], Header{d.Args[1], d.Args[2]})
		case d.Args[0] == "error_page" && len(d.Args) == 3 && d.Args[1] == "404":
			r.NotFound[loc] = d.Args[2]
		case d.Args[0] == "error_page" && strings.Join(d.Args[1:len(d.Args)-1], " ") == "500 502 503 504":
		default:
			return fmt.Errorf("unexpected directive %q in location %q", d.Args, loc)
		}
		return nil
	}
	for _, d := range ds {
		switch {
		case d.Block == nil && (strings.Join(d.Args, " ") == "absolute_redirect off" || strings.Join(d.Args, " ") == "index index.html"):
		case d.Args[0] == "location" && d.Block != nil && len(d.Args) == 3 && (d.Args[1] == "=" || d.Args[1] == "^~"):
			loc := d.Args[1] + " " + d.Args[2]
			if _, dup := r.Headers[loc]; dup {
				return nil, fmt.Errorf("duplicate location %s", loc)
			}
			r.Headers[loc] = nil
			for _, in := range d.Block {
				if in.Block != nil {
					return nil, fmt.Errorf("nested block in %s", loc)
				}
				if in.Args[0] == "return" {
					switch {
					case len(in.Args) == 2 && in.Args[1] == "404":
					case len(in.Args) == 3 && in.Args[1] == "301" && d.Args[1] == "=" && strings.HasSuffix(in.Args[2], "$is_args$args"):
						r.Redirects[d.Args[2]] = strings.TrimSuffix(in.Args[2], "$is_args$args")
					default:
						return nil, fmt.Errorf("unexpected return %q", in.Args)
					}
					continue
				}
				if err := apply(loc, in); err != nil {
					return nil, err
				}
			}
		case d.Block == nil:
			if err := apply("", d); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unexpected block %q", d.Args)
		}
	}
	return r, nil
}

var locales404 = []NotFound{{Prefix: "/pl", Page: "/pl/404.html"}, {Page: "/404.html"}, {Prefix: "/en", Page: "/en/404.html"}}

// TestRedirectsLocale404: unknown paths under each locale get that locale's
// 404 page; the alias rules come first, the catch-all last.
func TestRedirectsLocale404(t *testing.T) {
	rs := []route.Redirect{{From: "/old/", To: "/pl/new/"}}
	for _, tc := range []struct {
		host *Host
		want string
	}{
		// Netlify's aliases are forced: a file at the path (/en/index is
		// /en/index.html) would shadow a rule without "!".
		{HostNetlify, "/.sitegen-manifest.json /404.html 404!\n/_forms/* /404.html 404!\n" +
			"/old /pl/new/ 301!\n/old/ /pl/new/ 301!\n/en/* /en/404.html 404\n/pl/* /pl/404.html 404\n/* /404.html 404\n"},
		// Cloudflare Pages rejects a 404 status and finds the nearest
		// 404.html itself; private files are rewritten to a missing path.
		{HostCloudflare, "/.sitegen-manifest.json /_sitegen/not-published 200\n/_forms/* /_sitegen/not-published 200\n" +
			"/_headers /_sitegen/not-published 200\n/_redirects /_sitegen/not-published 200\n" +
			"/old /pl/new/ 301\n/old/ /pl/new/ 301\n"},
	} {
		b, err := Redirects(tc.host, rs, locales404)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("%s: _redirects =\n%s\nwant\n%s", tc.host, b, tc.want)
		}
	}
}

// TestRedirectsRejectNewline and friends: a path no rule syntax can carry
// is an error naming it, never a rule.
func TestRedirectsRejectNewline(t *testing.T) {
	rejects(t, "/x\n/* https://evil.example/ 200", `path "/x\n/* https://evil.example/ 200" cannot be written as a hosting rule: it contains '\n'`)
}

func TestRedirectsRejectSpace(t *testing.T) {
	rejects(t, "/o nas", `path "/o nas" cannot be written as a hosting rule: it contains ' '`)
}

func TestRedirectsRejectNginxSyntax(t *testing.T) {
	for _, p := range []string{"/a;return", "/a{", "/a}", `/a"b`, "/a'b", "/a$host", "/a#b", `/a\b`, "/a%0a", "/a*", "/a?b=1", "/a:b"} {
		err := checkBoth([]route.Redirect{{From: p, To: "/pl/"}})
		var pe *RulePathError
		if !errors.As(err, &pe) || pe.Path != p {
			t.Errorf("alias %q: err = %v", p, err)
		}
	}
	for _, p := range []string{"", "x", "/a/../b", "/a//b", "/./a", "/"} {
		if err := checkBoth([]route.Redirect{{From: p, To: "/pl/"}}); err == nil {
			t.Errorf("alias %q: accepted", p)
		}
	}
	if err := checkBoth([]route.Redirect{{From: "/a", To: "/pl/"}, {From: "/a/", To: "/en/"}}); err == nil {
		t.Errorf("the same alias twice: accepted")
	}
	if err := checkBoth([]route.Redirect{{From: "/sw.js", To: "/pl/"}}); err == nil {
		t.Errorf("an alias onto a generated file's rule: accepted")
	}
	if err := checkBoth([]route.Redirect{{From: "/zażółć/ünï", To: "/pl/żółw/"}}); err != nil {
		t.Errorf("letters of any script: %v", err)
	}
}

func rejects(t *testing.T, alias, want string) {
	t.Helper()
	for name, write := range writers {
		_, err := write([]route.Redirect{{From: alias, To: "/pl/"}})
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %s", name, err, want)
		}
	}
}

var writers = map[string]func([]route.Redirect) ([]byte, error){
	"_redirects": func(rs []route.Redirect) ([]byte, error) { return Redirects(HostNetlify, rs, locales404) },
	"nginx":      func(rs []route.Redirect) ([]byte, error) { return Nginx("test", testRules, rs, locales404, nil) },
	"htaccess":   func(rs []route.Redirect) ([]byte, error) { return Htaccess("test", testRules, rs, locales404, nil) },
}

// checkBoth returns the writers' error; they must agree on what they accept.
func checkBoth(rs []route.Redirect) error {
	_, e1 := Redirects(HostNetlify, rs, locales404)
	_, e2 := Nginx("test", testRules, rs, locales404, nil)
	if (e1 == nil) != (e2 == nil) {
		return fmt.Errorf("writers disagree: _redirects %v, nginx %v", e1, e2)
	}
	return e1
}

// TestNginxReadsBack: the snippet parses, holds only what sitegen writes,
// and carries the redirects, 404 pages and headers of the rule table.
func TestNginxReadsBack(t *testing.T) {
	rs := []route.Redirect{{From: "/old/", To: "/pl/new/"}, {From: "/en/index", To: "/en/"}}
	b, err := Nginx("test", testRules, rs, locales404, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readNginx(string(b))
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	wantRedirects := map[string]string{"/old": "/pl/new/", "/old/": "/pl/new/", "/en/index": "/en/", "/en/index/": "/en/"}
	if !reflect.DeepEqual(got.Redirects, wantRedirects) {
		t.Errorf("redirects = %v", got.Redirects)
	}
	wantNF := map[string]string{"": "/404.html", "^~ /en/": "/en/404.html", "^~ /pl/": "/pl/404.html"}
	if !reflect.DeepEqual(got.NotFound, wantNF) {
		t.Errorf("404 pages = %v", got.NotFound)
	}
	// Pages get Revalidate: nginx would send no Cache-Control.
	if !reflect.DeepEqual(got.Headers[""], append(HeadersFor(testRules, "/"), Revalidate)) {
		t.Errorf("server headers = %v", got.Headers[""])
	}
	if !reflect.DeepEqual(got.Headers["^~ /_assets/"], HeadersFor(testRules, "/_assets/x.js")) {
		t.Errorf("asset headers = %v", got.Headers["^~ /_assets/"])
	}
	for _, u := range Unpublished() {
		if _, ok := got.Headers["= "+u]; !ok {
			t.Errorf("no location hides %s", u)
		}
	}
}

// TestHeaderRulesDisjoint: hosts join the values of one header set by two
// matching rules, so no two overlapping rules may set the same header.
func TestHeaderRulesDisjoint(t *testing.T) {
	for i, a := range testRules {
		for _, b := range testRules[i+1:] {
			pa, sa := strings.CutSuffix(a.Pattern, "*")
			pb, sb := strings.CutSuffix(b.Pattern, "*")
			overlap := sa && strings.HasPrefix(pb, pa) || sb && strings.HasPrefix(pa, pb) || pa == pb
			if !overlap {
				continue
			}
			for _, ha := range a.Headers {
				for _, hb := range b.Headers {
					if strings.EqualFold(ha.Name, hb.Name) {
						t.Errorf("%s and %s both set %s", a.Pattern, b.Pattern, ha.Name)
					}
				}
			}
		}
	}
}

// FuzzRedirectWriters: whatever an alias holds, the two writers agree on
// accepting it, and what they write reads back as exactly the intended
// rules: no extra rule, no changed path.
func FuzzRedirectWriters(f *testing.F) {
	for _, seed := range [][2]string{
		{"/old", "/pl/new/"},
		{"/old/", "/en/"},
		{"/x\n/* https://evil.example/ 200", "/pl/"},
		{"/a b", "/pl/"},
		{"/a;} location / { return 301 https://evil.example", "/pl/"},
		{"/a", "/pl/ 200\n/b /c"},
		{"/zażółć", "/pl/"},
		{"/a/../b", "/pl/"},
		{"/a%0Ab", "/pl/"},
		{"/a\u2028b", "/pl/"},
		{"/a\u00a0b", "/pl/"},
		{"/a\"b", "/pl/"},
	} {
		f.Add(seed[0], seed[1])
	}
	// And every redirect of the fixture site's golden output (basic: host nginx).
	b, err := os.ReadFile("../../testdata/golden/basic/_nginx.conf")
	if err != nil {
		f.Fatal(err)
	}
	n, err := readNginx(string(b))
	if err != nil {
		f.Fatal(err)
	}
	for from, to := range n.Redirects {
		f.Add(from, to)
	}
	f.Fuzz(func(t *testing.T, from, to string) {
		rs := []route.Redirect{{From: from, To: to}, {From: "/fixed", To: "/pl/"}}
		red, e1 := Redirects(HostNetlify, rs, locales404)
		ngx, e2 := Nginx("test", testRules, rs, locales404, nil)
		if (e1 == nil) != (e2 == nil) {
			t.Fatalf("writers disagree on %q -> %q: _redirects %v, nginx %v", from, to, e1, e2)
		}
		if e1 != nil {
			return
		}
		f := strings.TrimSuffix(from, "/")
		want := map[string]string{f: to, f + "/": to, "/fixed": "/pl/", "/fixed/": "/pl/"}

		got := map[string]string{}
		var notFound []string
		for _, r := range parseRedirects(t, red) {
			switch r.Status {
			case "301!": // Netlify's: forced, since a file may stand at the path
				if _, dup := got[r.From]; dup {
					t.Fatalf("rule for %q twice", r.From)
				}
				got[r.From] = r.To
			case "404":
				notFound = append(notFound, r.From+" "+r.To)
			case "404!": // the private files
				if !Private(strings.TrimSuffix(r.From, "*")) {
					t.Fatalf("forced 404 on a public path: %v", r)
				}
			default:
				t.Fatalf("unexpected rule %v", r)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("_redirects reads back %v, want %v", got, want)
		}
		if strings.Join(notFound, ",") != "/en/* /en/404.html,/pl/* /pl/404.html,/* /404.html" {
			t.Fatalf("404 rules read back %v", notFound)
		}

		n, err := readNginx(string(ngx))
		if err != nil {
			t.Fatalf("nginx snippet: %v\n%s", err, ngx)
		}
		if !reflect.DeepEqual(n.Redirects, want) {
			t.Fatalf("nginx reads back %v, want %v", n.Redirects, want)
		}
	})
}

// testRules is the header table of a site with a third-party script host.
var testRules = HeaderRules(CSP{Script: []string{"https://tags.example.test"}, Connect: []string{"https://*.example.test"}})

// TestRuleFilesPerHost: each host gets exactly the files it reads, and only
// a host without rules gets meta-refresh pages.
func TestRuleFilesPerHost(t *testing.T) {
	in := HostInput{Version: "test", Headers: testRules, Redirects: []route.Redirect{{From: "/old/", To: "/pl/new/"}},
		NotFound: locales404, ServerError: []NotFound{{Page: "/500.html"}, {Prefix: "/en", Page: "/en/500.html"}}}
	want := map[*Host][]string{
		HostStatic:     nil,
		HostNetlify:    {"_headers", "_redirects"},
		HostCloudflare: {"_headers", "_redirects"},
		HostNginx:      {"_nginx.conf"},
		HostApache:     {".htaccess"},
	}
	for _, name := range HostNames() {
		h, err := ParseHost(name)
		if err != nil {
			t.Fatal(err)
		}
		files, err := h.RuleFiles(in)
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		var got []string
		for n := range files {
			got = append(got, n)
		}
		sort.Strings(got)
		if !reflect.DeepEqual(got, want[h]) {
			t.Errorf("%s writes %v, want %v", h, got, want[h])
		}
		if h.RedirectPages() != (h == HostStatic) {
			t.Errorf("%s: RedirectPages %v", h, h.RedirectPages())
		}
	}
	if h, err := ParseHost(""); err != nil || h != DefaultHost {
		t.Errorf("ParseHost(\"\") = %v, %v", h, err)
	}
	if got, want := strings.Join(Unpublished(), " "), "/_headers /_redirects /_nginx.conf /.htaccess /.sitegen-manifest.json"; got != want {
		t.Errorf("Unpublished() = %s, want %s", got, want)
	}
	if _, err := ParseHost("vercel"); err == nil || !strings.Contains(err.Error(), "one of static, netlify") {
		t.Errorf("ParseHost(vercel) = %v", err)
	}
	ht, _ := HostApache.RuleFiles(in)
	for _, line := range []string{
		"ErrorDocument 404 /404.html\n",
		"<If \"%{REQUEST_URI} =~ m#^/en(/|$)#\">\n    ErrorDocument 404 /en/404.html\n</If>\n",
		"<If \"%{REQUEST_URI} =~ m#^/en(/|$)#\">\n    ErrorDocument 500 /en/500.html\n</If>\n",
		"RewriteRule ^old/?$ /pl/new/ [R=301,L]\n",
		"RewriteRule ^(_headers|_redirects|_nginx\\.conf|\\.htaccess|\\.sitegen-manifest\\.json|_forms/.*)$ - [R=404,L]\n",
		"Header always set X-Content-Type-Options \"nosniff\"\n",
		"Header set Cache-Control \"public, max-age=0, must-revalidate\"\n",
	} {
		if !strings.Contains(string(ht[".htaccess"]), line) {
			t.Errorf(".htaccess lacks %q:\n%s", line, ht[".htaccess"])
		}
	}
	ngx, _ := HostNginx.RuleFiles(in)
	for _, line := range []string{"error_page 500 502 503 504 /500.html;\n", "error_page 500 502 503 504 /en/500.html;\n", "location ^~ /_forms/ {\n    return 404;\n}\n"} {
		if !strings.Contains(string(ngx["_nginx.conf"]), line) {
			t.Errorf("_nginx.conf lacks %q", line)
		}
	}
}
