package output

import (
	"strings"
	"testing"

	"sitegen/pkg/route"
)

// TestHeaderRulesCarryTheSiteCSP: the one header table holds the CSP the
// site's configuration gives, for _headers and the dev server alike.
func TestHeaderRulesCarryTheSiteCSP(t *testing.T) {
	csp := CSP{Script: []string{"https://tags.example.test"}}
	rules := HeaderRules(csp)
	h := string(Headers(rules))
	if !strings.Contains(h, "Content-Security-Policy: "+csp.String()+"\n") {
		t.Errorf("_headers lacks the site's CSP:\n%s", h)
	}
	var got string
	for _, hd := range HeadersFor(rules, "/pl/") {
		if hd.Name == "Content-Security-Policy" {
			got = hd.Value
		}
	}
	if got != csp.String() {
		t.Errorf("HeadersFor gives CSP %q", got)
	}
}

func TestRedirectTable(t *testing.T) {
	got := RedirectTable([]route.Redirect{{From: "/contact/", To: "/pl/kontakt/"}, {From: "/en/old/", To: "/en/new/"}})
	if len(got) != 2 || got["/contact"] != "/pl/kontakt/" || got["/en/old"] != "/en/new/" {
		t.Errorf("table = %v", got)
	}
}
