package output

import (
	"fmt"
	"sitegen/pkg/config"
	"sort"
	"strings"

	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// Host is the software that serves the output. It decides which rule files
// a build writes and in which form, so that nothing is written that the
// host rejects, ignores or would serve by mistake.
type Host string

// The hosts sitegen writes for. HostStatic is a host that runs no rules (S3,
// GitHub Pages, any plain file server): redirects become meta-refresh pages
// and nothing else can be had.
const (
	HostStatic     Host = "static"
	HostNetlify    Host = "netlify"
	HostCloudflare Host = "cloudflare"
	HostNginx      Host = "nginx"
	HostApache     Host = "apache"
)

// DefaultHost is the host of a site that names none: it works anywhere.
const DefaultHost = HostStatic

// ParseHost returns the host named s ("" is the default).
func ParseHost(s string) (Host, error) {
	if err := config.CheckHost(s); err != nil {
		return "", err
	}
	if s == "" {
		return DefaultHost, nil
	}
	return Host(s), nil
}

// RedirectPages reports whether the build writes an HTML page with a
// meta refresh at each redirect's path. Only a host that cannot redirect
// gets them: on the others the page would shadow the rule (Netlify serves
// an existing file before a non-forced rule) or never be seen.
func (h Host) RedirectPages() bool { return h == HostStatic }

// HtaccessName is Apache's per-folder configuration file.
const HtaccessName = sitepath.Htaccess

// privatePrefixes are folders of output files no visitor needs (the form
// handlers' schemas): every host that runs rules answers them 404.
var privatePrefixes = []string{"/" + sitepath.Forms + "/"}

// Private reports whether the URL path p is a file of the output tree that
// is not part of the site: a host's rule file, the ownership manifest, a
// form handler's schema. Hosts that run rules answer it 404; the dev server
// does not serve it.
func Private(p string) bool {
	for _, u := range Unpublished {
		if p == u {
			return true
		}
	}
	for _, pre := range privatePrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// HostInput is what the rule files are made of: one table of headers, the
// route plan's redirects and the 404 and 500 pages per locale.
type HostInput struct {
	Version     string
	Headers     []HeaderRule
	Redirects   []route.Redirect
	NotFound    []NotFound
	ServerError []NotFound // the 500 page per locale prefix ("" for the rest)
}

// RuleFiles returns the files host h reads (by output path): none for a
// static host.
func (h Host) RuleFiles(in HostInput) (map[string][]byte, error) {
	files := map[string][]byte{}
	switch h {
	case HostStatic:
	case HostNetlify, HostCloudflare:
		red, err := Redirects(h, in.Redirects, in.NotFound)
		if err != nil {
			return nil, err
		}
		files[sitepath.Redirects] = red
		files[sitepath.Headers] = Headers(in.Headers)
	case HostNginx:
		b, err := Nginx(in.Version, in.Headers, in.Redirects, in.NotFound, in.ServerError)
		if err != nil {
			return nil, err
		}
		files[NginxName] = b
	case HostApache:
		b, err := Htaccess(in.Version, in.Headers, in.Redirects, in.NotFound, in.ServerError)
		if err != nil {
			return nil, err
		}
		files[HtaccessName] = b
	default:
		return nil, fmt.Errorf("unknown host %q", h)
	}
	return files, nil
}

// privateRules are the private paths a _redirects file must hide, as rule
// patterns ("/_forms/*"). Netlify never serves its own _headers and
// _redirects; wrangler pages dev does (Cloudflare does not upload them).
func privateRules(h Host) []string {
	out := []string{"/" + ManifestName}
	if h == HostCloudflare {
		out = append(out, "/"+sitepath.Headers, "/"+sitepath.Redirects)
	}
	for _, p := range privatePrefixes {
		out = append(out, p+"*")
	}
	sort.Strings(out)
	return out
}
