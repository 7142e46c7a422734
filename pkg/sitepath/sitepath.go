// Package sitepath validates the site paths authors write (slugs, aliases,
// legacy paths) and owns the one list of output paths the build generates
// itself, so that content can never be published over them.
package sitepath

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// Files and folders the build writes at the output root. The output writer
// takes their names from here; Reserved checks content paths against them.
const (
	Sitemap   = "sitemap.xml"
	Robots    = "robots.txt"
	Headers   = "_headers"
	Redirects = "_redirects"
	PageData  = "page-data"
	SliceData = "slice-data"
	Worker    = "sw.js"
	Assets    = "_assets"                // fingerprinted CSS, JS and island bundles
	Nginx     = "_nginx.conf"            // the nginx snippet with the same rules as _redirects and _headers
	Manifest  = ".sitegen-manifest.json" // the mark of a tree sitegen wrote
	Htaccess  = ".htaccess"              // Apache's rules (host: apache)
	Forms     = "_forms"                 // the form handlers' schemas
	Internal  = "_sitegen"               // never written: the dev server's own paths, and a path hosts answer 404
)

// SitemapPart is the name of the n-th part (from 1) of a sitemap too large
// for one file; sitemap.xml is then the index that lists the parts.
func SitemapPart(n int) string { return "sitemap-" + strconv.Itoa(n) + ".xml" }

// IsSitemapPart reports whether name is a SitemapPart name.
func IsSitemapPart(name string) bool {
	n, ok := strings.CutPrefix(name, "sitemap-")
	if !ok {
		return false
	}
	n, ok = strings.CutSuffix(n, ".xml")
	if !ok || n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// ErrorPages are the pages written as <name>.html at the root and under each
// locale prefix.
var ErrorPages = []string{"404", "500"}

// root lists every generated name at the output root; a content path whose
// first segment is one of them collides with generated output. A new file
// the build writes at the root gets a constant above and an entry here.
var root = map[string]bool{
	Sitemap: true, Robots: true, Headers: true, Redirects: true,
	PageData: true, SliceData: true, Worker: true, Assets: true, Nginx: true, Manifest: true, Htaccess: true, Forms: true, Internal: true,
}

func init() {
	for _, p := range ErrorPages {
		root[p+".html"] = true
	}
}

// RootNames returns the generated root names, for messages and tests.
func RootNames() []string {
	out := make([]string, 0, len(root))
	for n := range root {
		out = append(out, n)
	}
	return out
}

// Check reports whether p is a clean absolute URL path: it starts with "/",
// has no empty, "." or ".." segments, and holds no whitespace, control
// characters, backslashes, "?" or "#", also after percent-decoding. A
// trailing slash is allowed.
func Check(p string) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("must start with /")
	}
	if err := checkChars(p); err != nil {
		return err
	}
	if strings.Contains(p, "%") {
		dec, err := url.PathUnescape(p)
		if err != nil {
			return fmt.Errorf("has an invalid percent-escape")
		}
		if err := checkChars(dec); err != nil {
			return fmt.Errorf("%v once percent-decoded", err)
		}
		if err := checkSegments(dec); err != nil {
			return fmt.Errorf("%v once percent-decoded", err)
		}
	}
	return checkSegments(p)
}

func checkChars(p string) error {
	for _, r := range p {
		switch {
		case r == unicode.ReplacementChar:
			return fmt.Errorf("is not valid UTF-8")
		case r == '\\':
			return fmt.Errorf("holds a backslash")
		case r == '?' || r == '#':
			return fmt.Errorf("holds %q (a query or fragment is not part of a path)", r)
		case unicode.IsControl(r) || unicode.In(r, unicode.Cf):
			return fmt.Errorf("holds a control character")
		case unicode.IsSpace(r):
			return fmt.Errorf("holds whitespace")
		}
	}
	return nil
}

// Bounds of a site path, which becomes folders of the output: a segment
// is a file name (most file systems take 255 bytes), and the whole path
// must leave room for the output folder within PATH_MAX (4096).
const (
	MaxSegment = 255
	MaxPath    = 1024
)

func checkSegments(p string) error {
	if len(p) > MaxPath {
		return fmt.Errorf("is %d bytes long, more than %d", len(p), MaxPath)
	}
	body := strings.TrimSuffix(strings.TrimPrefix(p, "/"), "/")
	if body == "" {
		return nil
	}
	for _, seg := range strings.Split(body, "/") {
		switch {
		case seg == "":
			return fmt.Errorf("has an empty segment (//)")
		case seg == "." || seg == "..":
			return fmt.Errorf("has a %q segment", seg)
		case len(seg) > MaxSegment:
			return fmt.Errorf("has a segment of %d bytes, more than the %d a file name may have", len(seg), MaxSegment)
		}
	}
	return nil
}

// Reserved reports the generated output path that the site path p (a clean
// absolute path) would be published over, or "" when there is none.
// prefixes are the locale prefixes ("/pl"): their error pages are generated
// too.
func Reserved(p string, prefixes []string) string {
	body := strings.Trim(p, "/")
	first, rest, _ := strings.Cut(body, "/")
	if root[first] || IsSitemapPart(first) {
		return "/" + first
	}
	for _, pre := range prefixes {
		if "/"+first != pre {
			continue
		}
		seg, _, _ := strings.Cut(rest, "/")
		for _, e := range ErrorPages {
			if seg == e+".html" {
				return pre + "/" + seg
			}
		}
	}
	return ""
}

// URL returns the site path p as it is written in a URL: every byte that
// is not an unreserved character, a sub-delimiter, ':', '@', '/' or an
// existing percent-escape is percent-encoded (RFC 3986), so a slug in any
// script ("/ja/ブログ/") becomes "/ja/%E3%83%96%E3%83%AD%E3%82%B0/". A
// path that needs nothing encoded is returned as it is. Every URL the
// build writes for a page (sitemap, hreflang, canonical, page data, host
// rules' targets, feeds) goes through it; file names on disk and the paths
// a host's rule matches after decoding stay in UTF-8.
func URL(p string) string {
	n := 0
	for i := 0; i < len(p); i++ {
		if !urlSafe(p[i]) {
			n++
		}
	}
	if n == 0 {
		return p
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(p)+2*n)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if urlSafe(c) {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}

// urlSafe reports whether c stands for itself in a URL path. '%' does:
// Check has made sure each one starts an escape.
func urlSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@/%", c) >= 0
}
