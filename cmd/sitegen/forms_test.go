package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/pkg/build"
	"sitegen/pkg/devserver"
	"sitegen/pkg/forms"
)

// TestServeMountsFormHandler: `sitegen serve` answers form posts at the
// endpoint with the real handler and serves the site everywhere else.
func TestServeMountsFormHandler(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if _, err := build.Run(context.Background(), build.Options{Source: "../..", Out: out, Date: "2026-08-15"}); err != nil {
		t.Fatal(err)
	}
	static := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "static "+r.URL.Path) })
	h, closeForms, err := mountForms(context.Background(), static, out, "", t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer closeForms()
	srv := httptest.NewServer(h)
	defer srv.Close()
	v := url.Values{"name": {"Jan"}, "companyName": {"ACME"}, "email": {"jan@example.com"}, "phone": {"601 234 567"},
		"marketingEmail": {"yes"}, "phoneContact": {"yes"}, "lang": {"en"}}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.PostForm(srv.URL+"/api/demo", v)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/en/thanks/" {
		t.Fatalf("POST /api/demo: %d %q, want 303 /en/thanks/", res.StatusCode, res.Header.Get("Location"))
	}
	res, err = http.Get(srv.URL + "/pl/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(b) != "static /pl/" {
		t.Errorf("GET /pl/: %q", b)
	}
	if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(forms.SchemaFile("demo")))); err != nil {
		t.Error(err)
	}
}

// TestServeMountsEveryForm: `sitegen serve` on the verein fixture (two
// forms of other names) mounts a handler per form at its own endpoint, each
// sending the visitor to its own thank-you page in their language, and
// serves the site (Cyrillic heading ids included) everywhere else.
func TestServeMountsEveryForm(t *testing.T) {
	src := filepath.Join(t.TempDir(), "verein")
	if err := os.CopyFS(src, os.DirFS("../../testdata/sites/verein")); err != nil {
		t.Fatal(err)
	}
	nm, err := filepath.Abs("../../node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(nm, "preact")); err != nil {
		t.Skip("node_modules not installed (run make setup)")
	}
	if err := os.Symlink(nm, filepath.Join(src, "node_modules")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := devserver.New(ctx, devserver.Options{Build: build.Options{Source: src, Date: "2026-01-01", Minify: true}, Out: io.Discard, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	if err := writeSchemas(srv, dir); err != nil {
		t.Fatal(err)
	}
	var said, logged strings.Builder
	formsLog := slog.New(slog.NewTextHandler(&logged, nil))
	h, closeForms, err := mountForms(ctx, srv, dir, "", dir, formsLog, &said)
	if err != nil {
		t.Fatal(err)
	}
	defer closeForms()
	// The preview stores submissions and tells nobody, by design: no
	// warning about notifications on every serve.
	if strings.Contains(logged.String(), "level=WARN") {
		t.Errorf("serve warned:\n%s", logged.String())
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		path   string
		values url.Values
		want   string
	}{
		{"/api/mitglied", url.Values{"vorname": {"Olena"}, "nachname": {"Kowal"}, "email": {"olena@example.com"}, "satzung": {"yes"}, "lang": {"uk"}}, "/uk/diakuiemo/chlenstvo/"},
		{"/api/newsletter", url.Values{"email": {"jan@example.com"}, "newsletter": {"yes"}, "lang": {"de"}}, "/de/danke/newsletter/"},
	} {
		res, err := client.PostForm(hs.URL+c.path, c.values)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != c.want {
			t.Errorf("POST %s: %d %q, want 303 %s", c.path, res.StatusCode, res.Header.Get("Location"), c.want)
		}
	}
	for _, db := range []string{"mitglied.db", "newsletter.db"} {
		if _, err := os.Stat(filepath.Join(dir, db)); err != nil {
			t.Errorf("each form keeps its own database: %v", err)
		}
	}
	res, err := http.Get(hs.URL + "/uk/pro-nas/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), `id="статут-і-внесок"`) {
		t.Errorf("GET /uk/pro-nas/: %d %.300s", res.StatusCode, b)
	}
	if _, _, err := mountForms(ctx, srv, dir, "sqlite:"+filepath.Join(dir, "one.db"), dir, log, io.Discard); err == nil {
		t.Error("--forms-db with two forms was accepted")
	}
}
