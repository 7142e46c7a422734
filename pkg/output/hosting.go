package output

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// Hosting rules: the one table of response headers, and the redirects and
// 404 pages of a site, written for every host sitegen knows: _headers and
// _redirects (Netlify, Cloudflare Pages), _nginx.conf (nginx), and applied
// by the dev server (pkg/hosting) from the same values.

// Header is one response header.
type Header struct{ Name, Value string }

// HeaderRule sets headers on the paths its pattern matches: an exact path
// ("/sw.js") or a prefix ending in "/*" ("/_assets/*"; "/*" is every path).
// Every rule that matches a path applies; no two rules that can match the
// same path set the same header (TestHeaderRulesDisjoint).
type HeaderRule struct {
	Pattern string
	Headers []Header
}

// HeaderRules is the table for a site with this CSP (derived from its
// configuration; it allows no inline script: islands and the runtime are
// files): security headers everywhere, long caching for fingerprinted
// assets, revalidation for page data and the service worker.
func HeaderRules(csp CSP) []HeaderRule {
	return []HeaderRule{
		{"/*", []Header{
			{"X-Content-Type-Options", "nosniff"},
			{"Referrer-Policy", "strict-origin-when-cross-origin"},
			{"Permissions-Policy", "camera=(), microphone=(), geolocation=()"},
			{"Content-Security-Policy", csp.String()},
		}},
		{"/_assets/*", []Header{{"Cache-Control", "public, max-age=31536000, immutable"}}},
		{"/page-data/*", []Header{{"Cache-Control", "public, max-age=0, must-revalidate"}}},
		{"/slice-data/*", []Header{{"Cache-Control", "public, max-age=0, must-revalidate"}}},
		{"/sw.js", []Header{{"Cache-Control", "public, max-age=0, must-revalidate"}, {"Service-Worker-Allowed", "/"}}},
	}
}

// HtaccessName is Apache's per-folder configuration file.
const HtaccessName = sitepath.Htaccess

// sitepathForms is the folder of the form handlers' schemas.
const sitepathForms = sitepath.Forms

// NginxName is the nginx snippet in the output root.
const NginxName = sitepath.Nginx

// Matches reports whether the rule's pattern matches the URL path p.
func (r HeaderRule) Matches(p string) bool {
	if prefix, ok := strings.CutSuffix(r.Pattern, "*"); ok {
		return strings.HasPrefix(p, prefix)
	}
	return p == r.Pattern
}

// HeadersFor returns the headers every matching rule sets on path p, in
// table order.
func HeadersFor(rules []HeaderRule, p string) []Header {
	var out []Header
	for _, r := range rules {
		if r.Matches(p) {
			out = append(out, r.Headers...)
		}
	}
	return out
}

// Headers returns the _headers file.
func Headers(rules []HeaderRule) []byte {
	var b strings.Builder
	for _, r := range rules {
		b.WriteString(r.Pattern + "\n")
		for _, h := range r.Headers {
			fmt.Fprintf(&b, "  %s: %s\n", h.Name, h.Value)
		}
	}
	return []byte(b.String())
}

// NotFound is the 404 page of the paths under a prefix ("" for the rest).
type NotFound struct {
	Prefix string // "/en"
	Page   string // "/en/404.html"
	// Own are the URLs of the error pages under Prefix ("/en/404/",
	// "/en/500/"), where the build also writes them: every host that runs
	// rules answers them 404 with Page, as it answers a miss, so an error
	// page never answers 200.
	Own []string
}

// RulePathError is a redirect or 404 path no hosting rule can carry safely.
type RulePathError struct {
	Path, Reason string
	Redirect     *route.Redirect // the redirect it belongs to, if any
}

func (e *RulePathError) Error() string {
	return fmt.Sprintf("path %q cannot be written as a hosting rule: %s", e.Path, e.Reason)
}

// CheckRulePath accepts a clean absolute URL path made only of letters,
// digits (any script), "-", ".", "_", "~" and "/": nothing that a host's
// rule syntax gives a meaning (whitespace, quotes, ";", "{}", "#", "$", "%",
// "*", ":", "?") and no "." or ".." segment or "//".
func CheckRulePath(p string) error {
	bad := func(reason string) error { return &RulePathError{Path: p, Reason: reason} }
	switch {
	case !strings.HasPrefix(p, "/"):
		return bad("it does not start with /")
	case !utf8.ValidString(p):
		return bad("it is not valid UTF-8")
	case len(p) > 1024:
		return bad("it is longer than 1024 bytes")
	}
	for _, c := range p {
		switch {
		case c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~/", c)):
		case c >= utf8.RuneSelf && (unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.Is(unicode.Mn, c)):
		default:
			return bad(fmt.Sprintf("it contains %q", c))
		}
	}
	if strings.Contains(p, "//") {
		return bad("it has an empty segment (//)")
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "." || seg == ".." {
			return bad("it has a . or .. segment")
		}
	}
	return nil
}

// redirectRules is the sorted, checked list of redirect rules: each From
// without and with its trailing slash.
func redirectRules(rs []route.Redirect) ([][2]string, error) {
	sorted := append([]route.Redirect{}, rs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].From < sorted[j].From })
	var out [][2]string
	seen := map[string]bool{}
	for i, r := range sorted {
		for _, p := range []string{r.From, r.To} {
			if err := CheckRulePath(p); err != nil {
				err.(*RulePathError).Redirect = &sorted[i]
				return nil, err
			}
		}
		from := strings.TrimSuffix(r.From, "/")
		if from == "" {
			return nil, &RulePathError{Path: r.From, Reason: "the site root cannot redirect", Redirect: &sorted[i]}
		}
		if Private(from) || Private(from+"/") {
			return nil, &RulePathError{Path: r.From, Reason: "it is a private file of the output", Redirect: &sorted[i]}
		}
		if seen[from] {
			return nil, &RulePathError{Path: r.From, Reason: "it is redirected twice", Redirect: &sorted[i]}
		}
		seen[from] = true
		out = append(out, [2]string{from, r.To}, [2]string{from + "/", r.To})
	}
	return out, nil
}

// notFoundRules orders the 404 pages longest prefix first and checks them.
func notFoundRules(nf []NotFound) ([]NotFound, error) {
	sorted := append([]NotFound{}, nf...)
	sort.Slice(sorted, func(i, j int) bool {
		if len(sorted[i].Prefix) != len(sorted[j].Prefix) {
			return len(sorted[i].Prefix) > len(sorted[j].Prefix)
		}
		return sorted[i].Prefix < sorted[j].Prefix
	})
	for _, n := range sorted {
		if n.Prefix != "" {
			if err := CheckRulePath(n.Prefix); err != nil {
				return nil, err
			}
		}
		if err := CheckRulePath(n.Page); err != nil {
			return nil, err
		}
		for _, u := range n.Own {
			if err := CheckRulePath(u); err != nil {
				return nil, err
			}
		}
	}
	return sorted, nil
}

// redirectsDialect is how a host reads _redirects.
type redirectsDialect struct {
	// hidePrivate is how a private path is hidden: "404!" answers the 404
	// page, forced (Netlify: a rule without "!" never applies to an
	// existing file); "200" rewrites it to a path that does not exist
	// (Cloudflare Pages accepts no 404 status and answers that 404).
	hidePrivate string
	// redirect is an alias's status: "301!" where an alias may be an
	// existing file (/en/index is /en/index.html, the home page itself).
	redirect string
	// notFoundRules adds each locale's 404 page for the unknown paths
	// under its prefix, the site's last (Cloudflare finds the nearest
	// 404.html by itself and would reject those lines).
	notFoundRules bool
}

// redirectsAndHeaders makes the _redirects and _headers of a host that
// reads them.
type redirectsAndHeaders struct{}

func (redirectsAndHeaders) Make(h *Host, in HostInput) (map[string][]byte, error) {
	red, err := Redirects(h, in.Redirects, in.NotFound)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{sitepath.Redirects: red, sitepath.Headers: Headers(in.Headers)}, nil
}

// Redirects returns the _redirects file of host h (which reads one): first
// the private files, hidden as the host's dialect says, then a 301 per
// alias (the hosts keep the query string), then the 404 pages where the
// host needs rules for them.
func Redirects(h *Host, rs []route.Redirect, nf []NotFound) ([]byte, error) {
	d := h.redirects
	if d == nil {
		return nil, fmt.Errorf("host %s reads no _redirects", h.Name)
	}
	rules, err := redirectRules(rs)
	if err != nil {
		return nil, err
	}
	pages, err := notFoundRules(nf)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, p := range append(privateRules(h), ownURLs(pages)...) {
		if d.hidePrivate == "200" {
			fmt.Fprintf(&b, "%s %s 200\n", p, missingPath)
		} else {
			fmt.Fprintf(&b, "%s %s %s\n", p, notFoundOf(pages, p), d.hidePrivate)
		}
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "%s %s %s\n", r[0], r[1], d.redirect)
	}
	if d.notFoundRules {
		for _, n := range pages {
			fmt.Fprintf(&b, "%s/* %s 404\n", n.Prefix, n.Page)
		}
	}
	return []byte(b.String()), nil
}

// ownURLs are the error pages' own URLs (NotFound.Own), sorted.
func ownURLs(pages []NotFound) []string {
	var out []string
	for _, n := range pages {
		out = append(out, n.Own...)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// missingPath is a path no output holds (sitepath reserves /_sitegen):
// Cloudflare answers a rewrite to it with its 404 page.
const missingPath = "/" + sitepath.Internal + "/not-published"

// notFoundOf is the 404 page of path p (pages sorted longest prefix first).
func notFoundOf(pages []NotFound, p string) string {
	for _, n := range pages {
		if n.Prefix == "" || p == n.Prefix || strings.HasPrefix(p, n.Prefix+"/") {
			return n.Page
		}
	}
	return "/404.html"
}

// Nginx returns the nginx snippet: include it inside a server block whose
// root is the output folder. It carries the same redirects (301, query kept),
// the 404 page of each locale and the headers of HeaderRules. nginx applies
// the add_header lines of one location only, so each location repeats every
// header that applies to its paths.
func Nginx(version string, headers []HeaderRule, rs []route.Redirect, nf []NotFound, serverErr []NotFound) ([]byte, error) {
	rules, pages, errPages, err := checkedRules("nginx", "\"\\$\n\r{}", headers, rs, nf, serverErr)
	if err != nil {
		return nil, err
	}
	notFoundOf := func(p string) string { return pageFor(pages, p) }
	serverErrorOf := func(p string) string { return pageFor(errPages, p) }
	headersOf := func(match, p string) []Header { return nginxHeaders(headers, match, p) }
	writeHeaders := writeNginxHeaders
	serverHeaders := headersOf("", "/")

	var b strings.Builder
	fmt.Fprintf(&b, "# nginx rules written by sitegen %s: include this file inside the server block\n", version)
	b.WriteString("# whose root is this folder, e.g.\n")
	b.WriteString("#   server { listen 80; root /srv/site/public; include /srv/site/public/" + NginxName + "; }\n")
	b.WriteString("# nginx applies the add_header lines of a location instead of the ones outside it,\n")
	b.WriteString("# so a location with headers of its own repeats the others.\n")
	b.WriteString("absolute_redirect off;\nindex index.html;\n")
	if p := notFoundOf("/"); p != "" {
		fmt.Fprintf(&b, "error_page 404 %s;\n", p)
	}
	if p := serverErrorOf("/"); p != "" {
		fmt.Fprintf(&b, "error_page 500 502 503 504 %s;\n", p)
	}
	writeHeaders(&b, "", serverHeaders)
	exact := map[string]bool{}
	var dup error
	location := func(match, p string, body ...string) {
		if match == "=" {
			if exact[p] && dup == nil {
				dup = &RulePathError{Path: p, Reason: "it has two rules (a redirect from a generated file or twice the same redirect)"}
			}
			exact[p] = true
		}
		hs := headersOf(match, p)
		if sameHeaders(hs, serverHeaders) {
			if len(body) == 0 {
				return // it would change nothing
			}
			hs = nil
		}
		fmt.Fprintf(&b, "location %s %s {\n", match, p)
		writeHeaders(&b, "    ", hs)
		for _, line := range body {
			b.WriteString("    " + line + "\n")
		}
		b.WriteString("}\n")
	}
	for _, u := range Unpublished() {
		location("=", u, "return 404;")
	}
	for _, u := range ownURLs(pages) { // with the 404 page of their locale
		body := append(notFoundLine(notFoundOf(u), notFoundOf("/")), "return 404;")
		location("=", u, body...)
		location("=", u+"index.html", body...)
	}
	for _, u := range privatePrefixes {
		location("^~", u, "return 404;")
	}
	prefixes := map[string]bool{"/": true}
	for _, r := range headers {
		if prefix, ok := strings.CutSuffix(r.Pattern, "*"); ok && !prefixes[prefix] {
			prefixes[prefix] = true
			location("^~", prefix, notFoundLine(notFoundOf(prefix), notFoundOf("/"))...)
		}
	}
	for _, n := range pages {
		if n.Prefix != "" && !prefixes[n.Prefix+"/"] {
			prefixes[n.Prefix+"/"] = true
			body := notFoundLine(n.Page, notFoundOf("/"))
			if e := serverErrorOf(n.Prefix + "/"); e != "" && e != serverErrorOf("/") {
				body = append(body, "error_page 500 502 503 504 "+e+";")
			}
			location("^~", n.Prefix+"/", body...)
		}
	}
	for _, r := range headers {
		if !strings.HasSuffix(r.Pattern, "*") {
			location("=", r.Pattern, notFoundLine(notFoundOf(r.Pattern), notFoundOf("/"))...)
		}
	}
	for _, r := range rules {
		location("=", r[0], "return 301 "+r[1]+"$is_args$args;")
	}
	if dup != nil {
		return nil, dup
	}
	return []byte(b.String()), nil
}

// pageFor is the error page of path p among pages (sorted longest prefix
// first), or "".
func pageFor(pages []NotFound, p string) string {
	for _, n := range pages {
		if n.Prefix == "" || p == n.Prefix || strings.HasPrefix(p, n.Prefix+"/") {
			return n.Page
		}
	}
	return ""
}

// nginxHeaders is what HeaderRules set on every path an nginx location
// matches: for an exact location its path; for a prefix location ("/en/")
// the rules whose prefix covers it. A path no rule gives a Cache-Control
// (the pages) gets Revalidate: without it nginx sends none, and browsers
// cache HTML heuristically.
func nginxHeaders(headers []HeaderRule, match, p string) []Header {
	var hs []Header
	for _, r := range headers {
		prefix, splat := strings.CutSuffix(r.Pattern, "*")
		if match == "=" && r.Matches(p) || match != "=" && splat && strings.HasPrefix(p, prefix) {
			hs = append(hs, r.Headers...)
		}
	}
	return withCacheControl(hs)
}

// writeNginxHeaders writes add_header lines: security headers on every
// response, cache rules only on successful ones (a 404 must not be cached
// for a year).
func writeNginxHeaders(b *strings.Builder, indent string, hs []Header) {
	for _, h := range hs {
		always := " always"
		if strings.EqualFold(h.Name, "Cache-Control") {
			always = ""
		}
		fmt.Fprintf(b, "%sadd_header %s \"%s\"%s;\n", indent, h.Name, h.Value, always)
	}
}

// checkedRules checks and orders what a server's rule file is made of: the
// redirects, the 404 and 500 pages, and the header table, whose patterns
// must be clean paths and whose values hold none of the characters the
// server's syntax cannot quote (bad).
func checkedRules(server, bad string, headers []HeaderRule, rs []route.Redirect, nf, serverErr []NotFound) (rules [][2]string, pages, errPages []NotFound, err error) {
	if rules, err = redirectRules(rs); err != nil {
		return nil, nil, nil, err
	}
	if pages, err = notFoundRules(nf); err != nil {
		return nil, nil, nil, err
	}
	if errPages, err = notFoundRules(serverErr); err != nil {
		return nil, nil, nil, err
	}
	for _, r := range headers {
		if err := CheckRulePath(strings.TrimSuffix(r.Pattern, "*")); err != nil {
			return nil, nil, nil, fmt.Errorf("header rule %s: %w", r.Pattern, err)
		}
		for _, h := range r.Headers {
			if strings.ContainsAny(h.Name+h.Value, bad) {
				return nil, nil, nil, fmt.Errorf("header %s: its value cannot be quoted for %s", h.Name, server)
			}
		}
	}
	return rules, pages, errPages, nil
}

// Revalidate is the Cache-Control of pages: nginx and Apache send none by
// themselves; Netlify and Cloudflare Pages send this one.
var Revalidate = Header{"Cache-Control", "public, max-age=0, must-revalidate"}

// withCacheControl adds Revalidate to headers that set no Cache-Control.
func withCacheControl(hs []Header) []Header {
	for _, h := range hs {
		if strings.EqualFold(h.Name, "Cache-Control") {
			return hs
		}
	}
	return append(hs, Revalidate)
}

func sameHeaders(a, b []Header) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func notFoundLine(page, inherited string) []string {
	if page == "" || page == inherited {
		return nil
	}
	return []string{"error_page 404 " + page + ";"}
}
