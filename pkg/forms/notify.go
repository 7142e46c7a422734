package forms

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Sender delivers one notification of a stored submission.
type Sender interface {
	Kind() string
	Send(ctx context.Context, jobID string, rec *Record) error
}

// MailConfig configures the e-mail to the sales team.
type MailConfig struct {
	URL  string // smtp://user:pass@host:port?tls=none|starttls|tls
	From string
	To   []string
}

// Mailer sends the notification e-mail through SMTP (go-mail: addresses and
// headers are encoded by the library; visitor text goes only in the body and
// in a parsed Reply-To address).
type Mailer struct {
	cfg    MailConfig
	schema *Schema
	opts   []gomail.Option
	host   string
}

// NewMailer checks the configuration.
func NewMailer(cfg MailConfig, schema *Schema) (*Mailer, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, fmt.Errorf("--smtp %q: want smtp://[user:pass@]host:port[?tls=none|starttls|tls]", redactURL(cfg.URL))
	}
	if !ValidEmail(cfg.From) {
		return nil, fmt.Errorf("--mail-from %q is not a bare e-mail address", cfg.From)
	}
	if len(cfg.To) == 0 {
		return nil, errors.New("--mail-to: name at least one recipient")
	}
	for _, t := range cfg.To {
		if !ValidEmail(t) {
			return nil, fmt.Errorf("--mail-to %q is not a bare e-mail address", t)
		}
	}
	opts := []gomail.Option{gomail.WithTimeout(20 * time.Second)}
	port := 25
	tlsMode := u.Query().Get("tls")
	if u.Scheme == "smtps" {
		tlsMode = "tls"
	}
	switch tlsMode {
	case "", "starttls":
		opts = append(opts, gomail.WithTLSPortPolicy(gomail.TLSMandatory))
		port = 587
	case "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case "tls":
		opts = append(opts, gomail.WithSSL())
		port = 465
	default:
		return nil, fmt.Errorf("--smtp: tls=%q (want none, starttls or tls)", tlsMode)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("--smtp: port %q", p)
		}
		port = n
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil {
		pw, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(u.User.Username()), gomail.WithPassword(pw))
	}
	return &Mailer{cfg: cfg, schema: schema, opts: opts, host: u.Hostname()}, nil
}

// Kind is KindEmail.
func (m *Mailer) Kind() string { return KindEmail }

// Message builds the e-mail of a submission.
func (m *Mailer) Message(jobID string, rec *Record) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	if err := msg.From(m.cfg.From); err != nil {
		return nil, err
	}
	if err := msg.To(m.cfg.To...); err != nil {
		return nil, err
	}
	for _, f := range m.schema.Fields {
		if f.Type == "email" && ValidEmail(rec.Values[f.Name]) {
			if err := msg.ReplyTo(rec.Values[f.Name]); err != nil {
				return nil, err
			}
			break
		}
	}
	msg.Subject(m.schema.Subject + " " + rec.ID)
	// The outbox row's id makes the Message-ID: a resend after a crash is
	// recognisably the same message.
	domain := m.cfg.From[strings.LastIndexByte(m.cfg.From, '@')+1:]
	msg.SetMessageIDWithValue(jobID + "@" + domain)
	msg.SetDateWithValue(rec.CreatedAt)
	msg.SetBodyString(gomail.TypeTextPlain, MailBody(m.schema, rec))
	return msg, nil
}

// MailBody is the plain-text body: every field with its label, the consents.
func MailBody(s *Schema, rec *Record) string {
	var b strings.Builder
	ui := s.UI[s.Lang(rec.Lang)]
	fmt.Fprintf(&b, "%s %s\n\n", s.Subject, rec.ID)
	for _, f := range s.Fields {
		fmt.Fprintf(&b, "%s: %s\n", ui.Labels[f.Name], rec.Values[f.Name])
	}
	fmt.Fprintf(&b, "\nLanguage: %s\nPage: %s\nReceived: %s\n\nConsents:\n", rec.Lang, rec.Page, rec.CreatedAt.UTC().Format(time.RFC3339))
	for _, c := range rec.Consents {
		g := "no"
		if c.Granted {
			g = "yes"
		}
		fmt.Fprintf(&b, "- %s: %s (text version %s, sha256 %s)\n", c.Type, g, c.Version, c.TextHash)
	}
	return b.String()
}

// Send delivers the e-mail.
func (m *Mailer) Send(ctx context.Context, jobID string, rec *Record) error {
	msg, err := m.Message(jobID, rec)
	if err != nil {
		return err
	}
	c, err := gomail.NewClient(m.host, m.opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, msg)
}

// Webhook posts the submission as JSON, signed with HMAC-SHA256.
type Webhook struct {
	// Event names the event in the JSON (the schema's event).
	Event  string
	URL    string
	Secret []byte
	Client *http.Client
}

// Kind is KindWebhook.
func (w *Webhook) Kind() string { return KindWebhook }

// Signature is the value of the X-Sitegen-Signature header: "sha256=" and
// the hex HMAC-SHA256 of "<timestamp>.<body>" under the secret.
func Signature(secret []byte, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(timestamp))
	mac.Write([]byte("."))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// Send posts the record; any answer but 2xx is a failure.
func (w *Webhook) Send(ctx context.Context, jobID string, rec *Record) error {
	body, err := json.Marshal(struct {
		Event string `json:"event"`
		*Record
	}{w.Event, rec})
	if err != nil {
		return err
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Sitegen-Timestamp", ts)
	req.Header.Set("X-Sitegen-Signature", Signature(w.Secret, ts, body))
	req.Header.Set("Idempotency-Key", jobID)
	c := w.Client
	if c == nil {
		c = &http.Client{Timeout: 20 * time.Second}
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("webhook answered %s", res.Status)
	}
	return nil
}

// Backoff is the wait before attempt n+1 (n failed attempts so far):
// 5 s doubling up to an hour, with ±20 % jitter.
func Backoff(n int) time.Duration {
	d := 5 * time.Second
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	d = min(d, time.Hour)
	j := time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	return j
}

// ChannelHealth is what /healthz shows of one notification channel.
type ChannelHealth struct {
	LastSuccess time.Time `json:"lastSuccess,omitzero"`
	LastFailure time.Time `json:"lastFailure,omitzero"`
	LastError   string    `json:"lastError,omitempty"`
	Failing     bool      `json:"failing"` // the last attempt failed
}

// Worker delivers outbox rows: it claims due rows, sends them and marks them
// done or schedules a retry.
type Worker struct {
	Store   *Store
	Senders []Sender
	Owner   string // instance id (leases)
	Lease   time.Duration
	Poll    time.Duration
	Log     *slog.Logger
	Backoff func(int) time.Duration

	wake   chan struct{}
	mu     sync.Mutex
	health map[string]ChannelHealth
}

// NewWorker returns a worker for the senders; owner names this instance.
func NewWorker(store *Store, senders []Sender, owner string, log *slog.Logger) *Worker {
	return &Worker{Store: store, Senders: senders, Owner: owner, Log: log, Lease: 2 * time.Minute, Poll: time.Second,
		Backoff: Backoff, wake: make(chan struct{}, 1), health: map[string]ChannelHealth{}}
}

// Wake asks the worker to look at the outbox now.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Health returns the state of each channel.
func (w *Worker) Health() map[string]ChannelHealth {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]ChannelHealth{}
	for _, s := range w.Senders {
		out[s.Kind()] = w.health[s.Kind()]
	}
	return out
}

func (w *Worker) kinds() []string {
	var k []string
	for _, s := range w.Senders {
		k = append(k, s.Kind())
	}
	return k
}

// Run delivers until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	t := time.NewTicker(w.Poll)
	defer t.Stop()
	for {
		for {
			n, err := w.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				w.Log.Error("outbox", "err", err)
			}
			if n == 0 || err != nil || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.wake:
		}
	}
}

// RunOnce claims one round of due rows and delivers them; it returns how
// many it claimed.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	jobs, err := w.Store.Claim(ctx, w.Owner, w.kinds(), time.Now(), w.Lease, 16)
	if err != nil {
		return 0, err
	}
	senders := map[string]Sender{}
	for _, s := range w.Senders {
		senders[s.Kind()] = s
	}
	for _, j := range jobs {
		w.deliver(ctx, senders[j.Kind], j)
	}
	return len(jobs), nil
}

func (w *Worker) deliver(ctx context.Context, s Sender, j Job) {
	rec, err := w.Store.Submission(ctx, j.SubmissionID)
	if errors.Is(err, sql.ErrNoRows) {
		// Erased before it was sent: nothing to send.
		w.Store.Done(ctx, w.Owner, j.ID, time.Now())
		return
	}
	if err == nil {
		sctx, cancel := context.WithTimeout(ctx, w.Lease/2)
		err = s.Send(sctx, j.ID, rec)
		cancel()
	}
	now := time.Now()
	w.mu.Lock()
	h := w.health[j.Kind]
	if err != nil {
		h.LastFailure, h.LastError, h.Failing = now, err.Error(), true
	} else {
		h.LastSuccess, h.LastError, h.Failing = now, "", false
	}
	w.health[j.Kind] = h
	w.mu.Unlock()
	if err != nil {
		next := now.Add(w.Backoff(j.Attempts + 1))
		w.Log.Warn("notification failed; will retry", "kind", j.Kind, "submission", j.SubmissionID, "attempt", j.Attempts+1, "retry_at", next.UTC().Format(time.RFC3339), "err", err)
		if err := w.Store.Retry(context.WithoutCancel(ctx), w.Owner, j.ID, next, err.Error()); err != nil {
			w.Log.Error("outbox", "err", err)
		}
		return
	}
	if err := w.Store.Done(context.WithoutCancel(ctx), w.Owner, j.ID, now); err != nil {
		w.Log.Error("outbox", "err", err)
		return
	}
	w.Log.Info("notification sent", "kind", j.Kind, "submission", j.SubmissionID)
}
