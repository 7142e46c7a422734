package forms

import (
	"context"
	"crypto/hmac"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// mailbox is a real SMTP server in the test process; while down it answers
// every transaction with a 451.
type mailbox struct {
	mu   sync.Mutex
	msgs []*mail.Message
	raw  []string
	rcpt [][]string
	down atomic.Bool
	addr string
	got  chan struct{}
}

type smtpSession struct {
	box  *mailbox
	rcpt []string
}

func (s *smtpSession) Reset()        { s.rcpt = nil }
func (s *smtpSession) Logout() error { return nil }
func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.box.down.Load() {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	return nil
}
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.rcpt = append(s.rcpt, to)
	return nil
}
func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := mail.ReadMessage(strings.NewReader(string(b)))
	if err != nil {
		return err
	}
	s.box.mu.Lock()
	s.box.msgs = append(s.box.msgs, m)
	s.box.raw = append(s.box.raw, string(b))
	s.box.rcpt = append(s.box.rcpt, s.rcpt)
	s.box.mu.Unlock()
	select {
	case s.box.got <- struct{}{}:
	default:
	}
	return nil
}

func startMailbox(t testing.TB) *mailbox {
	t.Helper()
	box := &mailbox{got: make(chan struct{}, 1)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &smtpSession{box: box}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	box.addr = ln.Addr().String()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return box
}

func (b *mailbox) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.msgs)
}

func (b *mailbox) url() string { return "smtp://" + b.addr + "?tls=none" }

// waitFor polls cond (no timing assertion: the deadline only bounds a hang).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMailThroughRealSMTP(t *testing.T) {
	box := startMailbox(t)
	s := testSchema(t)
	ts := startTest(t, "", ServerConfig{Mail: MailConfig{URL: box.url(), From: "forms@botforge.example", To: []string{"sales@botforge.example"}}}, s)
	in := validJSON()
	in["name"] = "Jan\r\nBcc: victim@example.com" // rejected: no control characters
	res, out := postJSON(t, ts.srv.URL, in, nil)
	if res.StatusCode != 422 {
		t.Fatalf("header injection attempt: %d %v", res.StatusCode, out)
	}
	in = validJSON()
	in["name"] = "Zażółć Gęślą"
	res, out = postJSON(t, ts.srv.URL, in, nil)
	if res.StatusCode != 201 {
		t.Fatalf("%d %v", res.StatusCode, out)
	}
	waitFor(t, "the e-mail", func() bool { return box.count() == 1 })
	m := box.msgs[0]
	if got := box.rcpt[0]; len(got) != 1 || got[0] != "sales@botforge.example" {
		t.Errorf("recipients %v", got)
	}
	if rt := m.Header.Get("Reply-To"); !strings.Contains(rt, "jan@example.com") {
		t.Errorf("Reply-To %q", rt)
	}
	if subj := m.Header.Get("Subject"); subj != "Lead "+out["id"].(string) {
		t.Errorf("Subject %q", subj)
	}
	b := mailBody(t, m)
	for _, want := range []string{"en Name: Zażółć Gęślą", "en Company: ACME", "E-mail: jan@example.com", "en Phone: +48601234567", "marketingEmail: yes (text version v1"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the body lacks %q:\n%s", want, b)
		}
	}
	waitFor(t, "the outbox row to be done", func() bool {
		st, _ := ts.Store.Stats(context.Background())
		return st[KindEmail].Pending == 0
	})
	mustNotContain(t, "the log", ts.log.String(), "jan@example.com", "Zażółć", "+48601234567")
}

func TestMailOutageLosesNothing(t *testing.T) {
	box := startMailbox(t)
	box.down.Store(true)
	s := testSchema(t)
	ts := startTest(t, "", ServerConfig{Mail: MailConfig{URL: box.url(), From: "forms@botforge.example", To: []string{"sales@botforge.example"}}}, s)
	ts.Worker.Backoff = func(int) time.Duration { return 50 * time.Millisecond }
	for i := range 3 {
		in := validJSON()
		in["idempotencyKey"] = fmt.Sprintf("outage-%04d", i)
		if res, out := postJSON(t, ts.srv.URL, in, nil); res.StatusCode != 201 {
			t.Fatalf("%d %v", res.StatusCode, out)
		}
	}
	waitFor(t, "/healthz to show the outage", func() bool {
		hl := ts.Handler.CheckHealth(context.Background())
		return hl.Status == "degraded" && hl.Channels[KindEmail].Failing && hl.Outbox[KindEmail].Failing > 0
	})
	res, err := http.Get(ts.srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var hl Health
	json.NewDecoder(res.Body).Decode(&hl)
	res.Body.Close()
	if hl.Status != "degraded" || hl.Outbox[KindEmail].Pending != 3 || !strings.Contains(hl.Channels[KindEmail].LastError, "451") {
		t.Errorf("/healthz during the outage: %+v", hl)
	}
	if !strings.Contains(ts.log.String(), "notification failed; will retry") {
		t.Error("the outage is not in the log")
	}
	box.down.Store(false)
	waitFor(t, "the three e-mails after the outage", func() bool { return box.count() == 3 })
	waitFor(t, "/healthz to recover", func() bool { return ts.Handler.CheckHealth(context.Background()).Status == "ok" })
}

func TestWebhookSigned(t *testing.T) {
	secret := "0123456789abcdef0123"
	var mu sync.Mutex
	var bodies [][]byte
	fail := atomic.Bool{}
	fail.Store(true)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ts := r.Header.Get("X-Sitegen-Timestamp")
		if !hmac.Equal([]byte(r.Header.Get("X-Sitegen-Signature")), []byte(Signature([]byte(secret), ts, b))) {
			http.Error(w, "bad signature", 401)
			return
		}
		if fail.Load() {
			http.Error(w, "down", 503)
			return
		}
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
	}))
	defer hook.Close()
	ts := startTest(t, "", ServerConfig{WebhookURL: hook.URL, WebhookSecret: secret}, testSchema(t))
	ts.Worker.Backoff = func(int) time.Duration { return 30 * time.Millisecond }
	if res, out := postJSON(t, ts.srv.URL, validJSON(), nil); res.StatusCode != 201 {
		t.Fatalf("%d %v", res.StatusCode, out)
	}
	waitFor(t, "a failed webhook attempt", func() bool { return ts.Worker.Health()[KindWebhook].Failing })
	fail.Store(false)
	waitFor(t, "the webhook", func() bool { mu.Lock(); defer mu.Unlock(); return len(bodies) == 1 })
	var got struct {
		Event  string            `json:"event"`
		ID     string            `json:"id"`
		Values map[string]string `json:"values"`
	}
	json.Unmarshal(bodies[0], &got)
	if got.Event != "lead_submitted" || got.Values["email"] != "jan@example.com" {
		t.Errorf("webhook body %s", bodies[0])
	}
	if Signature([]byte("wrong"), "1", bodies[0]) == Signature([]byte(secret), "1", bodies[0]) {
		t.Error("signature ignores the key")
	}
}

func TestErasedBeforeSendIsNotSent(t *testing.T) {
	s := testSchema(t)
	st := openTest(t, "sqlite:"+t.TempDir()+"/f.db")
	sub := newSub(t, s, "key-erase000", nil)
	if _, err := st.Insert(context.Background(), []*Submission{sub}, []string{KindEmail}); err != nil {
		t.Fatal(err)
	}
	st.Erase(context.Background(), "jan@example.com")
	sent := 0
	w := NewWorker(st, []Sender{senderFunc(func() error { sent++; return nil })}, "me", testLogger(&logBuffer{}))
	w.RunOnce(context.Background())
	if sent != 0 {
		t.Fatal("an erased submission was sent")
	}
}

type senderFunc func() error

func (f senderFunc) Kind() string                                { return KindEmail }
func (f senderFunc) Send(context.Context, string, *Record) error { return f() }

// mailBody decodes a single-part body's transfer encoding.
func mailBody(t *testing.T, m *mail.Message) []byte {
	t.Helper()
	var r io.Reader = m.Body
	switch strings.ToLower(m.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
