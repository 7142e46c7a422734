package output

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"sitegen/pkg/route"
)

// Host is the software that serves the output. Everything that differs
// from one host to another is a field of its value, and each host is one
// file (host_<name>.go) listed in Hosts: the rule files it reads and how
// they are made, whether it serves them itself, and how the hosting tests
// try it with its own software. Adding a host is a file like those, its
// line in Hosts and its row in docs/hosting.md.
type Host struct {
	// Name is how site.yaml's host: and --host name it.
	Name string
	// Files are the rule files the host reads, by output path; none for a
	// host that runs no rules (S3, GitHub Pages, any plain file server),
	// which gets a meta-refresh page at each redirect's path instead.
	Files []string
	// Rules makes Files: the redirects (301, query kept), the 404 and 500
	// pages per locale, the header table, and a 404 for every private
	// path. Nil when Files is empty.
	Rules HostRules
	// ServesOwnRules is true for a host that would serve its own rule
	// files as plain files (wrangler pages dev): its rules hide them.
	ServesOwnRules bool
	// redirects is the dialect of a _redirects file, for the hosts that
	// read one.
	redirects *redirectsDialect
	// Test is how the hosting tests (internal/hosttest) try the host.
	Test HostTest
}

// HostRules makes a host's rule files.
type HostRules interface {
	Make(h *Host, in HostInput) (map[string][]byte, error)
}

// HostTest is how the hosting tests try a host with its own software.
type HostTest struct {
	// Server is the software that serves an output the way the host does:
	// "nginx", "apache" or "wrangler"; "" when the tests read the rules
	// with the host's own parsers instead (Parsers) or there are none.
	Server string
	// Parsers names the host's own rule parsers the tests run ("netlify").
	Parsers string
	// ServerError is where the test server can be made to answer 500: ""
	// nowhere, "root" at the root, "locales" at the root and under every
	// locale prefix.
	ServerError string
}

// Hosts are the hosts sitegen writes for, the default first.
func Hosts() []*Host { return []*Host{HostStatic, HostNetlify, HostCloudflare, HostNginx, HostApache} }

// DefaultHost is the host of a site that names none: it works anywhere.
var DefaultHost = HostStatic

// HostNames are the names of Hosts, the default first.
func HostNames() []string {
	var names []string
	for _, h := range Hosts() {
		names = append(names, h.Name)
	}
	return names
}

// ParseHost returns the host named s ("" is the default).
func ParseHost(s string) (*Host, error) {
	if s == "" {
		return DefaultHost, nil
	}
	for _, h := range Hosts() {
		if h.Name == s {
			return h, nil
		}
	}
	return nil, fmt.Errorf("unknown host %q (one of %s)", s, strings.Join(HostNames(), ", "))
}

// String is the host's name.
func (h *Host) String() string { return h.Name }

// RedirectPages reports whether the build writes an HTML page with a
// meta refresh at each redirect's path. Only a host that cannot redirect
// gets them: on the others the page would shadow the rule (Netlify serves
// an existing file before a non-forced rule) or never be seen.
func (h *Host) RedirectPages() bool { return len(h.Files) == 0 }

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
// host without rules.
func (h *Host) RuleFiles(in HostInput) (map[string][]byte, error) {
	if h.Rules == nil {
		return map[string][]byte{}, nil
	}
	files, err := h.Rules.Make(h, in)
	if err != nil {
		return nil, err
	}
	for name := range files {
		if !slices.Contains(h.Files, name) {
			return nil, fmt.Errorf("host %s wrote %s, which is not among its files %v", h.Name, name, h.Files)
		}
	}
	return files, nil
}

// privatePrefixes are folders of output files no visitor needs (the form
// handlers' schemas): every host that runs rules answers them 404.
var privatePrefixes = []string{"/" + sitepathForms + "/"}

// Unpublished are files of the output tree that are instructions for a
// host, not pages (every host's rule files and the ownership manifest): no
// host (nor the dev server) serves them.
func Unpublished() []string {
	var out []string
	for _, h := range Hosts() {
		for _, f := range h.Files {
			if !slices.Contains(out, "/"+f) {
				out = append(out, "/"+f)
			}
		}
	}
	return append(out, "/"+ManifestName)
}

// Private reports whether the URL path p is a file of the output tree that
// is not part of the site: a host's rule file, the ownership manifest, a
// form handler's schema. Hosts that run rules answer it 404; the dev server
// does not serve it.
func Private(p string) bool {
	if slices.Contains(Unpublished(), p) {
		return true
	}
	for _, pre := range privatePrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// privateRules are the private paths a _redirects file must hide, as rule
// patterns ("/_forms/*"): the manifest, the host's own rule files when it
// would serve them, and the private folders.
func privateRules(h *Host) []string {
	out := []string{"/" + ManifestName}
	if h.ServesOwnRules {
		for _, f := range h.Files {
			out = append(out, "/"+f)
		}
	}
	for _, p := range privatePrefixes {
		out = append(out, p+"*")
	}
	sort.Strings(out)
	return out
}
