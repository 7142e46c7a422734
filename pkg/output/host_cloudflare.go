package output

import "sitegen/pkg/sitepath"

// HostCloudflare is Cloudflare Pages: _redirects and _headers. wrangler
// pages dev serves the rule files as plain files (Cloudflare does not
// upload them), so they are hidden too; Pages accepts no 404 status in
// _redirects, so private paths are rewritten to a path that does not
// exist, and it finds the nearest 404.html by itself.
var HostCloudflare = &Host{
	Name:           "cloudflare",
	Files:          []string{sitepath.Headers, sitepath.Redirects},
	Rules:          redirectsAndHeaders{},
	ServesOwnRules: true,
	redirects:      &redirectsDialect{hidePrivate: "200", redirect: "301"},
	Test:           HostTest{Server: "wrangler"},
}
