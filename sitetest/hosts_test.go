package sitetest

import (
	"context"
	"path/filepath"
	"testing"

	"sitegen/internal/hosttest"
	"sitegen/pkg/build"
	"sitegen/pkg/output"
)

// TestHostsWebsite runs internal/hosttest's suite on the website for every host:
// served by nginx (its own host, site.yaml), Apache and Cloudflare's
// wrangler pages dev, and read by Netlify's parsers.
func TestHostsWebsite(t *testing.T) {
	locales := []string{"/pl", "/en"}
	t.Run("nginx", func(t *testing.T) {
		out := site(t)
		hosttest.Suite(t, hosttest.Nginx(t, out), hosttest.Site{Out: out, Redirects: siteRep.RedirectTable, Locales: locales, Host: output.HostNginx,
			ServerError: []string{""}})
	})
	for _, host := range []output.Host{output.HostApache, output.HostCloudflare, output.HostNetlify} {
		t.Run(string(host), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			rep, err := build.Run(context.Background(), build.Options{Source: "..", Out: out, Date: "2026-08-15", Minify: true, Host: string(host)})
			if err != nil {
				t.Fatal(err)
			}
			s := hosttest.Site{Out: out, Redirects: rep.RedirectTable, Locales: locales, Host: host}
			switch host {
			case output.HostApache:
				s.ServerError = []string{"", "/pl", "/en"}
				hosttest.Suite(t, hosttest.Apache(t, out), s)
			case output.HostCloudflare:
				hosttest.Suite(t, hosttest.Wrangler(t, out), s)
			default:
				hosttest.Netlify(t, s)
			}
		})
	}
}
