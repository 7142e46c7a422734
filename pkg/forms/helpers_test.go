package forms

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// testSchema is a small schema like the site's (the build's real one is
// checked in build_test.go).

// testHoneypot is the trap input of the test schema.
const testHoneypot = "website"

func testSchema(t testing.TB) *Schema {
	t.Helper()
	ui := func(lang string) UItexts {
		m := map[string]string{}
		for _, c := range Codes {
			m[c] = lang + ":" + c
		}
		m[CodeTooLong] = lang + ": at most {max}"
		return UItexts{Title: lang + " form", Heading: lang + " fix", Submit: lang + " send", Messages: m, Unavailable: lang + " down",
			Labels: map[string]string{"name": lang + " Name", "companyName": lang + " Company", "email": "E-mail", "phone": lang + " Phone"}}
	}
	s := &Schema{Format: SchemaVersion, Form: "lead", ID: "lead-form", Subject: "Lead", Event: "lead_submitted", Endpoint: "/api/demo", Honeypot: testHoneypot, DefaultLocale: "pl", Locales: []string{"pl", "en"},
		Fields: []Field{
			{Name: "name", Type: "text", Required: true, MaxLength: 60},
			{Name: "companyName", Type: "text", Required: true, MaxLength: 120},
			{Name: "email", Type: "email", Required: true, MaxLength: 254},
			{Name: "phone", Type: "tel", Required: true, MaxLength: 20},
		},
		Consents: []Consent{
			{Name: "marketingEmail", Required: true, Version: "v1", Texts: map[string]Text{"pl": {Source: "zgoda e-mail", HTML: "zgoda e-mail", Hash: HashText("zgoda e-mail")}, "en": {Source: "email consent", HTML: "email consent", Hash: HashText("email consent")}}},
			{Name: "phoneContact", Required: true, Version: "v1", Texts: map[string]Text{"pl": {Source: "zgoda tel", HTML: "zgoda tel", Hash: HashText("zgoda tel")}, "en": {Source: "phone consent", HTML: "phone consent", Hash: HashText("phone consent")}}},
		},
		Clause:        map[string]Text{"pl": {Source: "klauzula", HTML: "klauzula"}, "en": {Source: "clause", HTML: "clause"}},
		ClauseVersion: "c1",
		Thanks:        map[string]string{"pl": "/pl/podziekowanie/", "en": "/en/thanks/"},
		UI:            map[string]UItexts{"pl": ui("pl"), "en": ui("en")},
	}
	if err := s.Seal(); err != nil {
		t.Fatal(err)
	}
	return s
}

func validValues() url.Values {
	return url.Values{"name": {"Jan"}, "companyName": {"ACME sp. z o.o."}, "email": {"jan@example.com"}, "phone": {"601 234 567"},
		"marketingEmail": {"yes"}, "phoneContact": {"yes"}, "lang": {"pl"}, "page": {"/pl/o-nas/kontakt/"}}
}

// pgURL is the test PostgreSQL server; without one the test is skipped,
// except under CI, where it fails.
func pgURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("SITEGEN_TEST_POSTGRES")
	if u == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("SITEGEN_TEST_POSTGRES is not set: CI must run the PostgreSQL tests (.ci/run starts the server and exports it)")
		}
		t.Skip("SITEGEN_TEST_POSTGRES is not set; set it (e.g. postgres://sitegen:sitegen@127.0.0.1:5432/sitegen_test?sslmode=disable) to run the PostgreSQL tests")
	}
	return u
}

// freshPostgres returns a URL of a new, empty schema on the test server,
// dropped when the test ends.
func freshPostgres(t testing.TB) string {
	t.Helper()
	base := pgURL(t)
	var b [6]byte
	rand.Read(b[:])
	schema := "forms_test_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("create schema on %s: %v", redactURL(base), err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", base)
		if err == nil {
			db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
			db.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// eachDB runs a test against a fresh SQLite file and a fresh PostgreSQL schema.
func eachDB(t *testing.T, f func(t *testing.T, dbURL string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, "sqlite:"+filepath.Join(t.TempDir(), "forms.db")) })
	t.Run("postgres", func(t *testing.T) { f(t, freshPostgres(t)) })
}

func openTest(t testing.TB, dbURL string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// logBuffer collects log output to check that no personal data is logged.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func testLogger(w *logBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func mustNotContain(t *testing.T, what, s string, secrets ...string) {
	t.Helper()
	for _, x := range secrets {
		if strings.Contains(s, x) {
			t.Errorf("%s contains %q:\n%s", what, x, s)
		}
	}
}
