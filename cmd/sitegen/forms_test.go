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
	"testing"

	"sitegen/pkg/build"
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
