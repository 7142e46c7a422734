package config

import (
	"sitegen/pkg/diag"

	"strings"
	"testing"
)

const base = "baseURL: https://x.test\ntitle: X\nlocales:\n  - {code: pl, name: Polski, prefix: /pl, default: true}\n"

func TestAnalyticsAndWorker(t *testing.T) {
	c, err := Parse([]byte(base + "analytics:\n  scripts:\n    - https://tags.example.com/t.js?id=A1\n    - https://tags.example.com/u.js\n    - https://cdn.example.net/c.js\n" +
		"  params: {site: A1, mode: cookieless}\n  dataOrigins: [https://*.hits.example.com]\nserviceWorker:\n  retire: true\n  offlinePage: offline\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Analytics.Enabled() || c.Analytics.Params["site"] != "A1" || !c.ServiceWorker.Retire || c.ServiceWorker.Offline != "offline" {
		t.Errorf("parsed %+v %+v", c.Analytics, c.ServiceWorker)
	}
	if got, want := c.Analytics.Meta(), `{"scripts":["https://tags.example.com/t.js?id=A1","https://tags.example.com/u.js","https://cdn.example.net/c.js"],"params":{"mode":"cookieless","site":"A1"}}`; got != want {
		t.Errorf("Meta() = %q, want %q", got, want)
	}
	if got, want := strings.Join(c.Analytics.ScriptOrigins(), " "), "https://tags.example.com https://cdn.example.net"; got != want {
		t.Errorf("ScriptOrigins() = %q, want %q", got, want)
	}
	c, err = Parse([]byte(base))
	if err != nil || c.Analytics.Enabled() || c.Analytics.Meta() != "" || c.ServiceWorker.Retire || c.ServiceWorker.Offline != "" {
		t.Errorf("defaults: %+v %+v %v", c.Analytics, c.ServiceWorker, err)
	}
	for _, bad := range []string{"analytics:\n  scripts: [/local.js]\n", "analytics:\n  scripts: ['https://t.example.com/a.js\"><x']\n",
		"analytics:\n  scripts: [https://*.example.com/a.js]\n", "analytics:\n  params: {id: A1}\n", "analytics:\n  dataOrigins: ['https://x.test; script-src *']\n",
		"analytics:\n  scripts: [https://t.example.com/a.js]\n  params: {'1bad': x}\n"} {
		_, err := Parse([]byte(base + bad))
		if err == nil || !strings.Contains(err.Error(), "site.yaml:") || !strings.Contains(err.Error(), "analytics") {
			t.Errorf("%q: error %v, want one at site.yaml naming analytics", bad, err)
		}
	}
}

// TestFormDefaults: a form's element id, thank-you page, subject and event
// default from its name; two forms cannot share an id or an endpoint.
func TestFormDefaults(t *testing.T) {
	base := "baseURL: https://example.com\ntitle: T\nlocales: [{code: de, name: Deutsch, prefix: /de, default: true}]\n"
	c, err := Parse([]byte(base + "forms:\n  kontakt: {endpoint: /api/kontakt}\n  newsletter: {endpoint: /api/nl, id: nl, thanks: danke-nl, subject: Anmeldung, event: signup, honeypot: fax}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Forms["kontakt"], (Form{Endpoint: "/api/kontakt", ID: "kontakt-form", Thanks: "thanks", Subject: "kontakt", Event: "kontakt_submission", Honeypot: DefaultHoneypot,
		Pos: diag.Pos{File: "site.yaml", Line: 5, Col: 12}, ThanksPos: diag.Pos{File: "site.yaml", Line: 5, Col: 12}}); got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	if got, want := c.Forms["newsletter"], (Form{Endpoint: "/api/nl", ID: "nl", Thanks: "danke-nl", Subject: "Anmeldung", Event: "signup", Honeypot: "fax",
		Pos: diag.Pos{File: "site.yaml", Line: 6, Col: 15}, ThanksPos: diag.Pos{File: "site.yaml", Line: 6, Col: 51}}); got != want {
		t.Errorf("set %+v, want %+v", got, want)
	}
	if got := c.FormNames(); len(got) != 2 || got[0] != "kontakt" || got[1] != "newsletter" {
		t.Errorf("FormNames %v", got)
	}
	for _, bad := range []string{
		"forms:\n  a: {endpoint: /api/x}\n  b: {endpoint: /api/x}\n",
		"forms:\n  a: {endpoint: /api/a, id: f}\n  b: {endpoint: /api/b, id: f}\n",
		"forms:\n  A b: {endpoint: /api/a}\n",
		"forms:\n  a: {endpoint: /api/a, honeypot: \"x y\"}\n",
		"forms:\n  a: {endpoint: /api/a, id: \"x\\\" onload\"}\n",
	} {
		if _, err := Parse([]byte(base + bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestAssetEntries: a site's own asset entries are clean paths of scripts or
// stylesheets under assets/.
func TestAssetEntries(t *testing.T) {
	c, err := Parse([]byte(base + "assets:\n  entries: [runtime/topbar-now.js, css/print.css]\n"))
	if err != nil || len(c.Assets.Entries) != 2 {
		t.Fatalf("%v %v", c.Assets, err)
	}
	for _, bad := range []string{"../x.js", "/abs.js", "a//b.js", "img/logo.png"} {
		if _, err := Parse([]byte(base + "assets:\n  entries: [" + bad + "]\n")); err == nil || !strings.Contains(err.Error(), "site.yaml:6") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestFormEndpoint: a form's endpoint is a clean path on the site or an
// https:// URL without credentials, refused at its site.yaml line
// otherwise; each of the refused ones built and reached every page's
// <form action> (issue 36).
func TestFormEndpoint(t *testing.T) {
	base := "baseURL: https://example.com\ntitle: T\nlocales: [{code: de, name: Deutsch, prefix: /de, default: true}]\nforms:\n  demo:\n    endpoint: "
	for _, tc := range []struct{ endpoint, want string }{
		{"/api/demo", ""},
		{"/api/demo/", ""},
		{"https://forms.example.com/demo", ""},
		{"https://forms.example.com", ""},
		{"https://forms.example.com:8443/a/b?site=x", ""},
		{`"javascript:alert(1)"`, "must be a path on the site"},
		{"http://forms.example.com/demo", "must be a path on the site"},
		{"api/demo", "must be a path on the site"},
		{"//evil.example/x", "must be a path on the site"},
		{"https://user:pass@forms.example.com/demo", "user name or password"},
		{"https://user@forms.example.com/demo", "user name or password"},
		{"/api/../x", "not a clean path (it would be /x)"},
		{"https://forms.example.com/a/../../x", "not a clean path"},
		{"/api//x", "not a clean path"},
		{`"/api/x\n/y"`, "control character"},
		{`"/api/x y"`, "control character, a space"},
		{`"/api/\"x"`, "no place in a URL"},
		{"https:///x", "no host"},
		{"/api/x#y", "fragment"},
	} {
		_, err := Parse([]byte(base + tc.endpoint + "\n"))
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.endpoint, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "site.yaml:6:15: forms.demo.endpoint") {
			t.Errorf("%s: %v, want site.yaml:6:15: … %q", tc.endpoint, err, tc.want)
		}
	}
}

// TestLocalePrefix: a locale's prefix is one plain path segment, and a bad
// one is reported at the prefix's own line (it was reported at the
// locale's first line, and "/..", "/p l" or "/pl?x" built, issue 36).
func TestLocalePrefix(t *testing.T) {
	base := "baseURL: https://example.com\ntitle: T\nlocales:\n  - code: pl\n    name: Polski\n    default: true\n    prefix: "
	for _, ok := range []string{"/pl", "/pt-br", "/en_GB", "/v1.2"} {
		if _, err := Parse([]byte(base + ok + "\n")); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"pl", "/", "/pl/", "/a/b", "/..", "/.", "/.pl", `"/p l"`, `"/pl?x"`, `"/pl#a"`, "/ą", "/%41", `"/a\\b"`, `"/p\x01"`} {
		_, err := Parse([]byte(base + bad + "\n"))
		if err == nil || !strings.Contains(err.Error(), "site.yaml:7:13: locale \"pl\": prefix") || !strings.Contains(err.Error(), "must be one path segment") {
			t.Errorf("%s: %v, want site.yaml:7:13: … must be one path segment", bad, err)
		}
	}
}

// TestImagesAVIF: images.avif chooses the portable encoder (the default)
// or the native one, and keeps where it is set for the native encoder's
// errors; any other value is an error at its line.
func TestImagesAVIF(t *testing.T) {
	for _, tc := range []struct {
		yaml, want, err string
		line            int
	}{
		{"", AVIFPortable, "", 0},
		{"images:\n  maxPixels: 1000\n", AVIFPortable, "", 0},
		{"images:\n  avif: portable\n", AVIFPortable, "", 6},
		{"images:\n  keepInSite: true\n  avif: native\n", AVIFNative, "", 7},
		{"images: {avif: fast}\n", "", `site.yaml:5:16: images.avif must be portable or native, not "fast"`, 5},
		{"images:\n  avif: Native\n", "", `site.yaml:6:9: images.avif must be portable or native, not "Native"`, 6},
	} {
		c, err := Parse([]byte(base + tc.yaml))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, want %s", tc.yaml, err, tc.err)
			}
			continue
		}
		if err != nil || c.Images.AVIF != tc.want || c.Images.AVIFPos.Line != tc.line {
			t.Errorf("%q: avif %q at %v (%v), want %q at line %d", tc.yaml, c.Images.AVIF, c.Images.AVIFPos, err, tc.want, tc.line)
		}
	}
}
