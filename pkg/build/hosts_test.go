package build

import (
	"context"
	"path/filepath"
	"testing"

	"sitegen/internal/hosttest"
)

// TestHosts builds the fixture site for each host and serves it with that
// host's own software (nginx, Apache, Cloudflare's wrangler pages dev), or
// reads it with the host's own parsers (Netlify), running the one suite of
// internal/hosttest against each: redirects, 404 pages per locale, headers,
// slashes, private files.
func TestHosts(t *testing.T) {
	for _, host := range hosttest.Tried() {
		t.Run(host.Name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			rep, err := Run(context.Background(), Options{Source: fixture, Out: out, Date: "2026-01-01", Minify: true, Host: host.Name})
			if err != nil {
				t.Fatal(err)
			}
			hosttest.Try(t, hosttest.Site{Out: out, Redirects: rep.RedirectTable, Locales: []string{"/pl", "/en", "/de"}, Host: host})
		})
	}
}
