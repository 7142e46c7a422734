// Command forms is the load benchmark of the demo-request handler: it runs
// the handler on loopback (the same code as `sitegen forms serve`, SQLite
// with WAL and synchronous=FULL, or PostgreSQL), posts a bounded number of
// distinct valid submissions from concurrent clients and reports durable
// submissions per second and latency percentiles. Every counted submission
// was answered 201, which the handler sends only after the commit.
//
//	go run ./bench/forms -db sqlite -dir /tmp
//	go run ./bench/forms -db sqlite -dir /dev/shm
//	go run ./bench/forms -db "$SITEGEN_TEST_POSTGRES"
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"sitegen/pkg/forms"
)

func main() {
	db := flag.String("db", "sqlite", `"sqlite" (a new file in -dir) or a postgres:// URL (the run uses a new schema there and drops it)`)
	dir := flag.String("dir", os.TempDir(), "folder of the SQLite file")
	total := flag.Int("n", 20000, "submissions to post (the bound)")
	conc := flag.Int("c", 32, "concurrent clients")
	warm := flag.Int("warmup", 1000, "submissions posted first and not measured")
	schemaPath := flag.String("schema", "", "form schema (default: a built-in copy of the site's shape)")
	flag.Parse()
	if err := run(*db, *dir, *schemaPath, *total, *conc, *warm); err != nil {
		fmt.Fprintln(os.Stderr, "bench/forms:", err)
		os.Exit(1)
	}
}

func run(db, dir, schemaPath string, total, conc, warm int) error {
	ctx := context.Background()
	var schema *forms.Schema
	var err error
	if schemaPath != "" {
		schema, err = forms.LoadSchema(schemaPath)
	} else {
		schema, err = builtinSchema()
	}
	if err != nil {
		return err
	}
	label := "postgres"
	if db != "sqlite" {
		u, drop, err := freshSchema(db)
		if err != nil {
			return err
		}
		defer drop()
		db = u
	}
	if db == "sqlite" {
		tmp, err := os.MkdirTemp(dir, "forms-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		db = "sqlite:" + filepath.Join(tmp, "forms.db")
		label = "sqlite (WAL, synchronous=FULL) in " + dir
	}
	svc, err := forms.Start(ctx, forms.ServerConfig{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, schema)
	if err != nil {
		return err
	}
	defer svc.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: svc.Handler, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + schema.EndpointPath()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc}}

	post := func(i int) (time.Duration, error) {
		b, _ := json.Marshal(map[string]any{
			"name": "Jan", "companyName": "ACME sp. z o.o.", "email": fmt.Sprintf("p%d@example.com", i), "phone": "+48 601 234 567",
			"marketingEmail": true, "phoneContact": true, "lang": "pl", "page": "/pl/o-nas/kontakt/",
			"idempotencyKey": fmt.Sprintf("bench-%d-%09d", os.Getpid(), i),
		})
		req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		d := time.Since(t0)
		if res.StatusCode != http.StatusCreated {
			return 0, fmt.Errorf("answer %s", res.Status)
		}
		return d, nil
	}
	phase := func(from, n int) ([]time.Duration, time.Duration, error) {
		lat := make([]time.Duration, n)
		var next atomic.Int64
		var firstErr error
		var mu sync.Mutex
		var wg sync.WaitGroup
		t0 := time.Now()
		for range conc {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1)) - 1
					if i >= n {
						return
					}
					d, err := post(from + i)
					if err != nil {
						mu.Lock()
						firstErr = err
						mu.Unlock()
						return
					}
					lat[i] = d
				}
			}()
		}
		wg.Wait()
		return lat, time.Since(t0), firstErr
	}
	if _, _, err := phase(0, warm); err != nil {
		return err
	}
	lat, wall, err := phase(warm, total)
	if err != nil {
		return err
	}
	sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	recs, err := svc.Store.Records(ctx, forms.Filter{})
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d submissions, %d clients: %.0f submissions/s; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d rows stored\n",
		label, total, conc, float64(total)/wall.Seconds(), ms(pct(0.50)), ms(pct(0.99)), ms(lat[len(lat)-1]), len(recs))
	return nil
}

// freshSchema creates an empty PostgreSQL schema for the run and returns a
// URL that uses it, and a function that drops it.
func freshSchema(base string) (string, func(), error) {
	name := fmt.Sprintf("forms_bench_%d", os.Getpid())
	db, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	if _, err := db.Exec(`CREATE SCHEMA ` + name); err != nil {
		db.Close()
		return "", nil, fmt.Errorf("create schema: %w", err)
	}
	u, err := neturl.Parse(base)
	if err != nil {
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String(), func() {
		db.Exec(`DROP SCHEMA ` + name + ` CASCADE`)
		db.Close()
	}, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// builtinSchema has the shape of the site's demo form.
func builtinSchema() (*forms.Schema, error) {
	msgs := map[string]string{}
	for _, c := range forms.Codes {
		msgs[c] = c
	}
	ui := forms.UItexts{Title: "Demo", Heading: "Fix", Submit: "Send", Messages: msgs, Unavailable: "down",
		Labels: map[string]string{"name": "Name", "companyName": "Company", "email": "E-mail", "phone": "Phone"}}
	text := forms.Text{Source: "consent", HTML: "consent", Hash: forms.HashText("consent")}
	s := &forms.Schema{Format: forms.SchemaVersion, Form: "demo", ID: "demo-form", Subject: "Demo request", Event: "demo_request", Endpoint: "/api/demo", DefaultLocale: "pl", Locales: []string{"pl"},
		Fields: []forms.Field{{Name: "name", Type: "text", Required: true, MaxLength: 60}, {Name: "companyName", Type: "text", Required: true, MaxLength: 120},
			{Name: "email", Type: "email", Required: true, MaxLength: 254}, {Name: "phone", Type: "tel", Required: true, MaxLength: 20}},
		Consents: []forms.Consent{{Name: "marketingEmail", Required: true, Version: "1", Texts: map[string]forms.Text{"pl": text}},
			{Name: "phoneContact", Required: true, Version: "1", Texts: map[string]forms.Text{"pl": text}}},
		Clause: map[string]forms.Text{"pl": text}, ClauseVersion: "1", Thanks: map[string]string{"pl": "/pl/podziekowanie/"},
		UI: map[string]forms.UItexts{"pl": ui}}
	return s, s.Seal()
}
