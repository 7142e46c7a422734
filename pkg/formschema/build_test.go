package formschema_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/pkg/build"
	"sitegen/pkg/forms"
)

// siteCopy copies the repository's site into a temp folder (node_modules
// is linked).
func siteCopy(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"node_modules"} {
		if err := os.Symlink(filepath.Join(root, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"templates", "assets", "content"} { // a site reads no links out of its folder
		if err := os.CopyFS(filepath.Join(dir, name), os.DirFS(filepath.Join(root, name))); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"site.yaml", "schema.yaml", "package.json"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// buildSite builds for netlify (the CSP checks read _headers), and
// buildSiteFor for another host.
func buildSite(t *testing.T, src string) (string, error) { return buildSiteFor(t, src, "netlify") }

func buildSiteFor(t *testing.T, src, host string) (string, error) {
	out := filepath.Join(t.TempDir(), "public")
	_, err := build.Run(context.Background(), build.Options{Source: src, Out: out, Date: "2026-08-15", Host: host})
	return out, err
}

// TestBuildExportsSchema: the build writes the schema the handler loads,
// with the site's fields, consents (exact text, version, hash), clause and
// thank-you pages.
func TestBuildExportsSchema(t *testing.T) {
	out, err := buildSite(t, siteCopy(t))
	if err != nil {
		t.Fatal(err)
	}
	s, err := forms.LoadSchema(filepath.Join(out, forms.SchemaFile("demo")))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "name,companyName,email,phone" {
		t.Errorf("fields %v", names)
	}
	if s.Thanks["pl"] != "/pl/podziekowanie/" || s.Thanks["en"] != "/en/thanks/" || s.Endpoint != "/api/demo" {
		t.Errorf("thanks %v endpoint %s", s.Thanks, s.Endpoint)
	}
	if len(s.Consents) != 2 || s.Consents[0].Version == "" || !strings.HasPrefix(s.Consents[0].Texts["pl"].Source, "Wyrażam zgodę") ||
		s.Consents[0].Texts["pl"].Hash != forms.HashText(s.Consents[0].Texts["pl"].Source) {
		t.Errorf("consents %+v", s.Consents)
	}
	if s.ClauseVersion == "" || !strings.Contains(s.Clause["en"].HTML, `href="/en/`) {
		t.Errorf("clause version %q html %q", s.ClauseVersion, s.Clause["en"].HTML)
	}
	if s.UI["en"].Messages[forms.CodePhone] == s.UI["pl"].Messages[forms.CodePhone] {
		t.Error("messages are not localized")
	}
	headers, _ := os.ReadFile(filepath.Join(out, "_headers"))
	if !strings.Contains(string(headers), "form-action 'self'\n") || !strings.Contains(string(headers), "connect-src 'self' https://www.googletagmanager.com https://www.google-analytics.com") {
		t.Errorf("same-origin endpoint: CSP allows more than 'self' for forms:\n%s", headers)
	}
}

// TestBuildFailsWhenMarkupAndSchemaDisagree: a template that drops a limit
// from the form (or adds a field the handler does not know) fails the build.
func TestBuildFailsWhenMarkupAndSchemaDisagree(t *testing.T) {
	for name, edit := range map[string][2]string{
		"limit dropped": {`"maxLength" .maxLength`, `"maxLength" 0`},
		"extra field":   {`(dict "name" .name "label"`, `(dict "name" (printf "%sX" .name) "label"`},
		"endpoint":      {`"endpoint" $endpoint`, `"endpoint" "/api/other"`},
	} {
		t.Run(name, func(t *testing.T) {
			src := siteCopy(t)
			p := filepath.Join(src, "templates", "sections", "form.html")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), edit[0]) {
				t.Fatalf("precondition: form.html has no %q", edit[0])
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), edit[0], edit[1], 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = buildSite(t, src)
			if err == nil || !strings.Contains(err.Error(), "disagree") {
				t.Fatalf("build: %v, want the form and schema to disagree", err)
			}
		})
	}
}

// TestCSPFollowsEndpoint: a handler on another origin gets exactly that
// origin in form-action and connect-src, and absolute thank-you URLs.
func TestCSPFollowsEndpoint(t *testing.T) {
	src := siteCopy(t)
	os.Remove(filepath.Join(src, "site.yaml"))
	root, _ := filepath.Abs("../..")
	b, err := os.ReadFile(filepath.Join(root, "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(b), "endpoint: /api/demo", "endpoint: https://forms.botforge.example/api/demo", 1)
	if err := os.WriteFile(filepath.Join(src, "site.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := buildSite(t, src)
	if err != nil {
		t.Fatal(err)
	}
	headers, _ := os.ReadFile(filepath.Join(out, "_headers"))
	for _, want := range []string{"form-action 'self' https://forms.botforge.example\n", "connect-src 'self' https://forms.botforge.example https://www.googletagmanager.com"} {
		if !strings.Contains(string(headers), want) {
			t.Errorf("_headers lacks %q:\n%s", want, headers)
		}
	}
	outNginx, err := buildSiteFor(t, src, "nginx")
	if err != nil {
		t.Fatal(err)
	}
	nginx, _ := os.ReadFile(filepath.Join(outNginx, "_nginx.conf"))
	if !strings.Contains(string(nginx), "form-action 'self' https://forms.botforge.example") {
		t.Errorf("_nginx.conf's CSP does not allow the handler's origin")
	}
	s, err := forms.LoadSchema(filepath.Join(out, forms.SchemaFile("demo")))
	if err != nil {
		t.Fatal(err)
	}
	if s.Origin != "https://www.botforge.pl" || s.Thanks["pl"] != "https://www.botforge.pl/pl/podziekowanie/" {
		t.Errorf("origin %q thanks %v", s.Origin, s.Thanks)
	}
}
