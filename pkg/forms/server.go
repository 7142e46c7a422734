package forms

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sync"
	"time"
)

// ServerConfig is everything `sitegen forms serve` takes.
type ServerConfig struct {
	Listen         string
	DB             string
	SchemaPath     string
	Mail           MailConfig // Mail.URL "" turns e-mail off
	WebhookURL     string
	WebhookSecret  string
	RatePerMinute  float64
	Burst          int
	TrustedProxies []netip.Prefix
	AllowOrigins   []string
	MaxBody        int64
	BatchMax       int
	ShutdownGrace  time.Duration
	Log            *slog.Logger
	// Ready is called with the listening address once the server accepts.
	Ready func(addr string)
	// Preview marks the dev server's forms (sitegen serve): submissions
	// are stored locally and notifying nobody is expected, not warned of.
	Preview bool
}

// Service is a running handler: store, batcher, outbox worker.
type Service struct {
	Store   *Store
	Batcher *Batcher
	Worker  *Worker
	Handler *Handler
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// Start opens the database and starts the batcher and the outbox worker.
func Start(ctx context.Context, cfg ServerConfig, schema *Schema) (*Service, error) {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	var senders []Sender
	if cfg.Mail.URL != "" {
		m, err := NewMailer(cfg.Mail, schema)
		if err != nil {
			return nil, err
		}
		senders = append(senders, m)
	}
	if cfg.WebhookURL != "" {
		if len(cfg.WebhookSecret) < 16 {
			return nil, errors.New("--webhook-secret: set a secret of at least 16 characters (env SITEGEN_FORMS_WEBHOOK_SECRET) to sign the webhook")
		}
		senders = append(senders, &Webhook{Event: schema.Event, URL: cfg.WebhookURL, Secret: []byte(cfg.WebhookSecret)})
	}
	if len(senders) == 0 && !cfg.Preview {
		log.Warn("no notification configured (--smtp, --webhook-url): submissions are stored, nobody is told")
	}
	store, err := Open(ctx, cfg.DB)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	owner := fmt.Sprintf("%s-%d-%s", host, os.Getpid(), NewID()[12:])
	w := NewWorker(store, senders, owner, log)
	var kinds []string
	for _, s := range senders {
		kinds = append(kinds, s.Kind())
	}
	b := NewBatcher(store, kinds, cfg.BatchMax, log, w.Wake)
	h, err := NewHandler(Options{Schema: schema, Batcher: b, Store: store, Worker: w, Log: log, MaxBody: cfg.MaxBody,
		RatePerMinute: cfg.RatePerMinute, Burst: cfg.Burst, TrustedProxies: cfg.TrustedProxies, AllowOrigins: cfg.AllowOrigins})
	if err != nil {
		b.Close()
		store.Close()
		return nil, err
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	svc := &Service{Store: store, Batcher: b, Worker: w, Handler: h, cancel: cancel}
	if len(senders) > 0 {
		svc.wg.Add(1)
		go func() {
			defer svc.wg.Done()
			w.Run(wctx)
		}()
	}
	return svc, nil
}

// Close writes the queued submissions, stops the worker and closes the
// database.
func (s *Service) Close() error {
	s.Batcher.Close()
	s.cancel()
	s.wg.Wait()
	return s.Store.Close()
}

// Serve runs the handler on cfg.Listen until ctx ends, then shuts down
// gracefully: it stops accepting, finishes the requests in flight (their
// submissions are committed before they are answered), then closes.
func Serve(ctx context.Context, cfg ServerConfig) error {
	schema, err := LoadSchema(cfg.SchemaPath)
	if err != nil {
		return err
	}
	svc, err := Start(ctx, cfg, schema)
	if err != nil {
		return err
	}
	defer svc.Close()
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	srv := &http.Server{
		Handler:           svc.Handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(cfg.Log.Handler(), slog.LevelWarn),
	}
	cfg.Log.Info("forms handler listening", "addr", ln.Addr().String(), "endpoint", svc.Handler.Path(), "db", svc.Store.Dialect().String(), "schema", schema.Hash[:12])
	if cfg.Ready != nil {
		cfg.Ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	grace := cfg.ShutdownGrace
	if grace == 0 {
		grace = 20 * time.Second
	}
	cfg.Log.Info("shutting down: finishing requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}
