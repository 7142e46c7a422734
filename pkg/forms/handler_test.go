package forms

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

type testService struct {
	*Service
	log *logBuffer
	srv *httptest.Server
}

func startTest(t *testing.T, dbURL string, cfg ServerConfig, s *Schema) *testService {
	t.Helper()
	if dbURL == "" {
		dbURL = "sqlite:" + filepath.Join(t.TempDir(), "forms.db")
	}
	lb := &logBuffer{}
	cfg.DB = dbURL
	cfg.Log = testLogger(lb)
	svc, err := Start(context.Background(), cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler)
	t.Cleanup(func() {
		srv.Close()
		svc.Close()
	})
	return &testService{Service: svc, log: lb, srv: srv}
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func postForm(t *testing.T, base string, v url.Values, hdr map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/api/demo", strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, x := range hdr {
		req.Header.Set(k, x)
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func postJSON(t *testing.T, base string, body any, hdr map[string]string) (*http.Response, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", base+"/api/demo", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	for k, x := range hdr {
		req.Header.Set(k, x)
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res, out
}

func validJSON() map[string]any {
	return map[string]any{"name": "Jan", "companyName": "ACME", "email": "jan@example.com", "phone": "601 234 567",
		"marketingEmail": true, "phoneContact": "yes", "lang": "en", "page": "/en/about-us/contact/", "idempotencyKey": "test-key-0001"}
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String()
}

func TestPlainPostRedirectsToLocalizedThanks(t *testing.T) {
	ts := startTest(t, "", ServerConfig{}, testSchema(t))
	for lang, want := range map[string]string{"pl": "/pl/podziekowanie/", "en": "/en/thanks/"} {
		v := validValues()
		v.Set("lang", lang)
		v.Set("email", lang+"@example.com")
		v.Set("redirect", "https://evil.example/") // never followed
		res := postForm(t, ts.srv.URL, v, nil)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
			t.Errorf("%s: %d Location %q, want 303 %s", lang, res.StatusCode, res.Header.Get("Location"), want)
		}
	}
	recs, _ := ts.Store.Records(context.Background(), Filter{})
	if len(recs) != 2 {
		t.Fatalf("%d stored, want 2", len(recs))
	}
	mustNotContain(t, "the log", ts.log.String(), "pl@example.com", "en@example.com", "Jan", "ACME", "601 234 567", "601234567") // not a bare "601": hex submission ids contain it by chance
}

func TestScriptPost(t *testing.T) {
	ts := startTest(t, "", ServerConfig{}, testSchema(t))
	res, out := postJSON(t, ts.srv.URL, validJSON(), nil)
	if res.StatusCode != http.StatusCreated || out["id"] == "" || out["redirect"] != "/en/thanks/" {
		t.Fatalf("%d %v", res.StatusCode, out)
	}
	// The same post again (a retry): 201 with the same id, stored once.
	res2, out2 := postJSON(t, ts.srv.URL, validJSON(), nil)
	if res2.StatusCode != http.StatusCreated || out2["id"] != out["id"] {
		t.Fatalf("retry: %d %v, want the id %v", res2.StatusCode, out2, out["id"])
	}
	recs, _ := ts.Store.Records(context.Background(), Filter{})
	if len(recs) != 1 {
		t.Fatalf("%d stored, want 1", len(recs))
	}
	bad := validJSON()
	bad["email"] = "Jan <jan@example.com>"
	bad["phoneContact"] = false
	delete(bad, "name")
	res, out = postJSON(t, ts.srv.URL, bad, nil)
	errs, _ := out["errors"].(map[string]any)
	if res.StatusCode != http.StatusUnprocessableEntity || errs["email"] != CodeEmail || errs["phoneContact"] != CodeConsent || errs["name"] != CodeRequired || len(errs) != 3 {
		t.Fatalf("%d %v", res.StatusCode, out)
	}
}

func TestNoScriptErrorPage(t *testing.T) {
	ts := startTest(t, "", ServerConfig{}, testSchema(t))
	v := validValues()
	v.Set("lang", "en")
	v.Set("email", "not an address")
	v.Set("companyName", `<script>alert(1)</script>`)
	v.Del("phoneContact")
	res := postForm(t, ts.srv.URL, v, nil)
	page := body(t, res)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		`<html lang="en">`,
		`en fix`, // the heading in the visitor's language
		`value="not an address"`,
		`value="&lt;script&gt;alert(1)&lt;/script&gt;"`, // kept, escaped
		`value="Jan"`,
		`id="lead-form-email" name="email" type="email" value="not an address" autocomplete="email" required maxlength="254" aria-invalid="true" aria-describedby="lead-form-email-error" autofocus>`,
		`<p class="error" id="lead-form-email-error">en:email</p>`,
		`<p class="error" id="lead-form-phoneContact-error">en:consent</p>`,
		`name="marketingEmail" value="yes" checked`,
		`role="alert"`,
		`action="/api/demo"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, "<script>") {
		t.Error("typed markup is not escaped")
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self'") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q", csp)
	}
	// Polish from Accept-Language when the form does not say.
	v.Del("lang")
	res = postForm(t, ts.srv.URL, v, map[string]string{"Accept-Language": "pl-PL,pl;q=0.9"})
	if p := body(t, res); !strings.Contains(p, `<html lang="pl">`) || !strings.Contains(p, "pl:email") {
		t.Error("no Polish page for Accept-Language: pl")
	}
}

func TestHoneypotKeptApart(t *testing.T) {
	ts := startTest(t, "", ServerConfig{WebhookURL: "http://127.0.0.1:1/", WebhookSecret: "0123456789abcdef"}, testSchema(t))
	v := validValues()
	v.Set(testHoneypot, "I am a bot")
	res := postForm(t, ts.srv.URL, v, nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("honeypot post: %d, want the same 303 as a person", res.StatusCode)
	}
	real, _ := ts.Store.Records(context.Background(), Filter{})
	spam, _ := ts.Store.Records(context.Background(), Filter{Spam: true})
	if len(real) != 0 || len(spam) != 1 || spam[0].Spam != "honeypot" {
		t.Fatalf("real %d, spam %+v", len(real), spam)
	}
	stats, _ := ts.Store.Stats(context.Background())
	if stats[KindWebhook].Pending != 0 {
		t.Error("spam was queued for notification")
	}
	if err := ts.Store.Release(context.Background(), spam[0].ID, []string{KindWebhook}); err != nil {
		t.Fatal(err)
	}
	real, _ = ts.Store.Records(context.Background(), Filter{})
	if len(real) != 1 {
		t.Fatal("released spam is not among the submissions")
	}
}

func TestDefences(t *testing.T) {
	s := testSchema(t)
	s.Origin = "https://www.example.com"
	ts := startTest(t, "", ServerConfig{RatePerMinute: 6, Burst: 2, MaxBody: 2048,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}, s)

	t.Run("body limit", func(t *testing.T) {
		v := validValues()
		v.Set("name", strings.Repeat("a", 4000))
		res := postForm(t, ts.srv.URL, v, map[string]string{"X-Forwarded-For": "203.0.113.1"})
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%d, want 413", res.StatusCode)
		}
	})
	t.Run("rate limit per client IP", func(t *testing.T) {
		ip := map[string]string{"X-Forwarded-For": "198.51.100.7, 127.0.0.1"}
		var last *http.Response
		for range 3 {
			v := validValues()
			v.Set("idempotencyKey", NewID())
			last = postForm(t, ts.srv.URL, v, ip)
		}
		if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Retry-After") == "" {
			t.Fatalf("third post: %d Retry-After %q, want 429 with Retry-After", last.StatusCode, last.Header.Get("Retry-After"))
		}
		// Another client behind the same proxy is not limited.
		res := postForm(t, ts.srv.URL, validValues(), map[string]string{"X-Forwarded-For": "198.51.100.8"})
		if res.StatusCode != http.StatusSeeOther {
			t.Errorf("other client: %d", res.StatusCode)
		}
	})
	t.Run("cross-origin post refused", func(t *testing.T) {
		res := postForm(t, ts.srv.URL, validValues(), map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example", "X-Forwarded-For": "192.0.2.1"})
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("%d, want 403", res.StatusCode)
		}
	})
	t.Run("the site's origin may post and read", func(t *testing.T) {
		res, out := postJSON(t, ts.srv.URL, validJSON(), map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://www.example.com", "X-Forwarded-For": "192.0.2.2"})
		if res.StatusCode != http.StatusCreated || res.Header.Get("Access-Control-Allow-Origin") != "https://www.example.com" {
			t.Errorf("%d %v ACAO %q", res.StatusCode, out, res.Header.Get("Access-Control-Allow-Origin"))
		}
	})
	t.Run("preflight", func(t *testing.T) {
		for origin, want := range map[string]int{"https://www.example.com": 204, "https://www.example.com.evil.example": 403, "http://www.example.com": 403} {
			req, _ := http.NewRequest("OPTIONS", ts.srv.URL+"/api/demo", nil)
			req.Header.Set("Origin", origin)
			req.Header.Set("Access-Control-Request-Method", "POST")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != want {
				t.Errorf("%s: %d, want %d", origin, res.StatusCode, want)
			}
			if want == 204 && res.Header.Get("Access-Control-Allow-Origin") != origin {
				t.Errorf("%s: ACAO %q", origin, res.Header.Get("Access-Control-Allow-Origin"))
			}
		}
	})
	t.Run("other media types", func(t *testing.T) {
		req, _ := http.NewRequest("POST", ts.srv.URL+"/api/demo", strings.NewReader("x"))
		req.Header.Set("Content-Type", "text/plain")
		req.Header.Set("X-Forwarded-For", "192.0.2.3")
		res, _ := http.DefaultClient.Do(req)
		res.Body.Close()
		if res.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("%d, want 415", res.StatusCode)
		}
	})
}

func TestClientIPTrustsOnlyConfiguredProxies(t *testing.T) {
	h := &Handler{opts: Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}}
	for _, tt := range []struct{ remote, xff, want string }{
		{"203.0.113.5:1234", "1.2.3.4", "203.0.113.5"},        // not a proxy: header ignored
		{"10.0.0.2:1234", "1.2.3.4", "1.2.3.4"},               // trusted proxy
		{"10.0.0.2:1234", "6.6.6.6, 1.2.3.4", "1.2.3.4"},      // rightmost untrusted
		{"10.0.0.2:1234", "1.2.3.4, 10.0.0.9", "1.2.3.4"},     // chain of proxies
		{"10.0.0.2:1234", "garbage", "10.0.0.2"},              // unparsable
		{"[::ffff:10.0.0.2]:1", "2001:db8::1", "2001:db8::1"}, // mapped IPv4 peer
	} {
		r := httptest.NewRequest("POST", "/api/demo", nil)
		r.RemoteAddr = tt.remote
		r.Header.Set("X-Forwarded-For", tt.xff)
		if got := h.clientIP(r); got != tt.want {
			t.Errorf("%s via %q: %s, want %s", tt.xff, tt.remote, got, tt.want)
		}
	}
}

func TestBatcherClosedRefuses(t *testing.T) {
	s := testSchema(t)
	ts := startTest(t, "", ServerConfig{}, s)
	if _, err := ts.Batcher.Save(context.Background(), newSub(t, s, "key-before00", nil)); err != nil {
		t.Fatal(err)
	}
	ts.Batcher.Close()
	if _, err := ts.Batcher.Save(context.Background(), newSub(t, s, "key-after000", nil)); err != ErrClosed {
		t.Fatalf("after close: %v, want ErrClosed", err)
	}
	recs, _ := ts.Store.Records(context.Background(), Filter{})
	if len(recs) != 1 {
		t.Fatalf("%d stored, want 1", len(recs))
	}
}

func TestExportCSVNeutralizesFormulas(t *testing.T) {
	s := testSchema(t)
	st := openTest(t, "sqlite:"+filepath.Join(t.TempDir(), "f.db"))
	sub := newSub(t, s, "key-csv00000", func(v map[string][]string) {
		v["companyName"] = []string{"=cmd|' /C calc'!A0"}
		v["name"] = []string{"@SUM(A1)"}
	})
	if _, err := st.Insert(context.Background(), []*Submission{sub}, nil); err != nil {
		t.Fatal(err)
	}
	recs, _ := st.Records(context.Background(), Filter{})
	var b strings.Builder
	if err := WriteCSV(&b, recs, []string{"name", "companyName", "email", "phone"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"'@SUM(A1)", `'=cmd|' /C calc'!A0`, "'+48601234567", "consent_marketingEmail", "true,v1,"} {
		if !strings.Contains(out, want) {
			t.Errorf("CSV lacks %s:\n%s", want, out)
		}
	}
	var j strings.Builder
	WriteJSON(&j, recs)
	if !strings.Contains(j.String(), `"companyName": "=cmd|`) {
		t.Errorf("JSON export changes values:\n%s", j.String())
	}
}
