package output

import (
	"fmt"
	"regexp"
	"strings"

	"sitegen/pkg/route"
)

// Htaccess returns Apache's rules as a .htaccess for the output root: it
// works on shared hosting, without access to the server's configuration,
// where the folder allows overrides (AllowOverride All, or at least
// FileInfo Indexes Options) and mod_rewrite, mod_headers and mod_dir are on,
// as they are on nearly every Apache host. Its Options line names the one
// option it needs, without + or -: that form turns off every other option
// (Indexes, MultiViews) and is allowed under AllowOverride Options, which
// refuses "-MultiViews" (the host would answer 500 on every URL). It carries the same rules as
// _nginx.conf: a 301 per alias (mod_rewrite keeps the query string), the
// 404 and 500 pages of each locale (ErrorDocument inside <If>), the
// headers of HeaderRules (security headers on every response, cache rules
// on successful ones, Revalidate on pages), 404 for the private files, and
// one redirect to the folder's slash (mod_dir).
func Htaccess(version string, headers []HeaderRule, rs []route.Redirect, nf []NotFound, serverErr []NotFound) ([]byte, error) {
	rules, pages, errPages, err := checkedRules("Apache", "\"\\\n\r%", headers, rs, nf, serverErr)
	if err != nil {
		return nil, err
	}

	var b strings.Builder
	fmt.Fprintf(&b, "# Apache rules written by sitegen %s (host: apache). Put the output folder's\n", version)
	b.WriteString("# contents in the document root with this file; it needs AllowOverride All (or\n")
	b.WriteString("# FileInfo Indexes Options) and mod_rewrite, mod_headers and mod_dir.\n")
	b.WriteString("# Only FollowSymLinks (which mod_rewrite needs): no listings, no MultiViews.\n")
	b.WriteString("Options FollowSymLinks\nDirectoryIndex index.html\nDirectorySlash On\n")

	// Error pages: the site's by default, each locale's under its prefix.
	// The longest prefix is last, so it wins where prefixes nest.
	for _, kind := range []struct {
		code  string
		pages []NotFound
	}{{"404", pages}, {"500", errPages}} {
		for i := len(kind.pages) - 1; i >= 0; i-- {
			n := kind.pages[i]
			if n.Prefix == "" {
				fmt.Fprintf(&b, "ErrorDocument %s %s\n", kind.code, n.Page)
				continue
			}
			fmt.Fprintf(&b, "<If \"%%{REQUEST_URI} =~ m#^%s(/|$)#\">\n    ErrorDocument %s %s\n</If>\n",
				regexp.QuoteMeta(n.Prefix), kind.code, n.Page)
		}
	}

	// Headers: "always" puts the security headers on errors and redirects
	// too; cache rules go on successful answers only (a 404 must not be
	// cached for a year).
	writeHeaders := func(indent string, hs []Header) {
		for _, h := range hs {
			table := "always set"
			if strings.EqualFold(h.Name, "Cache-Control") {
				table = "set"
			}
			fmt.Fprintf(&b, "%sHeader %s %s \"%s\"\n", indent, table, h.Name, h.Value)
		}
	}
	var all []Header
	for _, r := range headers {
		if r.Pattern == "/*" {
			all = append(all, r.Headers...)
		}
	}
	writeHeaders("", withCacheControl(all))
	for _, r := range headers {
		if r.Pattern == "/*" {
			continue
		}
		cond := fmt.Sprintf("%%{REQUEST_URI} == '%s'", r.Pattern)
		if prefix, ok := strings.CutSuffix(r.Pattern, "*"); ok {
			cond = fmt.Sprintf("%%{REQUEST_URI} =~ m#^%s#", regexp.QuoteMeta(prefix))
		}
		fmt.Fprintf(&b, "<If \"%s\">\n", cond)
		writeHeaders("    ", r.Headers)
		b.WriteString("</If>\n")
	}

	b.WriteString("RewriteEngine On\n")
	// Private files answer 404 (the server's own configuration usually
	// forbids .ht* files before this file is read: 403).
	var private []string
	for _, u := range Unpublished() {
		private = append(private, regexp.QuoteMeta(strings.TrimPrefix(u, "/")))
	}
	for _, u := range privatePrefixes {
		private = append(private, regexp.QuoteMeta(strings.TrimPrefix(u, "/"))+".*")
	}
	for _, u := range ownURLs(pages) {
		private = append(private, regexp.QuoteMeta(strings.TrimPrefix(u, "/"))+`(index\.html)?`)
	}
	fmt.Fprintf(&b, "RewriteRule ^(%s)$ - [R=404,L]\n", strings.Join(private, "|"))
	// Redirects: per-folder rules see the path without its leading slash;
	// the rules list each path with and without its trailing slash.
	for i := 0; i < len(rules); i += 2 {
		from := strings.TrimPrefix(rules[i][0], "/")
		fmt.Fprintf(&b, "RewriteRule ^%s/?$ %s [R=301,L]\n", regexp.QuoteMeta(from), rules[i][1])
	}
	return []byte(b.String()), nil
}
