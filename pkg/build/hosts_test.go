package build

import (
	"context"
	"path/filepath"
	"testing"

	"sitegen/pkg/hosttest"
	"sitegen/pkg/output"
)

// TestHosts builds the fixture site for each host and serves it with that
// host's own software (nginx, Apache, Cloudflare's wrangler pages dev), or
// reads it with the host's own parsers (Netlify), running the one suite of
// pkg/hosttest against each: redirects, 404 pages per locale, headers,
// slashes, private files.
func TestHosts(t *testing.T) {
	servers := map[output.Host]func(testing.TB, string) string{
		output.HostNginx:      hosttest.Nginx,
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
			switch host {
			case output.HostNetlify:
				hosttest.Netlify(t, site)
			case output.HostApache: // under each AllowOverride form docs/hosting.md names
				for _, override := range hosttest.ApacheOverrides {
					t.Run(override, func(t *testing.T) { hosttest.Suite(t, hosttest.Apache(t, out, override), site) })
				}
			default:
				hosttest.Suite(t, servers[host](t, out), site)
			}
		})
	}
}
