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
// slashes, private files. The second fixture has Japanese slugs and an
// alias to a Japanese page: the rules match the path as a request carries
// it and answer with an encoded Location.
func TestHosts(t *testing.T) {
	for _, f := range []struct {
		name, dir string
		locales   []string
	}{
		{"basic", fixture, []string{"/pl", "/en", "/de"}},
		{"polyglot", "../../testdata/sites/polyglot", []string{"/en", "/de", "/ja"}},
	} {
		t.Run(f.name, func(t *testing.T) { testHosts(t, f.dir, f.locales) })
	}
}

func testHosts(t *testing.T, fixture string, locales []string) {
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
			site := hosttest.Site{Out: out, Redirects: rep.RedirectTable, Locales: locales, Host: host}
			switch { // where the test server can be made to fail (basic has 500 pages)
			case fixture != "../../testdata/sites/basic":
			case host == output.HostNginx:
				site.ServerError = []string{""}
			case host == output.HostApache:
				site.ServerError = append([]string{""}, locales...)
			}
			if host == output.HostNetlify {
				hosttest.Netlify(t, site)
				return
			}
			hosttest.Suite(t, servers[host](t, out), site)
		})
	}
}
