package forms

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Options configure the HTTP handler.
type Options struct {
	Schema  *Schema
	Batcher *Batcher
	Store   *Store
	Worker  *Worker // for /healthz; may be nil
	Log     *slog.Logger
	// MaxBody is the largest request body in bytes (default 16 KiB).
	MaxBody int64
	// RatePerMinute and Burst limit posts per client IP; 0 turns it off.
	RatePerMinute float64
	Burst         int
	// TrustedProxies: only for a peer in these ranges is the client IP read
	// from X-Forwarded-For.
	TrustedProxies []netip.Prefix
	// AllowOrigins are the exact origins allowed to post cross-origin (the
	// schema's site origin is always among them).
	AllowOrigins []string
	Now          func() time.Time
}

// Handler answers form posts and /healthz.
type Handler struct {
	opts    Options
	path    string
	origins map[string]bool
	cop     *http.CrossOriginProtection
	limits  *limiter
	page    *pageRenderer
	probe   probeResult
}

// EndpointPath is the path part of the schema's endpoint.
func (s *Schema) EndpointPath() string {
	if u, err := url.Parse(s.Endpoint); err == nil && u.Path != "" {
		return u.Path
	}
	return s.Endpoint
}

// NewHandler returns the handler.
func NewHandler(o Options) (*Handler, error) {
	if o.Schema == nil || o.Batcher == nil || o.Store == nil {
		return nil, errors.New("forms handler: schema, batcher and store are required")
	}
	if o.MaxBody == 0 {
		o.MaxBody = 16 << 10
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	h := &Handler{opts: o, path: o.Schema.EndpointPath(), origins: map[string]bool{}, cop: http.NewCrossOriginProtection()}
	origins := append([]string{}, o.AllowOrigins...)
	if o.Schema.Origin != "" {
		origins = append(origins, o.Schema.Origin)
	}
	for _, or := range origins {
		if err := h.cop.AddTrustedOrigin(or); err != nil {
			return nil, err
		}
		h.origins[or] = true
	}
	h.cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, http.StatusForbidden, "cross_origin", "cross-origin request refused")
	}))
	if o.RatePerMinute > 0 {
		burst := o.Burst
		if burst <= 0 {
			burst = 5
		}
		h.limits = newLimiter(rate.Limit(o.RatePerMinute/60), burst)
	}
	page, err := newPageRenderer(o.Schema)
	if err != nil {
		return nil, err
	}
	h.page = page
	return h, nil
}

// Path is where the handler takes posts.
func (h *Handler) Path() string { return h.path }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/healthz" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		h.health(w, r)
	case r.URL.Path != h.path:
		http.NotFound(w, r)
	case r.Method == http.MethodOptions:
		h.preflight(w, r)
	case r.Method == http.MethodPost:
		if err := h.cop.Check(r); err != nil {
			h.fail(w, r, http.StatusForbidden, "cross_origin", "cross-origin request refused")
			return
		}
		h.cors(w, r)
		h.post(w, r)
	default:
		w.Header().Set("Allow", "POST, OPTIONS")
		h.fail(w, r, http.StatusMethodNotAllowed, "method", "method not allowed")
	}
}

// cors allows exactly the configured origins to read the answer.
func (h *Handler) cors(w http.ResponseWriter, r *http.Request) bool {
	w.Header().Add("Vary", "Origin")
	o := r.Header.Get("Origin")
	if o == "" || !h.origins[o] {
		return false
	}
	w.Header().Set("Access-Control-Allow-Origin", o)
	return true
}

func (h *Handler) preflight(w http.ResponseWriter, r *http.Request) {
	if !h.cors(w, r) {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	w.Header().Set("Access-Control-Allow-Methods", "POST")
	w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Accept")
	w.Header().Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}

func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// fail answers an error that is not about a field.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, status int, code, text string) {
	if wantsJSON(r) {
		writeJSON(w, status, map[string]string{"error": code})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, text, status)
}

func (h *Handler) post(w http.ResponseWriter, r *http.Request) {
	ip := h.clientIP(r)
	if h.limits != nil {
		if wait := h.limits.allow(ip, h.opts.Now()); wait > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			h.fail(w, r, http.StatusTooManyRequests, "rate_limited", "too many requests; try again later")
			return
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			h.fail(w, r, http.StatusRequestEntityTooLarge, "too_large", "request too large")
			return
		}
		h.fail(w, r, http.StatusBadRequest, "bad_request", "could not read the request")
		return
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var in Input
	switch ct {
	case "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			h.fail(w, r, http.StatusBadRequest, "bad_request", "malformed form data")
			return
		}
		in = ParseForm(h.opts.Schema, form)
	case "application/json":
		in, err = ParseJSON(h.opts.Schema, body)
		if err != nil {
			h.fail(w, r, http.StatusBadRequest, "bad_request", "malformed JSON")
			return
		}
	default:
		h.fail(w, r, http.StatusUnsupportedMediaType, "unsupported_media_type", "send application/x-www-form-urlencoded or application/json")
		return
	}
	s := h.opts.Schema
	lang := in.Lang
	if !contains(s.Locales, lang) {
		lang = s.LangFromAcceptLanguage(r.Header.Get("Accept-Language"))
	}
	lang = s.Lang(lang)
	in.Lang = lang
	sub, errs := s.Validate(in)
	if len(errs) > 0 {
		if wantsJSON(r) {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"errors": errs})
			return
		}
		h.page.write(w, http.StatusUnprocessableEntity, lang, in, errs, "")
		return
	}
	now := h.opts.Now().UTC()
	sub.ID = NewID()
	sub.CreatedAt = now
	sub.Consents = s.Records(in, sub.Lang, sub.Page, now)
	if sub.Key == "" {
		sub.Key = DerivedKey(sub, now)
	}
	saved, err := h.opts.Batcher.Save(r.Context(), sub)
	if err != nil {
		h.opts.Log.Error("storing a submission failed", "id", sub.ID, "err", err)
		w.Header().Set("Retry-After", "30")
		if wantsJSON(r) {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "unavailable"})
			return
		}
		h.page.write(w, http.StatusServiceUnavailable, lang, in, nil, s.UI[lang].Unavailable)
		return
	}
	h.opts.Log.Info("submission stored", "id", saved.ID, "duplicate", saved.Duplicate, "spam", sub.Spam != "")
	thanks := s.Thanks[sub.Lang]
	if wantsJSON(r) {
		writeJSON(w, http.StatusCreated, map[string]string{"id": saved.ID, "redirect": thanks})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Location", thanks)
	w.WriteHeader(http.StatusSeeOther)
}

// clientIP is the peer address, or for a trusted proxy the last address in
// X-Forwarded-For that is not a trusted proxy.
func (h *Handler) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	peer = peer.Unmap()
	if !h.trusted(peer) {
		return peer.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		a = a.Unmap()
		if !h.trusted(a) {
			return a.String()
		}
	}
	return peer.String()
}

func (h *Handler) trusted(a netip.Addr) bool {
	for _, p := range h.opts.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Health is the /healthz answer.
type Health struct {
	Status   string                   `json:"status"`   // ok, degraded (notifications failing), down (cannot store posts)
	Database string                   `json:"database"` // ok, unreachable, or cannot commit
	Outbox   map[string]OutboxStats   `json:"outbox"`
	Channels map[string]ChannelHealth `json:"channels"`
}

// healthWindow is how long a failed commit of posts keeps /healthz down
// (unless posts commit again) and how long a write probe's result is
// reused, so that a flood of health checks is not a flood of commits.
const healthWindow = 10 * time.Second

// probeResult is the last write probe's outcome.
type probeResult struct {
	mu  sync.Mutex
	at  time.Time
	err error
}

// canCommit reports why the database cannot store posts now, or nil: the
// last commit of posts failed within healthWindow and none committed
// since, or a write probe (at most one per healthWindow) fails.
func (h *Handler) canCommit(ctx context.Context) error {
	now := time.Now()
	if at, err := h.opts.Batcher.LastCommit(); err != nil && now.Sub(at) < healthWindow {
		return err
	}
	h.probe.mu.Lock()
	defer h.probe.mu.Unlock()
	if h.probe.at.IsZero() || now.Sub(h.probe.at) >= healthWindow || h.probe.err != nil {
		h.probe.at, h.probe.err = now, h.opts.Store.ProbeWrite(ctx)
	}
	return h.probe.err
}

// CheckHealth reports the database and the notification channels.
func (h *Handler) CheckHealth(ctx context.Context) Health {
	hl := Health{Status: "ok", Database: "ok", Outbox: map[string]OutboxStats{}, Channels: map[string]ChannelHealth{}}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	stats, err := h.opts.Store.Stats(ctx)
	if err != nil {
		hl.Status, hl.Database = "down", "unreachable"
		h.opts.Log.Error("health: database", "err", err)
	} else {
		hl.Outbox = stats
		if err := h.canCommit(ctx); err != nil {
			hl.Status, hl.Database = "down", "cannot commit" // the error is logged, not shown
			h.opts.Log.Error("health: database cannot commit", "err", err)
		}
	}
	if h.opts.Worker != nil {
		hl.Channels = h.opts.Worker.Health()
	}
	if hl.Status == "ok" {
		for _, c := range hl.Channels {
			if c.Failing {
				hl.Status = "degraded"
			}
		}
		for _, st := range hl.Outbox {
			if st.Failing > 0 {
				hl.Status = "degraded"
			}
		}
	}
	return hl
}

func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	hl := h.CheckHealth(r.Context())
	status := http.StatusOK
	if hl.Status == "down" {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, hl)
}

// limiter is a token bucket per client IP; idle buckets are dropped.
type limiter struct {
	mu      sync.Mutex
	r       rate.Limit
	burst   int
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(r rate.Limit, burst int) *limiter {
	return &limiter{r: r, burst: burst, buckets: map[string]*bucket{}}
}

// allow takes a token for ip, or returns how long until one is free.
func (l *limiter) allow(ip string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > 10*time.Minute {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[ip]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(l.r, l.burst)}
		l.buckets[ip] = b
	}
	b.seen = now
	res := b.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return d
	}
	return 0
}
