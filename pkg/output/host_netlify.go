package output

import "sitegen/pkg/sitepath"

// HostNetlify reads _redirects and _headers. It never serves them itself;
// it serves an existing file before a rule without "!", so redirects and
// the private paths' 404s are forced; each locale's unknown paths get its
// 404 page by a rule. The tests read the rules with Netlify's own parsers.
var HostNetlify = &Host{
	Name:      "netlify",
	Files:     []string{sitepath.Headers, sitepath.Redirects},
	Rules:     redirectsAndHeaders{},
	redirects: &redirectsDialect{hidePrivate: "404!", redirect: "301!", notFoundRules: true},
	Test:      HostTest{Parsers: "netlify"},
}
