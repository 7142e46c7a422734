package build

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sitegen/pkg/output"
)

// nginxPath finds the nginx binary (Debian's package, which .ci/run
// installs), or skips the test; under CI a missing nginx is a failure.
func nginxPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/sbin/nginx"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("nginx is not installed; CI must install it (apt-get install nginx, see .ci/run)")
	}
	t.Skip("nginx is not installed: skipping the test against a real nginx (apt-get install nginx to run it)")
	return ""
}

// startNginx runs nginx in the foreground, as this user, with its own
// prefix and configuration in a temporary folder: a server on
// 127.0.0.1 whose root is out and which includes out/_nginx.conf. It returns
// the base URL; the server stops with the test.
func startNginx(t *testing.T, out string) string {
	t.Helper()
	bin := nginxPath(t)
	prefix := t.TempDir()
	for _, d := range []string{"tmp", "logs"} {
		os.MkdirAll(filepath.Join(prefix, d), 0o755)
	}
	var lastErr string
	for attempt := 0; attempt < 3; attempt++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		conf := fmt.Sprintf(`daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path %[1]s/tmp/body;
    proxy_temp_path %[1]s/tmp/proxy;
    fastcgi_temp_path %[1]s/tmp/fastcgi;
    uwsgi_temp_path %[1]s/tmp/uwsgi;
    scgi_temp_path %[1]s/tmp/scgi;
    server {
        listen %[2]s;
        server_name localhost;
        root %[3]s;
        include %[3]s/%[4]s;
    }
}
`, prefix, addr, out, output.NginxName)
		confPath := filepath.Join(prefix, "nginx.conf")
		if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := exec.Command(bin, "-t", "-q", "-p", prefix, "-c", confPath, "-e", "stderr").CombinedOutput(); err != nil {
			t.Fatalf("nginx rejects the configuration with the generated snippet: %v\n%s", err, msg)
		}
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "-p", prefix, "-c", confPath, "-e", "stderr")
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		// Wait until nginx accepts connections, or exits (a port taken
		// meanwhile: try another).
		for deadline := time.Now().Add(30 * time.Second); ; {
			select {
			case err := <-exited:
				lastErr = fmt.Sprintf("%v: %s", err, stderr.String())
			default:
				c, err := net.Dial("tcp", addr)
				if err == nil {
					c.Close()
					t.Cleanup(func() {
						cmd.Process.Kill()
						<-exited
					})
					return "http://" + addr
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					<-exited
					t.Fatalf("nginx did not start listening on %s: %s", addr, stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
				continue
			}
			break
		}
	}
	t.Fatalf("nginx did not start: %s", lastErr)
	return ""
}

// TestNginxServesBuiltSite builds the fixture site, serves it with a real
// nginx and the generated _nginx.conf, and checks over HTTP: every alias of
// _redirects answers 301 to its page (query kept), unknown paths under a
// locale answer 404 with that locale's page, the home and every page answer
// 200, and the CSP and cache headers are there.
func TestNginxServesBuiltSite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	buildFixture(t, fixture, out)
	base := startNginx(t, out)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
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
	csp := func(t *testing.T, p string, res *http.Response) {
		t.Helper()
		if got := res.Header.Get("Content-Security-Policy"); got != (output.CSP{}).String() { // the fixture configures no third-party origins
			t.Errorf("%s: Content-Security-Policy = %q", p, got)
		}
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q", p, got)
		}
	}

	t.Run("aliases", func(t *testing.T) {
		red, err := os.ReadFile(filepath.Join(out, "_redirects"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(red)), "\n") {
			f := strings.Fields(line)
			if len(f) != 3 || f[2] != "301" {
				continue
			}
			n++
			res, _ := get(t, f[0]+"?utm_source=t&x=1")
			if res.StatusCode != 301 || res.Header.Get("Location") != f[1]+"?utm_source=t&x=1" {
				t.Errorf("%s: %d to %q, want 301 to %s?utm_source=t&x=1", f[0], res.StatusCode, res.Header.Get("Location"), f[1])
			}
			if res, _ := get(t, f[1]); res.StatusCode != 200 {
				t.Errorf("%s redirects to %s, which answers %d", f[0], f[1], res.StatusCode)
			}
		}
		if n < 4 {
			t.Fatalf("only %d redirect rules in the fixture", n)
		}
	})

	t.Run("locale-404", func(t *testing.T) {
		for _, lang := range []string{"pl", "en", "de"} {
			want, err := os.ReadFile(filepath.Join(out, lang, "404.html"))
			if err != nil {
				t.Fatal(err)
			}
			res, body := get(t, "/"+lang+"/nope")
			if res.StatusCode != 404 || body != string(want) {
				t.Errorf("/%s/nope: %d, body is the %s 404 page: %v", lang, res.StatusCode, lang, body == string(want))
			}
			csp(t, "/"+lang+"/nope", res)
		}
		root, _ := os.ReadFile(filepath.Join(out, "404.html"))
		if res, body := get(t, "/nope"); res.StatusCode != 404 || body != string(root) {
			t.Errorf("/nope: %d, the default 404 page: %v", res.StatusCode, body == string(root))
		}
		if !strings.Contains(mustRead(t, filepath.Join(out, "en", "404.html")), `lang="en"`) {
			t.Errorf("en/404.html is not English")
		}
	})

	t.Run("pages", func(t *testing.T) {
		aliases := map[string]bool{} // their index.html is the redirect page for hosts without rules
		for _, line := range strings.Split(mustRead(t, filepath.Join(out, "_redirects")), "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[2] == "301" {
				aliases[f[0]] = true
			}
		}
		n := 0
		err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Name() != "index.html" {
				return err
			}
			rel, _ := filepath.Rel(out, filepath.Dir(p))
			u := "/" + filepath.ToSlash(rel) + "/"
			if rel == "." {
				u = "/"
			}
			if aliases[u] {
				return nil
			}
			n++
			res, _ := get(t, u)
			if res.StatusCode != 200 {
				t.Errorf("%s: %d", u, res.StatusCode)
			}
			csp(t, u, res)
			if cc := res.Header.Get("Cache-Control"); cc != "" {
				t.Errorf("%s: Cache-Control %q; pages have none (the host revalidates)", u, cc)
			}
			return nil
		})
		if err != nil || n < 10 {
			t.Fatalf("%d pages, %v", n, err)
		}
		if res, _ := get(t, "/pl/o-nas"); res.StatusCode != 301 || res.Header.Get("Location") != "/pl/o-nas/" {
			t.Errorf("/pl/o-nas: %d to %q, want 301 to /pl/o-nas/", res.StatusCode, res.Header.Get("Location"))
		}
	})

	t.Run("cache", func(t *testing.T) {
		assets, _ := filepath.Glob(filepath.Join(out, "_assets", "*"))
		if len(assets) == 0 {
			t.Fatal("no assets")
		}
		a := "/_assets/" + filepath.Base(assets[0])
		res, _ := get(t, a)
		if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: %d, Cache-Control %q", a, res.StatusCode, res.Header.Get("Cache-Control"))
		}
		csp(t, a, res)
		res, _ = get(t, "/page-data/app-data.json")
		if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=0, must-revalidate" {
			t.Errorf("page data: %d, Cache-Control %q", res.StatusCode, res.Header.Get("Cache-Control"))
		}
		if res, _ := get(t, "/_assets/nope.js"); res.StatusCode != 404 || res.Header.Get("Cache-Control") != "" {
			t.Errorf("a missing asset: %d, Cache-Control %q (a 404 must not be cached)", res.StatusCode, res.Header.Get("Cache-Control"))
		}
	})

	t.Run("unpublished", func(t *testing.T) {
		for _, p := range output.Unpublished {
			if res, _ := get(t, p); res.StatusCode != 404 {
				t.Errorf("%s: %d, want 404", p, res.StatusCode)
			}
		}
	})
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
