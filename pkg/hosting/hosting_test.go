package hosting

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/pkg/build"
	"sitegen/pkg/output"
)

func TestHandler(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"index.html":                  "root",
		"pl/index.html":               "pl home",
		"pl/o-nas/index.html":         "o nas",
		"404.html":                    "not found pl",
		"pl/404.html":                 "nie ma pl",
		"en/404.html":                 "nothing here en",
		"_assets/main-ABC.css":        "body{}",
		"page-data/pl/page-data.json": "{}",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	h, err := NewHandler(root, []string{"/pl", "/en"}, map[string]string{"/contact": "/pl/o-nas/"}, output.HeaderRules(output.CSP{}))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, path string
		code         int
		body, loc    string
	}{
		{"GET", "/", 200, "root", ""},
		{"GET", "/pl/", 200, "pl home", ""},
		{"GET", "/pl/o-nas", 301, "", "/pl/o-nas/"},
		{"GET", "/contact", 301, "", "/pl/o-nas/"},
		{"GET", "/contact/?utm=x", 301, "", "/pl/o-nas/?utm=x"},
		{"GET", "/pl/nie-ma/", 404, "nie ma pl", ""},
		{"GET", "/en/nothing/", 404, "nothing here en", ""},
		{"GET", "/elsewhere", 404, "not found pl", ""},
		{"HEAD", "/pl/nie-ma/", 404, "", ""},
		{"HEAD", "/pl/", 200, "", ""},
		{"GET", "/page-data/nope/page-data.json", 404, "404 page not found\n", ""},
		{"GET", "/page-data/pl/page-data.json", 200, "{}", ""},
		{"POST", "/pl/", 405, "method not allowed\n", ""},
		{"GET", "/../etc/passwd", 404, "not found pl", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
			if rec.Code != tt.code {
				t.Errorf("code = %d, want %d", rec.Code, tt.code)
			}
			if tt.method == "GET" && tt.code != 301 && rec.Body.String() != tt.body {
				t.Errorf("body = %q, want %q", rec.Body.String(), tt.body)
			}
			if tt.loc != "" && rec.Header().Get("Location") != tt.loc {
				t.Errorf("Location = %q, want %q", rec.Header().Get("Location"), tt.loc)
			}
		})
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/_assets/main-ABC.css", nil))
	if cc := rec.Header().Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("asset Cache-Control = %q", cc)
	}
}

// parseHeadersFile reads a _headers file as Netlify and Cloudflare Pages do:
// a path pattern at the start of a line, its "Name: value" lines indented
// below; every pattern that matches a path ("/*" a splat) adds its headers.
func parseHeadersFile(t *testing.T, b []byte) func(p string) http.Header {
	t.Helper()
	type rule struct {
		pattern string
		h       http.Header
	}
	var rules []rule
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.TrimSpace(line) == "":
		case !strings.HasPrefix(line, " "):
			rules = append(rules, rule{line, http.Header{}})
		default:
			name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
			if !ok || len(rules) == 0 {
				t.Fatalf("_headers: bad line %q", line)
			}
			rules[len(rules)-1].h.Add(name, strings.TrimSpace(value))
		}
	}
	return func(p string) http.Header {
		out := http.Header{}
		for _, r := range rules {
			prefix, splat := strings.CutSuffix(r.pattern, "*")
			if splat && strings.HasPrefix(p, prefix) || p == r.pattern {
				for k, v := range r.h {
					out[k] = append(out[k], v...)
				}
			}
		}
		return out
	}
}

// TestServeHeadersMatchBuild builds the fixture site and requests its pages,
// assets, page data, redirects and unknown paths from the dev server: each
// response carries exactly the headers the built _headers file gives its
// path (the cache rules on what exists), _headers, _redirects, the nginx
// snippet and the manifest are not served, and redirects keep the query.
func TestServeHeadersMatchBuild(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	rep, err := build.Run(context.Background(), build.Options{Source: "../../testdata/sites/basic", Out: out, Date: "2026-01-01", Host: "netlify"})
	if err != nil {
		t.Fatal(err)
	}
	hf, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	want := parseHeadersFile(t, hf)
	assets, _ := filepath.Glob(filepath.Join(out, "_assets", "*"))
	if len(assets) == 0 {
		t.Fatal("the fixture has no assets")
	}
	h, err := NewHandler(out, []string{"/pl", "/en", "/de"}, rep.RedirectTable, rep.HeaderRules)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		code int
		loc  string
	}{
		{"/", 200, ""},
		{"/pl/", 200, ""},
		{"/en/", 200, ""},
		{"/_assets/" + filepath.Base(assets[0]), 200, ""},
		{"/page-data/app-data.json", 200, ""},
		{"/contact?utm_source=x&b=1", 301, "/pl/o-nas/kontakt/?utm_source=x&b=1"},
		{"/en/nope", 404, ""},
		{"/_assets/nope.js", 404, ""},
		{"/_headers", 404, ""},
		{"/_redirects", 404, ""},
		{"/_nginx.conf", 404, ""},
		{"/.sitegen-manifest.json", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
			if rec.Code != tt.code {
				t.Fatalf("code = %d, want %d", rec.Code, tt.code)
			}
			if got := rec.Header().Get("Location"); got != tt.loc {
				t.Errorf("Location = %q, want %q", got, tt.loc)
			}
			p, _, _ := strings.Cut(tt.path, "?")
			w := want(p)
			if len(w) == 0 {
				t.Fatalf("_headers gives %s no header", p)
			}
			for name, values := range w {
				got := rec.Header().Values(name)
				if name == "Cache-Control" && tt.code != 200 {
					continue // cache rules are for what exists
				}
				if strings.Join(got, ", ") != strings.Join(values, ", ") {
					t.Errorf("%s = %q, _headers says %q", name, got, values)
				}
			}
			if tt.code == 404 && strings.HasPrefix(p, "/en/") && !strings.Contains(rec.Body.String(), `lang="en"`) {
				t.Errorf("/en/ 404 is not the English page")
			}
			if cc := rec.Header().Get("Cache-Control"); tt.code != 200 && cc != "no-cache" {
				t.Errorf("Cache-Control of a %d = %q, want no-cache", tt.code, cc)
			}
		})
	}
}
