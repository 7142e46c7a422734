package output

import "strings"

// CSP holds the sources a site's pages may use besides their own origin, per
// directive. It is derived from the site's configuration (csp in site.yaml,
// the origins of form endpoints), never written into the engine.
type CSP struct {
	Script, Img, Connect, Form []string
}

// String is the Content-Security-Policy value: nothing inline for scripts,
// no framing, and only the listed origins beyond 'self'.
func (c CSP) String() string {
	dir := func(name string, base []string, extra []string) string {
		return name + " " + strings.Join(append(append([]string{}, base...), dedupe(extra)...), " ")
	}
	return strings.Join([]string{
		"default-src 'self'",
		dir("script-src", []string{"'self'"}, c.Script),
		"style-src 'self' 'unsafe-inline'",
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
