package sitetest

// The runtime's core journeys in a second engine: Debian's firefox-esr,
// driven over WebDriver BiDi by puppeteer-core (tools/browsers, `make
// browser-tools`). The journeys are in firefox/journeys.test.mjs, run by
// node's test runner against the built site behind the runtime tests'
// server (rtServer: every request recorded, failures injected) with the
// real form handler; the script drives the server through a small
// control API of this test (/__sitetest/…).
//
//	SITEGEN_BROWSER=1 go test ./sitetest -run Firefox -v

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitegen/pkg/forms"
)

func firefoxPath(t *testing.T) string {
	t.Helper()
	if os.Getenv("SITEGEN_BROWSER") == "" {
		t.Skip("SITEGEN_BROWSER is not set: skipping the browser tests")
	}
	for _, name := range []string{"firefox-esr", "firefox"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("firefox-esr is not installed; CI must install it (apt-get install firefox-esr)")
	}
	t.Skip("firefox-esr is not installed: skipping the Firefox journeys")
	return ""
}

// puppeteerPath is the puppeteer-core the journeys drive Firefox with
// (make browser-tools); without it the test is skipped, or fails in CI.
func puppeteerPath(t *testing.T) string {
	t.Helper()
	lib, err := filepath.Abs(filepath.Join("..", "tools", "browsers", "node_modules", "puppeteer-core"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lib); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("puppeteer-core is not installed (make browser-tools): %v", err)
		}
		t.Skipf("puppeteer-core is not installed (make browser-tools): %v", err)
	}
	return lib
}

// runFirefoxJourneys runs the node test file script of firefox/ against
// the site at base in firefox-esr, driven by puppeteer-core, and logs its
// report; it fails the test when a journey fails.
func runFirefoxJourneys(t *testing.T, script, base string, limit time.Duration) {
	t.Helper()
	exe, lib := firefoxPath(t), puppeteerPath(t)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--test", "--test-reporter=spec", "--test-concurrency=1", filepath.Join("firefox", script))
	cmd.Env = append(os.Environ(), "SITETEST_BASE="+base, "SITETEST_FIREFOX="+exe, "SITETEST_PUPPETEER="+lib)
	b, err := cmd.CombinedOutput()
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		t.Log(line)
	}
	if err != nil {
		t.Fatalf("the Firefox journeys of %s failed: %v", script, err)
	}
}

func TestFirefox(t *testing.T) {
	firefoxPath(t) // skip before building when there is no Firefox
	puppeteerPath(t)
	out := site(t)
	bs := &browserSuite{out: out}
	mux := http.NewServeMux()
	mux.Handle(demoEndpoint, bs.startForms(t))
	mux.Handle("/", siteHandler(t, out, siteRep))
	srv := &rtServer{sites: map[string]http.Handler{"127.0.0.1": mux}, hash: map[string]string{"127.0.0.1": readHash(t, out)}}
	hs := httptest.NewServer(control(t, srv, bs))
	t.Cleanup(hs.Close)

	runFirefoxJourneys(t, "journeys.test.mjs", hs.URL, 8*time.Minute)
}

type formInfo struct {
	Fields   []string `json:"fields"`
	Consents []string `json:"consents"`
	Thanks   string   `json:"thanks"`
}

// control answers the journeys' requests to the test itself and passes
// everything else to the site server:
//
//	POST /__sitetest/fault?sub=S&status=N&times=K  answer N to the next K (0: all) requests whose path contains S
//	POST /__sitetest/clear                         remove every fault
//	GET  /__sitetest/mark                          the number of requests so far
//	GET  /__sitetest/requests?since=M&sub=S        the requests since mark M whose URL contains S, as "METHOD URL"
//	GET  /__sitetest/stored?email=E                how many form submissions from E the handler stored
//	GET  /__sitetest/form?lang=L                   the demo form's fields, consents and thank-you page
func control(t *testing.T, srv *rtServer, bs *browserSuite) http.Handler {
	answer := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/__sitetest/") {
			srv.ServeHTTP(w, r)
			return
		}
		q := r.URL.Query()
		num := func(k string) int { n, _ := strconv.Atoi(q.Get(k)); return n }
		switch r.URL.Path {
		case "/__sitetest/fault":
			sub := q.Get("sub")
			srv.inject(t, &fault{match: func(r *http.Request) bool { return strings.Contains(r.URL.Path, sub) }, status: num("status"), times: num("times")})
			answer(w, true)
		case "/__sitetest/clear":
			srv.mu.Lock()
			srv.faults = nil
			srv.mu.Unlock()
			answer(w, true)
		case "/__sitetest/mark":
			answer(w, srv.mark())
		case "/__sitetest/requests":
			answer(w, paths(srv.since(num("since"), q.Get("sub"))))
		case "/__sitetest/stored":
			recs, err := bs.formStore.Records(r.Context(), forms.Filter{Email: q.Get("email")})
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			answer(w, len(recs))
		case "/__sitetest/form":
			lang := q.Get("lang")
			f := formInfo{Thanks: bs.formSchema.Thanks[lang]}
			for _, x := range bs.formSchema.Fields {
				f.Fields = append(f.Fields, x.Name)
			}
			for _, c := range bs.formSchema.Consents {
				f.Consents = append(f.Consents, c.Name)
			}
			answer(w, f)
		default:
			http.NotFound(w, r)
		}
	})
}
