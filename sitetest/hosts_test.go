package sitetest

import (
	"context"
	"path/filepath"
	"testing"

	"sitegen/internal/hosttest"
	"sitegen/pkg/build"
)

// TestHostsWebsite runs internal/hosttest's suite on the website for every host:
// served by nginx (its own host, site.yaml), Apache and Cloudflare's
// wrangler pages dev, and read by Netlify's parsers.
func TestHostsWebsite(t *testing.T) {
	locales := []string{"/pl", "/en"}
	for _, host := range hosttest.Tried() {
		t.Run(host.Name, func(t *testing.T) {
			out, redirects := "", map[string]string(nil)
			if host.Name == siteHost {
				out, redirects = site(t), siteRep.RedirectTable
			} else {
				out = filepath.Join(t.TempDir(), "public")
				rep, err := build.Run(context.Background(), build.Options{Source: "..", Out: out, Date: "2026-08-15", Minify: true, Host: host.Name})
				if err != nil {
					t.Fatal(err)
				}
				redirects = rep.RedirectTable
			}
			hosttest.Try(t, hosttest.Site{Out: out, Redirects: redirects, Locales: locales, Host: host})
		})
	}
}

// siteHost is the host site.yaml names: the shared build (site) is for it.
const siteHost = "nginx"
