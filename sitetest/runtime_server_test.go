package sitetest

// The runtime tests' server: the built site behind a handler that records
// every request and injects failures (status codes, delays, hangs, dropped
// connections, another build hash, other bodies), plus a stand-in for the
// tag manager's host, served over TLS on a port the browser maps the script
// origin of site.yaml's analytics block to.

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"sitegen/pkg/build"
	"sitegen/pkg/config"
	"sitegen/pkg/hosting"
)

// rtReq is one request the server received.
type rtReq struct {
	Method, Host, Path, Query, UA string
	At                            time.Time
}

func (r rtReq) URL() string {
	if r.Query != "" {
		return r.Path + "?" + r.Query
	}
	return r.Path
}

// fault changes the answers to the requests it matches.
type fault struct {
	match  func(r *http.Request) bool
	times  int                 // apply to the first n matches; 0: to all
	status int                 // answer with this status (and a short body)
	body   string              // answer 200 with this body
	delay  time.Duration       // answer after this long
	hang   chan struct{}       // answer once this is closed (or the client left)
	drop   bool                // close the connection without an answer
	hash   string              // replace the build hash in the answer with this
	edit   func([]byte) []byte // rewrite the answer
	n      int
}

type rtServer struct {
	sites map[string]http.Handler // host name -> site
	hash  map[string]string       // host name -> build hash of its site

	mu     sync.Mutex
	log    []rtReq
	faults []*fault
}

func pathIs(p string) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.URL.Path == p }
}

func pathHas(p string) func(*http.Request) bool {
	return func(r *http.Request) bool { return strings.Contains(r.URL.Path, p) }
}

// inject adds a fault for the rest of the test.
func (s *rtServer) inject(t *testing.T, f *fault) *fault {
	s.mu.Lock()
	s.faults = append(s.faults, f)
	s.mu.Unlock()
	t.Cleanup(func() { s.remove(f) })
	return f
}

func (s *rtServer) remove(f *fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.faults {
		if x == f {
			s.faults = append(s.faults[:i], s.faults[i+1:]...)
			return
		}
	}
}

// clear removes every fault.
func (s *rtServer) clear() {
	s.mu.Lock()
	s.faults = nil
	s.mu.Unlock()
}

// mark returns the number of requests so far, for since.
func (s *rtServer) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.log)
}

// since returns the requests after mark m whose path contains sub.
func (s *rtServer) since(m int, sub string) []rtReq {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []rtReq
	for _, r := range s.log[m:] {
		if strings.Contains(r.URL(), sub) {
			out = append(out, r)
		}
	}
	return out
}

func (s *rtServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	s.mu.Lock()
	s.log = append(s.log, rtReq{Method: r.Method, Host: host, Path: r.URL.Path, Query: r.URL.RawQuery, UA: r.UserAgent(), At: time.Now()})
	var f *fault
	for _, x := range s.faults {
		if x.match(r) && (x.times == 0 || x.n < x.times) {
			x.n++
			f = x
			break
		}
	}
	site := s.sites[host]
	hash := s.hash[host]
	s.mu.Unlock()
	if site == nil {
		http.Error(w, "unknown host", http.StatusMisdirectedRequest)
		return
	}
	if f == nil {
		site.ServeHTTP(w, r)
		return
	}
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-r.Context().Done():
			return
		}
	}
	if f.hang != nil {
		select {
		case <-f.hang:
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case f.drop:
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
			}
		}
	case f.status != 0:
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, http.StatusText(f.status), f.status)
	case f.body != "":
		w.Header().Set("Cache-Control", "no-store")
		if strings.HasSuffix(r.URL.Path, ".js") {
			w.Header().Set("Content-Type", "text/javascript")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.Write([]byte(f.body))
	case f.hash != "" || f.edit != nil:
		// A fresh answer: no revalidation against the real file.
		r.Header.Del("If-Modified-Since")
		r.Header.Del("If-None-Match")
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.Header().Del("Last-Modified")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(rec.Code)
		body := rec.Body.Bytes()
		if f.hash != "" {
			body = bytes.ReplaceAll(body, []byte(hash), []byte(f.hash))
		}
		if f.edit != nil {
			body = f.edit(body)
		}
		w.Write(body)
	default:
		site.ServeHTTP(w, r)
	}
}

// tagStandIn stands in for www.googletagmanager.com: gtm.js and gtag/js
// that record that they ran, and a log of what was asked.
type tagStandIn struct {
	srv *httptest.Server
	mu  sync.Mutex
	log []string
}

func newTagStandIn(t *testing.T) *tagStandIn {
	ts := &tagStandIn{}
	ts.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.mu.Lock()
		ts.log = append(ts.log, r.URL.RequestURI())
		ts.mu.Unlock()
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write([]byte(`(window.__tagStandIn = window.__tagStandIn || []).push(` + jsStr(r.URL.RequestURI()) + `);`))
	}))
	t.Cleanup(ts.srv.Close)
	return ts
}

func (ts *tagStandIn) requests() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]string(nil), ts.log...)
}

func (ts *tagStandIn) port() string {
	u, _ := url.Parse(ts.srv.URL)
	return u.Port()
}

// siteAnalytics is the analytics block of the repository's site.yaml: the
// company's tag IDs and the vendor's script origin.
func siteAnalytics(t *testing.T) config.Analytics {
	t.Helper()
	cfg, err := config.Load(os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Analytics.Enabled() {
		t.Fatal("site.yaml declares no analytics block: no tag can load after consent")
	}
	return cfg.Analytics
}

// withoutAnalytics is site.yaml without its analytics block (comments are
// lost, which a test build does not need).
func withoutAnalytics(t *testing.T) func([]byte) []byte {
	return func(src []byte) []byte {
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Fatal(err)
		}
		root := doc.Content[0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "analytics" {
				root.Content = append(root.Content[:i], root.Content[i+2:]...)
				break
			}
		}
		out, err := yaml.Marshal(&doc)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// buildVariant builds a copy of the repository's site with extra site.yaml
// lines, judged against date.
func buildVariant(t *testing.T, extra, date string) (out string, rep *build.Report) {
	t.Helper()
	return buildVariantFrom(t, func(b []byte) []byte { return append(b, extra...) }, date)
}

// buildVariantFrom builds a copy of the repository's site with site.yaml
// changed by edit, judged against date.
func buildVariantFrom(t *testing.T, edit func([]byte) []byte, date string) (out string, rep *build.Report) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	for _, d := range []string{"content", "templates", "assets"} {
		if err := os.CopyFS(filepath.Join(src, d), os.DirFS(filepath.Join("..", d))); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"site.yaml", "schema.yaml", "package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join("..", f))
		if os.IsNotExist(err) && f == "schema.yaml" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if f == "site.yaml" {
			b = edit(b)
		}
		if err := os.WriteFile(filepath.Join(src, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nm, err := filepath.Abs(filepath.Join("..", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nm, filepath.Join(src, "node_modules")); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(dir, "public")
	rep, err = build.Run(context.Background(), build.Options{Source: src, Out: out, Date: date, Minify: true})
	if err != nil {
		t.Fatalf("building a variant of the site on %s: %v", date, err)
	}
	return out, rep
}

// siteHandler serves a built site with its redirects and header rules (the
// CSP derived from its config), as the hosts and the dev server do.
func siteHandler(t *testing.T, out string, rep *build.Report) http.Handler {
	h, err := hosting.NewHandler(out, []string{"/pl", "/en"}, rep.RedirectTable, rep.HeaderRules)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func readHash(t *testing.T, out string) string {
	b, err := os.ReadFile(filepath.Join(out, "page-data", "app-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), `"webpackCompilationHash":"`)
	h, _, _ := strings.Cut(rest, `"`)
	return h
}
