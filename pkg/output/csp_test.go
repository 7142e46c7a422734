package output

import "testing"

func TestCSP(t *testing.T) {
	tests := []struct {
		name string
		csp  CSP
		want string
	}{
		{"nothing configured: own origin only", CSP{},
			"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"},
		{"configured sources, duplicates once", CSP{Script: []string{"https://tags.example"}, Connect: []string{"https://a.example", "https://a.example"}, Form: []string{"https://forms.example"}},
			"default-src 'self'; script-src 'self' https://tags.example; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' https://a.example; frame-ancestors 'none'; base-uri 'self'; form-action 'self' https://forms.example"},
		{"inline styles by hash only, no 'unsafe-inline'", CSP{Style: []string{StyleHash("b{}"), StyleHash("b{}")}},
			"default-src 'self'; script-src 'self'; style-src 'self' 'sha256-7yqHVAesot11p6HczDsgKRipvI5UPgs97z80zNXlans='; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"},
	}
	for _, tt := range tests {
		if got := tt.csp.String(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
