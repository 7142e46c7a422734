package hosttest

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/internal/waittest"
	"sitegen/pkg/output"
)

type netlifyRead struct {
	Redirects []struct {
		From, To string
		Status   int
		Force    bool
	}
	Headers []struct {
		For    string
		Values map[string]string
	}
	Errors []string
}

// Netlify reads the output's _redirects and _headers with Netlify's own
// parsers (@netlify/redirect-parser and @netlify/headers-parser, pinned in
// tools/hosts) and checks: no rule rejected; every alias read back as a 301
// and the private files as forced 404s; every header rule read back; and
// Netlify's shadowing rule: a rule without "!" never applies where a file
// exists, so no file may exist at a path a non-forced redirect sends away.
func Netlify(t *testing.T, site Site) {
	t.Helper()
	need(t, "node", "apt-get install nodejs", "node")
	script := filepath.Join(RepoRoot(), "tools", "hosts", "netlify-read.mjs")
	need(t, "Netlify's parsers (tools/hosts)", "make host-tools",
		filepath.Join(RepoRoot(), "tools", "hosts", "node_modules", "@netlify", "redirect-parser", "package.json"))
	cmd := waittest.Command(t, "node", script, site.Out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("netlify-read: %v\n%s", err, stderr.String())
	}
	var got netlifyRead
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("netlify-read: %v\n%s", err, b)
	}
	if len(got.Errors) > 0 {
		t.Errorf("Netlify's parsers reject %d rules: %s", len(got.Errors), strings.Join(got.Errors, "; "))
	}

	alias := map[string]string{}
	errorPages := map[string]bool{}
	for _, u := range ErrorPageURLs(t, site.Out) {
		errorPages[u] = false
	}
	for _, r := range got.Redirects {
		switch {
		case r.Status == 301:
			alias[r.From] = r.To
			if r.Force {
				continue
			}
			for _, f := range []string{r.From, path.Join(r.From, "index.html"), strings.TrimSuffix(r.From, "/") + ".html"} {
				if st, err := os.Stat(filepath.Join(site.Out, filepath.FromSlash(f))); err == nil && !st.IsDir() {
					t.Errorf("%s shadows the redirect %s -> %s: Netlify serves the file, not the rule", f, r.From, r.To)
				}
			}
		case r.Status == 404 && r.Force:
			if _, ok := errorPages[r.From]; ok {
				errorPages[r.From] = true
			} else if !output.Private(strings.TrimSuffix(r.From, "*")) {
				t.Errorf("a forced 404 on a public path: %s", r.From)
			}
		case r.Status == 404:
		default:
			t.Errorf("unexpected rule %+v", r)
		}
	}
	for u, forced := range errorPages {
		if !forced {
			t.Errorf("%s (an error page's own URL): no forced 404 rule, so Netlify answers it 200", u)
		}
	}
	for from, to := range site.Redirects {
		bare := strings.TrimSuffix(from, "/")
		if alias[bare] != to || alias[bare+"/"] != to {
			t.Errorf("Netlify reads %s -> %q and %s/ -> %q, want %s", bare, alias[bare], bare, alias[bare+"/"], to)
		}
	}
	if len(got.Headers) == 0 {
		t.Error("Netlify reads no header rule")
	}
	for _, h := range got.Headers {
		if h.For == "/*" && h.Values["Content-Security-Policy"] == "" {
			t.Errorf("/*: no CSP read back: %v", h.Values)
		}
	}
}
