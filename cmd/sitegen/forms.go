package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"sitegen/pkg/devserver"
	"sitegen/pkg/forms"
)

// envPrefix: every `sitegen forms` flag can be set by an environment
// variable, SITEGEN_FORMS_ and the flag's name in capitals with _ for -
// (--webhook-secret: SITEGEN_FORMS_WEBHOOK_SECRET). A flag on the command
// line wins.
const envPrefix = "SITEGEN_FORMS_"

func envName(flag string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

func applyEnv(fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed {
			return
		}
		if v, ok := os.LookupEnv(envName(f.Name)); ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = usageError{fmt.Errorf("%s=%q: %v", envName(f.Name), v, e)}
			}
		}
	})
	return err
}

func newForms(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "forms",
		Short: "Run and operate a form's handler (serve, export, purge, erase, release)",
		Long: `The form handler takes the posts of one of the site's forms (its schema, as
the build wrote it), stores them durably (SQLite or PostgreSQL) and notifies
the team (SMTP, signed webhook). Run one handler, with its own database, per form.
Every flag can also be set by an environment variable: SITEGEN_FORMS_ and the
flag name in capitals (--db: SITEGEN_FORMS_DB).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newFormsServe(stdout, stderr), newFormsExport(stdout), newFormsPurge(stdout), newFormsErase(stdout), newFormsRelease(stdout))
	for _, c := range cmd.Commands() {
		c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
		pre := c.PreRunE
		c.PreRunE = func(c *cobra.Command, args []string) error {
			if err := applyEnv(c.Flags()); err != nil {
				return err
			}
			if pre != nil {
				return pre(c, args)
			}
			return nil
		}
	}
	return cmd
}

func dbFlag(cmd *cobra.Command, db *string) {
	cmd.Flags().StringVar(db, "db", "sqlite:forms.db", "database: sqlite:FILE or postgres://user:pass@host/db")
}

func newFormsServe(stdout, stderr io.Writer) *cobra.Command {
	var cfg forms.ServerConfig
	var mailTo, proxies []string
	var maxBody int
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Take form posts on --listen until SIGINT/SIGTERM",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, p := range proxies {
				pf, err := netip.ParsePrefix(p)
				if err != nil {
					a, err2 := netip.ParseAddr(p)
					if err2 != nil {
						return usageError{fmt.Errorf("--trusted-proxy %q: want an address or a CIDR range", p)}
					}
					pf = netip.PrefixFrom(a, a.BitLen())
				}
				cfg.TrustedProxies = append(cfg.TrustedProxies, pf)
			}
			for _, o := range cfg.AllowOrigins {
				if !strings.HasPrefix(o, "https://") && !strings.HasPrefix(o, "http://") || strings.Count(o, "/") != 2 {
					return usageError{fmt.Errorf("--allow-origin %q: want an exact origin such as https://www.example.com", o)}
				}
			}
			if cfg.RatePerMinute < 0 || maxBody <= 0 {
				return usageError{fmt.Errorf("--rate must be ≥ 0 and --max-body > 0")}
			}
			if cfg.SchemaPath == "" {
				p, err := defaultSchema()
				if err != nil {
					return usageError{err}
				}
				cfg.SchemaPath = p
			}
			cfg.MaxBody = int64(maxBody)
			cfg.Mail.To = mailTo
			cfg.Log = slog.New(slog.NewJSONHandler(stderr, nil))
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			cfg.Ready = func(addr string) { fmt.Fprintf(stdout, "forms handler listening on http://%s\n", addr) }
			return forms.Serve(ctx, cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Listen, "listen", "127.0.0.1:8080", "address to listen on")
	dbFlag(cmd, &cfg.DB)
	f.StringVar(&cfg.SchemaPath, "schema", "", "the form schema the site build wrote (default: the only one in public/_forms)")
	f.StringVar(&cfg.Mail.URL, "smtp", "", "SMTP server for the notification e-mail: smtp://[user:pass@]host:port[?tls=none|starttls|tls]")
	f.StringVar(&cfg.Mail.From, "mail-from", "", "sender address of the notification e-mail")
	f.StringSliceVar(&mailTo, "mail-to", nil, "the sales team's address(es), comma-separated")
	f.StringVar(&cfg.WebhookURL, "webhook-url", "", "POST each submission here as JSON, signed (X-Sitegen-Signature)")
	f.StringVar(&cfg.WebhookSecret, "webhook-secret", "", "HMAC-SHA256 key of the webhook signature (prefer the environment variable)")
	f.Float64Var(&cfg.RatePerMinute, "rate", 6, "posts per minute per client IP (0: no limit)")
	f.IntVar(&cfg.Burst, "burst", 5, "posts a client IP may make at once before --rate applies")
	f.StringSliceVar(&proxies, "trusted-proxy", nil, "addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed")
	f.StringSliceVar(&cfg.AllowOrigins, "allow-origin", nil, "extra exact origins allowed to post cross-origin (the schema's site origin always is)")
	f.IntVar(&maxBody, "max-body", 16<<10, "largest request body in bytes")
	f.IntVar(&cfg.BatchMax, "batch", 256, "most submissions written in one transaction")
	f.DurationVar(&cfg.ShutdownGrace, "shutdown-grace", 20*time.Second, "how long shutdown waits for requests in flight")
	return cmd
}

func openStore(ctx context.Context, db string) (*forms.Store, error) {
	return forms.Open(ctx, db)
}

func newFormsExport(stdout io.Writer) *cobra.Command {
	var db, format, since, email, schemaPath, out string
	var spam bool
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the submissions as CSV or JSON (--email: one person's, for a GDPR access request)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "csv" && format != "json" {
				return usageError{fmt.Errorf("--format %q: want csv or json", format)}
			}
			var f forms.Filter
			if since != "" {
				t, err := forms.ParseSince(since, time.Now())
				if err != nil {
					return usageError{err}
				}
				f.Since = t
			}
			f.Email, f.Spam = email, spam
			var order []string
			if schemaPath != "" {
				s, err := forms.LoadSchema(schemaPath)
				if err != nil {
					return err
				}
				for _, fd := range s.Fields {
					order = append(order, fd.Name)
				}
			}
			st, err := openStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			recs, err := st.Records(cmd.Context(), f)
			if err != nil {
				return err
			}
			w := stdout
			if out != "" && out != "-" {
				file, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
				if err != nil {
					return err
				}
				defer file.Close()
				w = file
			}
			if format == "csv" {
				return forms.WriteCSV(w, recs, order)
			}
			return forms.WriteJSON(w, recs)
		},
	}
	dbFlag(cmd, &db)
	cmd.Flags().StringVar(&format, "format", "csv", "csv or json")
	cmd.Flags().StringVar(&since, "since", "", "only submissions from this date (2026-01-31), time (RFC 3339) or age (30d) on")
	cmd.Flags().StringVar(&email, "email", "", "only the submissions of this e-mail address")
	cmd.Flags().BoolVar(&spam, "spam", false, "export the submissions kept apart as spam instead")
	cmd.Flags().StringVar(&schemaPath, "schema", "", "form schema: CSV columns in the form's order")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to this new file (mode 0600) instead of stdout")
	return cmd
}

func newFormsPurge(stdout io.Writer) *cobra.Command {
	var db, older string
	cmd := &cobra.Command{
		Use:   "purge",
		Short: "Delete submissions (with their consents and notifications) older than --older-than",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := forms.ParseAge(older)
			if err != nil {
				return usageError{fmt.Errorf("--older-than %v", err)}
			}
			st, err := openStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			n, err := st.Purge(cmd.Context(), time.Now().Add(-d))
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "purged %d submission(s) older than %s\n", n, older)
			return nil
		},
	}
	dbFlag(cmd, &db)
	cmd.Flags().StringVar(&older, "older-than", "730d", "age such as 730d or 48h")
	return cmd
}

func newFormsErase(stdout io.Writer) *cobra.Command {
	var db, email string
	cmd := &cobra.Command{
		Use:   "erase",
		Short: "Delete every submission of an e-mail address (GDPR erasure)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !forms.ValidEmail(strings.TrimSpace(email)) {
				return usageError{fmt.Errorf("--email %q: want the person's e-mail address", email)}
			}
			st, err := openStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			n, err := st.Erase(cmd.Context(), email)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "erased %d submission(s)\n", n)
			return nil
		},
	}
	dbFlag(cmd, &db)
	cmd.Flags().StringVar(&email, "email", "", "the e-mail address whose submissions to delete")
	return cmd
}

func newFormsRelease(stdout io.Writer) *cobra.Command {
	var db string
	var mail, webhook bool
	cmd := &cobra.Command{
		Use:   "release ID...",
		Short: "Move submissions kept apart as spam back among the real ones and notify",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var kinds []string
			if mail {
				kinds = append(kinds, forms.KindEmail)
			}
			if webhook {
				kinds = append(kinds, forms.KindWebhook)
			}
			st, err := openStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			for _, id := range args {
				if err := st.Release(cmd.Context(), id, kinds); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "released %s\n", id)
			}
			return nil
		},
	}
	dbFlag(cmd, &db)
	cmd.Flags().BoolVar(&mail, "mail", true, "queue the notification e-mail")
	cmd.Flags().BoolVar(&webhook, "webhook", false, "queue the webhook")
	return cmd
}

// defaultSchema is the schema in public/_forms when the site has exactly one
// form.
func defaultSchema() (string, error) {
	paths, err := filepath.Glob(filepath.Join("public", filepath.FromSlash(forms.SchemaFile("*"))))
	if err != nil {
		return "", err
	}
	switch len(paths) {
	case 0:
		return "", errors.New("--schema: no form schema in public/_forms; build the site first or name the schema file")
	case 1:
		return paths[0], nil
	}
	return "", fmt.Errorf("--schema: the site has %d forms (%s): run one handler per form, each with its own --schema and --db", len(paths), strings.Join(paths, ", "))
}

// writeSchemas copies the form schemas of the build the dev server holds in
// memory into dir, where mountForms reads them.
func writeSchemas(srv *devserver.Server, dir string) error {
	for _, name := range srv.GlobSiteWide(forms.SchemaFile("*")) { // the schemas are site-wide files
		b, _ := srv.File(name)
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("write the form schema: %w", err)
		}
	}
	return nil
}

// mountForms puts the handler of each form whose schema the build wrote
// (with a same-origin endpoint) in front of the static site at the form's
// endpoint. Each form keeps its submissions in its own database: db when
// the site has one such form, else a SQLite file per form in tmp.
func mountForms(ctx context.Context, static http.Handler, out, db, tmp string, log *slog.Logger, stdout io.Writer) (http.Handler, func(), error) {
	paths, err := filepath.Glob(filepath.Join(out, filepath.FromSlash(forms.SchemaFile("*"))))
	if err != nil {
		return nil, nil, err
	}
	var schemas []*forms.Schema
	for _, path := range paths {
		schema, err := forms.LoadSchema(path)
		if err != nil {
			return nil, nil, err
		}
		if !strings.HasPrefix(schema.Endpoint, "/") {
			fmt.Fprintf(stdout, "forms: the endpoint %s of form %s is on another origin; run `sitegen forms serve` there\n", schema.Endpoint, schema.Form)
			continue
		}
		schemas = append(schemas, schema)
	}
	if len(schemas) == 0 {
		return static, func() {}, nil
	}
	if db != "" && len(schemas) > 1 {
		return nil, nil, usageError{fmt.Errorf("--forms-db names one database, and the site has %d forms: leave it out to get a SQLite file per form", len(schemas))}
	}
	mux := http.NewServeMux()
	var services []*forms.Service
	closeAll := func() {
		for _, svc := range services {
			svc.Close()
		}
	}
	for _, schema := range schemas {
		formDB := db
		if formDB == "" {
			formDB = "sqlite:" + filepath.Join(tmp, schema.Form+".db")
		}
		svc, err := forms.Start(ctx, forms.ServerConfig{DB: formDB, Log: log, Preview: true}, schema)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("form %s: %w", schema.Form, err)
		}
		services = append(services, svc)
		fmt.Fprintf(stdout, "forms: %s stores the %s form's submissions in %s\n", schema.Endpoint, schema.Form, formDB)
		mux.Handle(svc.Handler.Path(), svc.Handler)
	}
	mux.Handle("/", static)
	return mux, closeAll, nil
}
