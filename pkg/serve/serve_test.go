package serve

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
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
		"_redirects":                  "/contact /pl/o-nas/ 301\n/contact/ /pl/o-nas/ 301\n",
		"page-data/pl/page-data.json": "{}",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	h, err := NewHandler(root, []string{"/pl", "/en"})
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
