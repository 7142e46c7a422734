package hosttest

import (
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sitegen/pkg/output"
)

// Site is what the suite expects of one built output tree.
type Site struct {
	Out       string            // the output folder
	Redirects map[string]string // alias path -> page (build.Report.RedirectTable)
	Locales   []string          // locale prefixes with their own 404 page ("/en")
	Host      *output.Host
	// ServerError are the prefixes whose 500 probe (Probe500) the server
	// answers with an error: "" for the root's, "/en" for a locale's (Try
	// fills it in from the host's HostTest).
	ServerError []string
}

// Try runs the suite on site.Out with site.Host's own software, as its
// HostTest says: served by nginx, Apache or wrangler pages dev, or read by
// the host's own parsers.
func Try(t *testing.T, site Site) {
	ht := site.Host.Test
	switch ht.ServerError {
	case "root":
		site.ServerError = []string{""}
	case "locales":
		site.ServerError = append([]string{""}, site.Locales...)
	}
	servers := map[string]func(testing.TB, string) string{"nginx": Nginx, "wrangler": Wrangler}
	switch {
	case ht.Parsers == "netlify":
		Netlify(t, site)
	case ht.Server == "apache": // under each AllowOverride form docs/hosting.md names
		for _, override := range ApacheOverrides {
			t.Run(override, func(t *testing.T) { Suite(t, Apache(t, site.Out, override), site) })
		}
	case servers[ht.Server] != nil:
		Suite(t, servers[ht.Server](t, site.Out), site)
	default:
		t.Fatalf("host %s: no test server %q and no parsers %q in internal/hosttest", site.Host, ht.Server, ht.Parsers)
	}
}

// Tried are the hosts Try can try: those with rules.
func Tried() []*output.Host {
	var out []*output.Host
	for _, h := range output.Hosts() {
		if !h.RedirectPages() {
			out = append(out, h)
		}
	}
	return out
}

// Suite checks, over HTTP at base, every promise the site makes on any host
// that runs rules: every alias answers 301 to its page with the query kept;
// a missing page under a locale's prefix answers 404 with that locale's 404
// page, elsewhere the site's; the security headers are on every answer;
// fingerprinted assets are immutable for a year, pages, page data and the
// service worker revalidate; a folder without its slash is one redirect
// away from its page; private files answer 404 (a server that forbids
// .ht* files answers 403 before any rule runs: also not served).
func Suite(t *testing.T, base string, site Site) {
	client := &http.Client{
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	get := func(t *testing.T, p string) (*http.Response, string) {
		t.Helper()
		res, err := client.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, string(b)
	}
	// location is a redirect's target as a path with its query (hosts
	// answer absolute or relative URLs).
	location := func(res *http.Response) string {
		u, err := url.Parse(res.Header.Get("Location"))
		if err != nil {
			return res.Header.Get("Location")
		}
		if u.RawQuery != "" {
			return u.Path + "?" + u.RawQuery
		}
		return u.Path
	}
	security := func(t *testing.T, p string, res *http.Response) {
		t.Helper()
		for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Permissions-Policy"} {
			if res.Header.Get(h) == "" {
				t.Errorf("%s (%d): no %s", p, res.StatusCode, h)
			}
		}
		if got := res.Header.Get("X-Content-Type-Options"); got != "" && got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", p, got)
		}
	}
	revalidates := func(t *testing.T, p string, res *http.Response) {
		t.Helper()
		cc := res.Header.Get("Cache-Control")
		if !strings.Contains(cc, "max-age=0") && !strings.Contains(cc, "no-cache") {
			t.Errorf("%s: Cache-Control %q; want it revalidated", p, cc)
		}
	}
	read := func(t *testing.T, rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(site.Out, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	t.Run("redirects", func(t *testing.T) {
		if len(site.Redirects) == 0 {
			t.Fatal("the site has no redirects to check")
		}
		froms := make([]string, 0, len(site.Redirects))
		for f := range site.Redirects {
			froms = append(froms, f)
		}
		sort.Strings(froms)
		for _, from := range froms {
			to := site.Redirects[from]
			bare := strings.TrimSuffix(from, "/")
			for _, p := range []string{bare, bare + "/"} {
				res, _ := get(t, p+"?utm_source=t&x=1")
				if res.StatusCode != 301 || location(res) != to+"?utm_source=t&x=1" {
					t.Errorf("%s?utm_source=t&x=1: %d to %q, want 301 to %s?utm_source=t&x=1", p, res.StatusCode, res.Header.Get("Location"), to)
				}
				security(t, p, res)
			}
			if res, _ := get(t, to); res.StatusCode != 200 {
				t.Errorf("%s redirects to %s, which answers %d", from, to, res.StatusCode)
			}
		}
	})

	t.Run("404", func(t *testing.T) {
		for _, prefix := range append([]string{""}, site.Locales...) {
			want := read(t, strings.TrimPrefix(prefix+"/404.html", "/"))
			for _, p := range []string{prefix + "/no-such-page", prefix + "/no/such/page/"} {
				res, body := get(t, p)
				if res.StatusCode != 404 || body != want {
					t.Errorf("%s: %d, body is %s/404.html: %v", p, res.StatusCode, prefix, body == want)
				}
				security(t, p, res)
				if strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
					t.Errorf("%s: a 404 is cached for a year", p)
				}
			}
		}
	})

	t.Run("error pages", func(t *testing.T) {
		urls := ErrorPageURLs(t, site.Out)
		if len(urls) == 0 {
			t.Fatal("no error page written at a URL of its own")
		}
		for _, u := range urls {
			if res, _ := get(t, u); res.StatusCode != 404 {
				t.Errorf("%s (an error page's own URL): %d, want 404", u, res.StatusCode)
			}
		}
	})

	t.Run("500", func(t *testing.T) {
		for _, prefix := range site.ServerError {
			want := read(t, strings.TrimPrefix(prefix+"/500.html", "/"))
			p := prefix + "/" + Probe500 + "/"
			res, body := get(t, p)
			if res.StatusCode != 500 || body != want {
				t.Errorf("%s: %d, body is %s/500.html: %v", p, res.StatusCode, prefix, body == want)
			}
			security(t, p, res)
		}
	})

	t.Run("headers", func(t *testing.T) {
		res, _ := get(t, "/")
		if res.StatusCode != 200 {
			t.Fatalf("/: %d", res.StatusCode)
		}
		security(t, "/", res)
		revalidates(t, "/", res)
		for _, p := range []string{"/page-data/app-data.json", "/sw.js"} {
			if _, err := os.Stat(filepath.Join(site.Out, p)); err != nil {
				continue
			}
			res, _ := get(t, p)
			if res.StatusCode != 200 {
				t.Errorf("%s: %d", p, res.StatusCode)
			}
			security(t, p, res)
			revalidates(t, p, res)
		}
		assets, _ := filepath.Glob(filepath.Join(site.Out, "_assets", "*.*"))
		if len(assets) == 0 {
			t.Fatal("no assets")
		}
		a := "/_assets/" + filepath.Base(assets[0])
		res, _ = get(t, a)
		if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Cache-Control"), "max-age=31536000") ||
			!strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: %d, Cache-Control %q", a, res.StatusCode, res.Header.Get("Cache-Control"))
		}
		security(t, a, res)
	})

	t.Run("slashes", func(t *testing.T) {
		n := 0
		err := filepath.WalkDir(site.Out, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Name() != "index.html" || n >= 5 {
				return err
			}
			rel, _ := filepath.Rel(site.Out, filepath.Dir(p))
			if rel == "." || strings.HasPrefix(rel, "_") || site.Redirects["/"+filepath.ToSlash(rel)] != "" {
				return nil
			}
			if _, err := os.Stat(filepath.Join(site.Out, rel+".html")); err == nil {
				return nil // /pl/404 is also the file /pl/404.html: some hosts serve it there
			}
			n++
			u := "/" + filepath.ToSlash(rel)
			res, _ := get(t, u)
			if res.StatusCode != 301 && res.StatusCode != 308 || location(res) != u+"/" {
				t.Errorf("%s: %d to %q, want one redirect to %s/", u, res.StatusCode, res.Header.Get("Location"), u)
			}
			if res, _ := get(t, u+"/"); res.StatusCode != 200 {
				t.Errorf("%s/: %d", u, res.StatusCode)
			}
			return nil
		})
		if err != nil || n == 0 {
			t.Fatalf("%d pages checked: %v", n, err)
		}
	})

	t.Run("private", func(t *testing.T) {
		var paths []string
		err := filepath.WalkDir(site.Out, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(site.Out, p)
			if u := "/" + filepath.ToSlash(rel); output.Private(u) {
				paths = append(paths, u)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) == 0 {
			t.Fatal("no private file in the output to check")
		}
		for _, p := range paths {
			res, body := get(t, p)
			secret := read(t, strings.TrimPrefix(p, "/"))
			denied := res.StatusCode == 404 || res.StatusCode == 403 && strings.HasPrefix(p, "/.ht")
			if !denied || strings.Contains(body, strings.TrimSpace(secret)) {
				t.Errorf("%s: %d; a private file must answer 404", p, res.StatusCode)
			}
		}
	})
}

// ErrorPageURLs are the URLs at which the build wrote an error page as a
// page of its own (the folder of an index.html with the bytes of a 404.html
// or 500.html of the output: "/en/404/"), sorted.
func ErrorPageURLs(t testing.TB, out string) []string {
	t.Helper()
	errorPages := map[string]bool{}
	var index []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch d.Name() {
		case "404.html", "500.html":
			b, err := os.ReadFile(p)
			errorPages[string(b)] = true
			return err
		case "index.html":
			index = append(index, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, p := range index {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if errorPages[string(b)] {
			rel, _ := filepath.Rel(out, filepath.Dir(p))
			urls = append(urls, "/"+filepath.ToSlash(rel)+"/")
		}
	}
	sort.Strings(urls)
	return urls
}
