package output

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// CSP holds the sources a site's pages may use besides their own origin, per
// directive. It is derived from the site's configuration (csp in site.yaml,
// the origins of form endpoints), never written into the engine.
type CSP struct {
	// Script may list hash sources (StyleHash of the script's text) of
	// the inline scripts the pages carry besides origins.
	Script, Img, Connect, Form []string
	// Style lists the hash sources ('sha256-...', StyleHash) of the
	// <style> elements the pages carry. With any, style-src allows exactly
	// those inline styles and no other (no 'unsafe-inline': style
	// attributes are refused too); without, the older 'unsafe-inline'.
	Style []string
}

// StyleHash is the CSP hash source of a <style> element whose text is css,
// byte for byte as it appears between <style> and </style> (the same for an
// inline script's text).
func StyleHash(css string) string {
	sum := sha256.Sum256([]byte(css))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// String is the Content-Security-Policy value: inline scripts only by hash
// (listed in Script), inline styles only by hash (when Style lists any), no framing, and only
// the listed origins beyond 'self'.
func (c CSP) String() string {
	dir := func(name string, base []string, extra []string) string {
		return name + " " + strings.Join(append(append([]string{}, base...), dedupe(extra)...), " ")
	}
	style := "style-src 'self' 'unsafe-inline'"
	if len(c.Style) > 0 {
		style = dir("style-src", []string{"'self'"}, c.Style)
	}
	return strings.Join([]string{
		"default-src 'self'",
		dir("script-src", []string{"'self'"}, c.Script),
		style,
		dir("img-src", []string{"'self'", "data:"}, c.Img),
		dir("connect-src", []string{"'self'"}, c.Connect),
		"frame-ancestors 'none'",
		"base-uri 'self'",
		dir("form-action", []string{"'self'"}, c.Form),
	}, "; ")
}

// dedupe keeps the first of each source, in the order given.
func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
