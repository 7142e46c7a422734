package forms

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // driver "pgx"
	_ "modernc.org/sqlite"             // driver "sqlite"
)

// TimeFormat is how times are stored: UTC, fixed width, so that text order
// is time order in both databases.
const TimeFormat = "2006-01-02T15:04:05.000000Z"

func fmtTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(TimeFormat, s)
	return t
}

// Dialect is the SQL flavour of a store.
type Dialect int

// Dialects.
const (
	SQLite Dialect = iota
	Postgres
)

func (d Dialect) String() string { return [...]string{"sqlite", "postgres"}[d] }

// Store is the submissions database: SQLite or PostgreSQL behind the same
// schema, migrations and queries.
type Store struct {
	db      *sql.DB
	dialect Dialect
	// SQLite: checkpoints run on their own connection in the background,
	// so that copying the WAL into the database (and its fsync) is not in
	// any commit's path.
	ckpt     *sql.DB
	stopCkpt chan struct{}
	ckptDone chan struct{}
}

// Open opens the database named by a URL: sqlite:path/to/file.db (or
// sqlite:///abs/path) or postgres://... and applies the migrations.
func Open(ctx context.Context, dbURL string) (*Store, error) {
	var s *Store
	switch {
	case strings.HasPrefix(dbURL, "sqlite:"):
		p := strings.TrimPrefix(dbURL, "sqlite:")
		p = strings.TrimPrefix(p, "//")
		if p == "" {
			return nil, fmt.Errorf("--db %q names no file (want sqlite:forms.db)", dbURL)
		}
		p, query, _ := strings.Cut(p, "?")
		if query != "" {
			return nil, fmt.Errorf("--db %q: sqlite URLs take no options; the handler sets WAL and synchronous=FULL itself", dbURL)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		dsn := "file:" + (&url.URL{Path: abs}).EscapedPath() +
			"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=secure_delete(1)&_txlock=immediate"
		db, err := sql.Open("sqlite", dsn+"&_pragma=wal_autocheckpoint(0)")
		if err != nil {
			return nil, fmt.Errorf("open sqlite %s: %w", abs, err)
		}
		// One connection: SQLite has one writer; batching, not concurrency,
		// gives throughput.
		db.SetMaxOpenConns(1)
		ckpt, err := sql.Open("sqlite", dsn)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("open sqlite %s: %w", abs, err)
		}
		ckpt.SetMaxOpenConns(1)
		s = &Store{db: db, dialect: SQLite, ckpt: ckpt, stopCkpt: make(chan struct{}), ckptDone: make(chan struct{})}
	case strings.HasPrefix(dbURL, "postgres://"), strings.HasPrefix(dbURL, "postgresql://"):
		db, err := sql.Open("pgx", dbURL)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		db.SetMaxOpenConns(8)
		db.SetMaxIdleConns(8)
		s = &Store{db: db, dialect: Postgres}
	default:
		return nil, fmt.Errorf("--db %q: want sqlite:FILE or postgres://URL", redactURL(dbURL))
	}
	if err := s.db.PingContext(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("connect to %s database: %w", s.dialect, err)
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if s.ckpt != nil {
		go s.checkpoints()
	}
	return s, nil
}

// checkpoints copies the WAL into the database file every half second
// (PASSIVE: it never blocks a writer) and truncates it on close.
func (s *Store) checkpoints() {
	defer close(s.ckptDone)
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-s.stopCkpt:
			s.ckpt.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
			return
		case <-t.C:
			s.ckpt.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
		}
	}
}

// redactURL hides a password in a database URL.
func redactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	return p.Redacted()
}

// Dialect returns the store's SQL flavour.
func (s *Store) Dialect() Dialect { return s.dialect }

// DB returns the database handle (tests).
func (s *Store) DB() *sql.DB { return s.db }

// Close closes the database.
func (s *Store) Close() error {
	if s.ckpt != nil {
		if s.stopCkpt != nil {
			select {
			case <-s.ckptDone:
			default:
				close(s.stopCkpt)
				<-s.ckptDone
			}
		}
		s.ckpt.Close()
	}
	return s.db.Close()
}

// q rewrites ? placeholders to $n for PostgreSQL.
func (s *Store) q(query string) string {
	if s.dialect != Postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// migration is one step of the schema; SQL runs in both databases unless a
// dialect-specific version is given.
type migration struct {
	version  int
	common   []string
	sqlite   []string
	postgres []string
}

var migrations = []migration{
	{version: 1,
		common: []string{
			`CREATE TABLE submissions (
				id TEXT PRIMARY KEY,
				idem_key TEXT NOT NULL UNIQUE,
				created_at TEXT NOT NULL,
				lang TEXT NOT NULL,
				source_page TEXT NOT NULL,
				email TEXT NOT NULL,
				data TEXT NOT NULL,
				spam TEXT NOT NULL,
				schema_hash TEXT NOT NULL
			)`,
			`CREATE INDEX submissions_created ON submissions (created_at)`,
			`CREATE INDEX submissions_email ON submissions (email)`,
			`CREATE TABLE consents (
				id TEXT PRIMARY KEY,
				submission_id TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
				type TEXT NOT NULL,
				granted INTEGER NOT NULL,
				recorded_at TEXT NOT NULL,
				text_version TEXT NOT NULL,
				text_hash TEXT NOT NULL,
				lang TEXT NOT NULL,
				source_page TEXT NOT NULL,
				clause_version TEXT NOT NULL
			)`,
			`CREATE INDEX consents_submission ON consents (submission_id)`,
			`CREATE TABLE outbox (
				id TEXT PRIMARY KEY,
				submission_id TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
				kind TEXT NOT NULL,
				created_at TEXT NOT NULL,
				attempts INTEGER NOT NULL,
				next_at TEXT NOT NULL,
				lease_owner TEXT NOT NULL,
				lease_until TEXT NOT NULL,
				done_at TEXT NOT NULL,
				last_error TEXT NOT NULL
			)`,
			`CREATE INDEX outbox_due ON outbox (done_at, next_at)`,
			`CREATE INDEX outbox_submission ON outbox (submission_id)`,
		},
		// Consent rows are append-only: an UPDATE fails. (Rows go only with
		// their submission: purge and GDPR erasure.)
		sqlite: []string{
			`CREATE TRIGGER consents_append_only BEFORE UPDATE ON consents
			 BEGIN SELECT RAISE(ABORT, 'consents are append-only'); END`,
		},
		postgres: []string{
			`CREATE FUNCTION forms_append_only() RETURNS trigger LANGUAGE plpgsql AS
			 $$ BEGIN RAISE EXCEPTION 'consents are append-only'; END $$`,
			`CREATE TRIGGER consents_append_only BEFORE UPDATE ON consents
			 FOR EACH ROW EXECUTE FUNCTION forms_append_only()`,
		},
	},
}

// migrate applies the migrations not yet applied, in one transaction each;
// on PostgreSQL an advisory lock keeps two starting instances apart.
func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if s.dialect == Postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7125001)`); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS forms_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var have int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM forms_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, m := range migrations {
		if m.version <= have {
			continue
		}
		stmts := append([]string{}, m.common...)
		if s.dialect == Postgres {
			stmts = append(stmts, m.postgres...)
		} else {
			stmts = append(stmts, m.sqlite...)
		}
		for _, st := range stmts {
			if _, err := tx.ExecContext(ctx, st); err != nil {
				return fmt.Errorf("migration %d: %w", m.version, err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO forms_migrations (version, applied_at) VALUES (?, ?)`), m.version, fmtTime(time.Now())); err != nil {
			return fmt.Errorf("migration %d: %w", m.version, err)
		}
	}
	return tx.Commit()
}

// NewID returns a new time-ordered identifier (48-bit milliseconds, 64
// random bits) in hex.
func NewID() string {
	var b [14]byte
	binary.BigEndian.PutUint64(b[0:8], uint64(time.Now().UnixMilli())<<16)
	rand.Read(b[6:])
	return hex.EncodeToString(b[:])
}

// Outbox kinds.
const (
	KindEmail   = "email"
	KindWebhook = "webhook"
)

// Saved is the outcome of storing one submission.
type Saved struct {
	ID        string
	Duplicate bool // the idempotency key was already stored; ID is the first one
}

// Insert stores submissions, their consent rows and their outbox rows in one
// transaction. A submission whose key is already stored is not stored again.
func (s *Store) Insert(ctx context.Context, subs []*Submission, kinds []string) ([]Saved, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	out := make([]Saved, len(subs))
	insSubQ := s.q(`INSERT INTO submissions (id, idem_key, created_at, lang, source_page, email, data, spam, schema_hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idem_key) DO NOTHING`)
	insConQ := s.q(`INSERT INTO consents (id, submission_id, type, granted, recorded_at, text_version, text_hash, lang, source_page, clause_version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	insOutQ := s.q(`INSERT INTO outbox (id, submission_id, kind, created_at, attempts, next_at, lease_owner, lease_until, done_at, last_error)
		VALUES (?, ?, ?, ?, 0, ?, '', '', '', '')`)
	var stmts [3]*sql.Stmt
	for i, q := range []string{insSubQ, insConQ, insOutQ} {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		defer st.Close()
		stmts[i] = st
	}
	insSub, insCon, insOut := stmts[0], stmts[1], stmts[2]
	for i, sub := range subs {
		data, err := json.Marshal(sub.Values)
		if err != nil {
			return nil, err
		}
		res, err := insSub.ExecContext(ctx, sub.ID, sub.Key, fmtTime(sub.CreatedAt), sub.Lang, sub.Page, sub.Email, string(data), sub.Spam, sub.SchemaHash)
		if err != nil {
			return nil, fmt.Errorf("insert submission %s: %w", sub.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var id string
			if err := tx.QueryRowContext(ctx, s.q(`SELECT id FROM submissions WHERE idem_key = ?`), sub.Key).Scan(&id); err != nil {
				return nil, fmt.Errorf("look up duplicate of %s: %w", sub.ID, err)
			}
			out[i] = Saved{ID: id, Duplicate: true}
			continue
		}
		out[i] = Saved{ID: sub.ID}
		for ci, c := range sub.Consents {
			granted := 0
			if c.Granted {
				granted = 1
			}
			if _, err := insCon.ExecContext(ctx, fmt.Sprintf("%s-%02d", sub.ID, ci), sub.ID, c.Type, granted, fmtTime(c.RecordedAt), c.Version, c.TextHash, c.Lang, c.Page, c.ClauseVersion); err != nil {
				return nil, fmt.Errorf("insert consent of %s: %w", sub.ID, err)
			}
		}
		if sub.Spam != "" {
			continue // kept apart: no notification until released
		}
		for _, k := range kinds {
			if _, err := insOut.ExecContext(ctx, NewID(), sub.ID, k, fmtTime(sub.CreatedAt), fmtTime(sub.CreatedAt)); err != nil {
				return nil, fmt.Errorf("insert outbox row of %s: %w", sub.ID, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	return out, nil
}

// Record is a stored submission with its consents (export).
type Record struct {
	ID         string            `json:"id"`
	CreatedAt  time.Time         `json:"createdAt"`
	Lang       string            `json:"lang"`
	Page       string            `json:"sourcePage"`
	Values     map[string]string `json:"values"`
	Spam       string            `json:"spam,omitempty"`
	SchemaHash string            `json:"schemaHash"`
	Consents   []StoredConsent   `json:"consents"`
}

// StoredConsent is a consent row as stored.
type StoredConsent struct {
	Type          string    `json:"type"`
	Granted       bool      `json:"granted"`
	RecordedAt    time.Time `json:"recordedAt"`
	Version       string    `json:"textVersion"`
	TextHash      string    `json:"textHash"`
	Lang          string    `json:"lang"`
	Page          string    `json:"sourcePage"`
	ClauseVersion string    `json:"clauseVersion"`
}

// Filter selects submissions for export.
type Filter struct {
	Since time.Time // zero: all
	Email string    // "": any
	Spam  bool      // the spam kept apart instead of the real submissions
	IDs   []string
}

// Records returns the submissions the filter selects, oldest first.
func (s *Store) Records(ctx context.Context, f Filter) ([]Record, error) {
	where := []string{"s.spam " + map[bool]string{true: "<> ''", false: "= ''"}[f.Spam]}
	var args []any
	if !f.Since.IsZero() {
		where = append(where, "s.created_at >= ?")
		args = append(args, fmtTime(f.Since))
	}
	if f.Email != "" {
		where = append(where, "s.email = ?")
		args = append(args, NormalizeEmail(f.Email))
	}
	if len(f.IDs) > 0 {
		where = append(where, "s.id IN (?"+strings.Repeat(", ?", len(f.IDs)-1)+")")
		for _, id := range f.IDs {
			args = append(args, id)
		}
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT s.id, s.created_at, s.lang, s.source_page, s.data, s.spam, s.schema_hash FROM submissions s WHERE `+
		strings.Join(where, " AND ")+` ORDER BY s.created_at, s.id`), args...)
	if err != nil {
		return nil, fmt.Errorf("query submissions: %w", err)
	}
	defer rows.Close()
	var out []Record
	byID := map[string]int{}
	for rows.Next() {
		var r Record
		var created, data string
		if err := rows.Scan(&r.ID, &created, &r.Lang, &r.Page, &data, &r.Spam, &r.SchemaHash); err != nil {
			return nil, err
		}
		r.CreatedAt = parseTime(created)
		if err := json.Unmarshal([]byte(data), &r.Values); err != nil {
			return nil, fmt.Errorf("submission %s: %w", r.ID, err)
		}
		byID[r.ID] = len(out)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if len(out) == 0 {
		return out, nil
	}
	crows, err := s.db.QueryContext(ctx, s.q(`SELECT c.submission_id, c.type, c.granted, c.recorded_at, c.text_version, c.text_hash, c.lang, c.source_page, c.clause_version
		FROM consents c JOIN submissions s ON s.id = c.submission_id WHERE `+strings.Join(where, " AND ")+` ORDER BY c.recorded_at, c.id`), args...)
	if err != nil {
		return nil, fmt.Errorf("query consents: %w", err)
	}
	defer crows.Close()
	for crows.Next() {
		var id, rec string
		var granted int
		var c StoredConsent
		if err := crows.Scan(&id, &c.Type, &granted, &rec, &c.Version, &c.TextHash, &c.Lang, &c.Page, &c.ClauseVersion); err != nil {
			return nil, err
		}
		c.Granted = granted == 1
		c.RecordedAt = parseTime(rec)
		if i, ok := byID[id]; ok {
			out[i].Consents = append(out[i].Consents, c)
		}
	}
	return out, crows.Err()
}

// Purge deletes submissions (with their consents and outbox rows) created
// before the time.
func (s *Store) Purge(ctx context.Context, before time.Time) (int64, error) {
	return s.deleteWhere(ctx, "created_at < ?", fmtTime(before))
}

// Erase deletes every submission of an e-mail address (GDPR erasure).
func (s *Store) Erase(ctx context.Context, email string) (int64, error) {
	return s.deleteWhere(ctx, "email = ?", NormalizeEmail(email))
}

func (s *Store) deleteWhere(ctx context.Context, cond string, arg any) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	// Children first: ON DELETE CASCADE needs foreign keys on in SQLite;
	// deleting them explicitly works either way.
	for _, t := range []string{"consents", "outbox"} {
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM `+t+` WHERE submission_id IN (SELECT id FROM submissions WHERE `+cond+`)`), arg); err != nil {
			return 0, fmt.Errorf("delete %s: %w", t, err)
		}
	}
	res, err := tx.ExecContext(ctx, s.q(`DELETE FROM submissions WHERE `+cond), arg)
	if err != nil {
		return 0, fmt.Errorf("delete submissions: %w", err)
	}
	n, _ := res.RowsAffected()
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return n, s.scrub(ctx)
}

// scrub makes deleted rows unreadable. In SQLite, secure_delete (set on
// every connection) zeroes the freed space of every page a DELETE changes,
// but the WAL still holds the pages as they were before: a TRUNCATE
// checkpoint copies the zeroed pages into the database file and empties
// the WAL. It waits (busy_timeout) for readers such as a running
// forms serve; if one keeps a read transaction open longer, erasure is
// reported as incomplete rather than claimed. PostgreSQL marks deleted rows
// dead; autovacuum (or VACUUM) makes their space reusable but does not
// overwrite it, so copies stay on disk until reused (docs/forms.md).
func (s *Store) scrub(ctx context.Context) error {
	if s.dialect != SQLite {
		return nil
	}
	var busy, logFrames, done int
	for attempt := 0; ; attempt++ {
		if err := s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
			return fmt.Errorf("deleted, but copying the erased pages into the database failed: %w", err)
		}
		if busy == 0 {
			return nil
		}
		if attempt == 20 {
			return fmt.Errorf("deleted, but another process keeps reading the database, so its WAL still holds copies of the deleted rows: run the command again when forms serve is idle")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Release moves a submission kept apart as spam back among the real ones
// and queues its notifications.
func (s *Store) Release(ctx context.Context, id string, kinds []string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, s.q(`UPDATE submissions SET spam = '' WHERE id = ? AND spam <> ''`), id)
	if err != nil {
		return fmt.Errorf("release %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("release %s: no such submission among the spam", id)
	}
	now := fmtTime(time.Now())
	for _, k := range kinds {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO outbox (id, submission_id, kind, created_at, attempts, next_at, lease_owner, lease_until, done_at, last_error)
			VALUES (?, ?, ?, ?, 0, ?, '', '', '', '')`), NewID(), id, k, now, now); err != nil {
			return fmt.Errorf("release %s: %w", id, err)
		}
	}
	return tx.Commit()
}

// Job is one claimed outbox row.
type Job struct {
	ID           string
	SubmissionID string
	Kind         string
	Attempts     int
}

// Claim leases up to limit due outbox rows of the kinds to owner until
// now+lease. On PostgreSQL rows locked by another instance's claim are
// skipped (FOR UPDATE SKIP LOCKED), so each row goes to one instance.
func (s *Store) Claim(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration, limit int) ([]Job, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	lock := ""
	if s.dialect == Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	args := []any{owner, fmtTime(now.Add(lease)), fmtTime(now), fmtTime(now)}
	for _, k := range kinds {
		args = append(args, k)
	}
	args = append(args, limit)
	query := s.q(`UPDATE outbox SET lease_owner = ?, lease_until = ?
		WHERE id IN (SELECT id FROM outbox WHERE done_at = '' AND next_at <= ? AND lease_until < ? AND kind IN (?` +
		strings.Repeat(", ?", len(kinds)-1) + `) ORDER BY next_at, id LIMIT ?` + lock + `)
		RETURNING id, submission_id, kind, attempts`)
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("claim outbox rows: %w", err)
	}
	defer rows.Close()
	var out []Job
	for rows.Next() {
		var j Job
		if err := rows.Scan(&j.ID, &j.SubmissionID, &j.Kind, &j.Attempts); err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// Done marks a claimed row sent.
func (s *Store) Done(ctx context.Context, owner, id string, now time.Time) error {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE outbox SET done_at = ?, attempts = attempts + 1, last_error = '', lease_until = '' WHERE id = ? AND lease_owner = ?`), fmtTime(now), id, owner)
	if err != nil {
		return fmt.Errorf("mark outbox row %s done: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("mark outbox row %s done: lease lost", id)
	}
	return nil
}

// Retry records a failed attempt and when to try again.
func (s *Store) Retry(ctx context.Context, owner, id string, next time.Time, msg string) error {
	_, err := s.db.ExecContext(ctx, s.q(`UPDATE outbox SET attempts = attempts + 1, next_at = ?, last_error = ?, lease_until = '' WHERE id = ? AND lease_owner = ?`), fmtTime(next), msg, id, owner)
	if err != nil {
		return fmt.Errorf("reschedule outbox row %s: %w", id, err)
	}
	return nil
}

// OutboxStats counts outbox rows per kind.
type OutboxStats struct {
	Pending       int       `json:"pending"`
	Failing       int       `json:"failing"` // pending rows with at least one failed attempt
	OldestPending time.Time `json:"oldestPending,omitzero"`
	LastError     string    `json:"lastError,omitempty"`
}

// Stats returns the outbox state per kind.
func (s *Store) Stats(ctx context.Context) (map[string]OutboxStats, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, COUNT(*), SUM(CASE WHEN attempts > 0 THEN 1 ELSE 0 END), MIN(created_at), MAX(last_error)
		FROM outbox WHERE done_at = '' GROUP BY kind`)
	if err != nil {
		return nil, fmt.Errorf("outbox stats: %w", err)
	}
	defer rows.Close()
	out := map[string]OutboxStats{}
	for rows.Next() {
		var k, oldest string
		var st OutboxStats
		var failing sql.NullInt64
		var lastErr sql.NullString
		if err := rows.Scan(&k, &st.Pending, &failing, &oldest, &lastErr); err != nil {
			return nil, err
		}
		st.Failing = int(failing.Int64)
		st.OldestPending = parseTime(oldest)
		st.LastError = lastErr.String
		out[k] = st
	}
	return out, rows.Err()
}

// Submission returns one stored submission's values and language (for the
// notifier). It returns sql.ErrNoRows when it was erased.
func (s *Store) Submission(ctx context.Context, id string) (*Record, error) {
	recs, err := s.allRecords(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, sql.ErrNoRows
	}
	return &recs[0], nil
}

func (s *Store) allRecords(ctx context.Context, id string) ([]Record, error) {
	recs, err := s.Records(ctx, Filter{IDs: []string{id}})
	if err != nil || len(recs) > 0 {
		return recs, err
	}
	return s.Records(ctx, Filter{IDs: []string{id}, Spam: true})
}

// ErrNotFound is returned for a submission that does not exist.
var ErrNotFound = errors.New("not found")
