package build

import (
	"context"
	"path/filepath"
	"testing"

	"sitegen/internal/hosttest"
	"sitegen/pkg/output"
)

// TestHosts builds the fixture site for each host and serves it with that
// host's own software (nginx, Apache, Cloudflare's wrangler pages dev), or
// reads it with the host's own parsers (Netlify), running the one suite of
// internal/hosttest against each: redirects, 404 pages per locale, headers,
// slashes, private files.
func TestHosts(t *testing.T) {
	servers := map[output.Host]func(testing.TB, string) string{
		output.HostNginx:      hosttest.Nginx,
		output.HostApache:     hosttest.Apache,
		output.HostCloudflare: hosttest.Wrangler,
	}
	for _, host := range []output.Host{output.HostNginx, output.HostApache, output.HostCloudflare, output.HostNetlify} {
		t.Run(string(host), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			rep, err := Run(context.Background(), Options{Source: fixture, Out: out, Date: "2026-01-01", Minify: true, Host: string(host)})
			if err != nil {
				t.Fatal(err)
			}
			site := hosttest.Site{Out: out, Redirects: rep.RedirectTable, Locales: []string{"/pl", "/en", "/de"}, Host: host}
			switch host { // where the test server can be made to fail
			case output.HostNginx:
				site.ServerError = []string{""}
			case output.HostApache:
				site.ServerError = []string{"", "/pl", "/en", "/de"}
			}
			if host == output.HostNetlify {
				hosttest.Netlify(t, site)
				return
			}
			hosttest.Suite(t, servers[host](t, out), site)
		})
	}
}
