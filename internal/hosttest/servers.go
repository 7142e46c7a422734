// Package hosttest serves a built output tree with each host's own
// software (nginx, Apache, Cloudflare's wrangler pages dev) and checks
// over HTTP that it behaves as the site promises on every host (Suite).
// Netlify has no server that runs offline: its own rule parsers read the
// files instead (Netlify).
package hosttest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"sitegen/internal/waittest"
	"sitegen/pkg/output"
)

// need finds a host's program or skips the test; under CI a missing one is
// a failure (.ci/run installs them all).
func need(t testing.TB, what, install string, paths ...string) string {
	t.Helper()
	for _, p := range paths {
		if filepath.IsAbs(p) {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		} else if found, err := exec.LookPath(p); err == nil {
			return found
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed; CI must install it (%s, see .ci/run)", what, install)
	}
	t.Skipf("%s is not installed: skipping the test against it (%s to run it)", what, install)
	return ""
}

// RepoRoot is the repository's root (where tools/hosts lives).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Readable makes dir and every folder above it readable and searchable by
// everyone: Apache serves as www-data, and t.TempDir's folders are 0700.
func Readable(t testing.TB, dir string) {
	t.Helper()
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		if d == os.TempDir() {
			break
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs cmd until the test ends and waits (at most limit) for addr
// to accept connections.
func start(t testing.TB, name string, cmd *exec.Cmd, addr string, limit time.Duration) *syncBuffer {
	t.Helper()
	logs := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		killGroup(cmd)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Errorf("%s did not stop within 10 s", name)
		}
	}
	for deadline := time.Now().Add(limit); ; {
		select {
		case err := <-exited:
			t.Fatalf("%s exited before listening: %v\n%s", name, err, logs.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Cleanup(stop)
			return logs
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("%s did not listen on %s within %s:\n%s", name, addr, limit, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// syncBuffer is a server's output, written by the process while the test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Nginx serves out with Debian's nginx and out/_nginx.conf, as docs/hosting.md's
// server block says. It returns the base URL.
func Nginx(t testing.TB, out string) string {
	t.Helper()
	bin := need(t, "nginx", "apt-get install nginx", "/usr/sbin/nginx", "nginx")
	prefix := t.TempDir()
	for _, d := range []string{"tmp", "logs"} {
		os.MkdirAll(filepath.Join(prefix, d), 0o755)
	}
	addr := freeAddr(t)
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
        location ^~ /%[5]s { return 500; }
        include %[3]s/%[4]s;
    }
}
`, prefix, addr, out, output.NginxName, Probe500)
	confPath := filepath.Join(prefix, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := waittest.Command(t, bin, "-t", "-q", "-p", prefix, "-c", confPath, "-e", "stderr").CombinedOutput(); err != nil {
		t.Fatalf("nginx rejects the configuration with the generated snippet: %v\n%s", err, msg)
	}
	_ = start(t, "nginx", exec.Command(bin, "-p", prefix, "-c", confPath, "-e", "stderr"), addr, 30*time.Second)
	return "http://" + addr
}

// ApacheOverrides are the AllowOverride forms the generated .htaccess must
// work under: everything, and the minimum docs/hosting.md names.
var ApacheOverrides = []string{"All", "FileInfo Indexes Options"}

// Apache serves out with Debian's apache2 in the foreground, as shared
// hosting would: the document root allows overrides (AllowOverride
// override, one of ApacheOverrides) and the site's rules come only from
// out/.htaccess. The server's own part is Debian's defaults (mod_rewrite,
// mod_headers, mod_alias, mod_dir; .ht* files denied) with MultiViews on,
// which the .htaccess must turn off.
func Apache(t testing.TB, out, override string) string {
	t.Helper()
	bin := need(t, "apache2", "apt-get install apache2", "/usr/sbin/apache2", "apache2")
	// Probe folders answer 500 from a .htaccess of their own, so the site's
	// ErrorDocument lines (inherited from the root's .htaccess) are tested.
	for _, dir := range probeDirs(out) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".htaccess"), []byte("RewriteEngine On\nRewriteRule ^ - [R=500]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	Readable(t, out)
	root := t.TempDir()
	addr := freeAddr(t)
	mods := "/usr/lib/apache2/modules"
	var load strings.Builder
	for _, m := range []string{"mpm_event", "authz_core", "authz_host", "dir", "mime", "negotiation", "rewrite", "headers", "alias"} {
		fmt.Fprintf(&load, "LoadModule %s_module %s/mod_%s.so\n", m, mods, m)
	}
	conf := fmt.Sprintf(`ServerRoot %[1]s
%[4]s
PidFile %[1]s/apache.pid
Listen %[2]s
ServerName localhost
User www-data
Group www-data
ErrorLog /dev/stderr
LogLevel warn
TypesConfig /etc/mime.types
DocumentRoot %[3]s
<Directory />
    AllowOverride None
    Require all denied
</Directory>
<Directory %[3]s>
    Options FollowSymLinks MultiViews
    AllowOverride %[5]s
    Require all granted
</Directory>
<FilesMatch "^\.ht">
    Require all denied
</FilesMatch>
`, root, addr, out, load.String(), override)
	confPath := filepath.Join(root, "apache2.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "APACHE_RUN_DIR="+root, "APACHE_LOCK_DIR="+root, "APACHE_LOG_DIR="+root)
	check := waittest.Command(t, bin, "-f", confPath, "-t")
	check.Env = env
	if msg, err := check.CombinedOutput(); err != nil {
		t.Fatalf("apache2 rejects the configuration: %v\n%s", err, msg)
	}
	cmd := exec.Command(bin, "-f", confPath, "-DFOREGROUND")
	cmd.Env = env
	_ = start(t, "apache2", cmd, addr, 30*time.Second)
	return "http://" + addr
}

// Wrangler serves out with Cloudflare's `wrangler pages dev` (pinned in
// tools/hosts; `make host-tools` installs it). It starts offline with a
// compatibility date its bundled runtime knows.
func Wrangler(t testing.TB, out string) string {
	t.Helper()
	bin := need(t, "wrangler (tools/hosts)", "make host-tools",
		filepath.Join(RepoRoot(), "tools", "hosts", "node_modules", ".bin", "wrangler"))
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin, "pages", "dev", out, "--ip", "127.0.0.1", "--port", port,
		"--inspector-port", "0", "--compatibility-date", WranglerDate, "--log-level", "warn")
	home := t.TempDir() // wrangler writes its logs and state under HOME and .wrangler
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "WRANGLER_SEND_METRICS=false", "CI=true", "NO_COLOR=1")
	// Registered before the server's own stop, so it runs after it: no rule
	// of _redirects or _headers may be one Pages rejects.
	var logs *syncBuffer
	t.Cleanup(func() {
		if logs != nil && strings.Contains(strings.ToLower(logs.String()), "invalid") {
			t.Errorf("wrangler pages dev rejects rules:\n%s", logs.String())
		}
	})
	logs = start(t, "wrangler pages dev", cmd, addr, 90*time.Second)
	return "http://" + addr
}

// Probe500 is the path at which a test server answers 500 (nginx at the
// root; Apache at the root and under each locale's folder).
const Probe500 = "_sitegen-probe-500"

// probeDirs are the folders of out that get Apache's 500 probe: the root's
// and each top folder holding a 500.html (a locale's).
func probeDirs(out string) []string {
	dirs := []string{filepath.Join(out, Probe500)}
	matches, _ := filepath.Glob(filepath.Join(out, "*", "500.html"))
	for _, m := range matches {
		dirs = append(dirs, filepath.Join(filepath.Dir(m), Probe500))
	}
	return dirs
}

// WranglerDate is the compatibility date given to wrangler pages dev: one
// its bundled workerd knows (it refuses later ones offline).
const WranglerDate = "2026-01-01"
