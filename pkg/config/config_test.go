package config

import (
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
	if got, want := c.Forms["kontakt"], (Form{Endpoint: "/api/kontakt", ID: "kontakt-form", Thanks: "thanks", Subject: "kontakt", Event: "kontakt_submission", Honeypot: DefaultHoneypot}); got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	if got, want := c.Forms["newsletter"], (Form{Endpoint: "/api/nl", ID: "nl", Thanks: "danke-nl", Subject: "Anmeldung", Event: "signup", Honeypot: "fax"}); got != want {
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
