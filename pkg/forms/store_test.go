package forms

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"sitegen/internal/waittest"
)

func newSub(t testing.TB, s *Schema, key string, edit func(v map[string][]string)) *Submission {
	t.Helper()
	v := validValues()
	if edit != nil {
		edit(v)
	}
	in := ParseForm(s, v)
	sub, errs := s.Validate(in)
	if errs != nil {
		t.Fatal(errs)
	}
	now := time.Now().UTC()
	sub.ID, sub.CreatedAt, sub.Key = NewID(), now, key
	sub.Consents = s.Records(in, sub.Lang, sub.Page, now)
	return sub
}

func TestStoreInsertAndRecords(t *testing.T) {
	eachDB(t, func(t *testing.T, dbURL string) {
		ctx := context.Background()
		s := testSchema(t)
		st := openTest(t, dbURL)
		a := newSub(t, s, "key-aaaaaaaa", nil)
		b := newSub(t, s, "key-bbbbbbbb", func(v map[string][]string) { v["email"] = []string{"Other@Example.com"} })
		dup := newSub(t, s, "key-aaaaaaaa", nil)
		saved, err := st.Insert(ctx, []*Submission{a, b, dup}, []string{KindEmail, KindWebhook})
		if err != nil {
			t.Fatal(err)
		}
		if saved[0].ID != a.ID || saved[1].ID != b.ID || saved[2].ID != a.ID || !saved[2].Duplicate {
			t.Fatalf("saved %+v", saved)
		}
		// A retry in a later transaction is a duplicate too.
		again, err := st.Insert(ctx, []*Submission{newSub(t, s, "key-bbbbbbbb", nil)}, []string{KindEmail})
		if err != nil || again[0].ID != b.ID || !again[0].Duplicate {
			t.Fatalf("retry: %+v %v", again, err)
		}
		recs, err := st.Records(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 2 {
			t.Fatalf("%d records, want 2", len(recs))
		}
		r := recs[0]
		if r.Values["phone"] != "+48601234567" || r.Lang != "pl" || r.Page != "/pl/o-nas/kontakt/" || r.SchemaHash != s.Hash {
			t.Errorf("record %+v", r)
		}
		if len(r.Consents) != 2 {
			t.Fatalf("consents %+v", r.Consents)
		}
		c := r.Consents[0]
		if c.Type != "marketingEmail" || !c.Granted || c.Version != "v1" || c.TextHash != HashText("zgoda e-mail") || c.Lang != "pl" ||
			c.ClauseVersion != "c1" || c.Page != "/pl/o-nas/kontakt/" || c.RecordedAt.Location() != time.UTC || c.RecordedAt.IsZero() {
			t.Errorf("consent %+v", c)
		}
		byMail, _ := st.Records(ctx, Filter{Email: "OTHER@example.com"})
		if len(byMail) != 1 || byMail[0].ID != b.ID {
			t.Errorf("by e-mail: %+v", byMail)
		}
		stats, _ := st.Stats(ctx)
		if stats[KindEmail].Pending != 2 || stats[KindWebhook].Pending != 2 {
			t.Errorf("outbox %+v, want 2 e-mails and 2 webhooks (none for the duplicates)", stats)
		}
	})
}

func TestConsentsAppendOnly(t *testing.T) {
	eachDB(t, func(t *testing.T, dbURL string) {
		ctx := context.Background()
		s := testSchema(t)
		st := openTest(t, dbURL)
		if _, err := st.Insert(ctx, []*Submission{newSub(t, s, "key-aaaaaaaa", nil)}, nil); err != nil {
			t.Fatal(err)
		}
		_, err := st.DB().ExecContext(ctx, `UPDATE consents SET granted = 0`)
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("UPDATE of a consent row: %v, want refused", err)
		}
	})
}

func TestPurgeAndErase(t *testing.T) {
	eachDB(t, func(t *testing.T, dbURL string) {
		ctx := context.Background()
		s := testSchema(t)
		st := openTest(t, dbURL)
		old := newSub(t, s, "key-old00000", func(v map[string][]string) { v["email"] = []string{"old@example.com"} })
		old.CreatedAt = time.Now().Add(-800 * 24 * time.Hour)
		keep := newSub(t, s, "key-keep0000", nil)
		gone := newSub(t, s, "key-gone0000", func(v map[string][]string) { v["email"] = []string{"Gone@Example.com"} })
		if _, err := st.Insert(ctx, []*Submission{old, keep, gone}, []string{KindEmail}); err != nil {
			t.Fatal(err)
		}
		n, err := st.Purge(ctx, time.Now().Add(-730*24*time.Hour))
		if err != nil || n != 1 {
			t.Fatalf("purge: %d %v", n, err)
		}
		n, err = st.Erase(ctx, "gone@example.COM")
		if err != nil || n != 1 {
			t.Fatalf("erase: %d %v", n, err)
		}
		recs, _ := st.Records(ctx, Filter{})
		if len(recs) != 1 || recs[0].ID != keep.ID {
			t.Fatalf("left %+v", recs)
		}
		for _, table := range []string{"consents", "outbox"} {
			var n int
			st.DB().QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n)
			want := map[string]int{"consents": 2, "outbox": 1}[table]
			if n != want {
				t.Errorf("%s: %d rows, want %d", table, n, want)
			}
		}
	})
}

// TestClaimOnce: concurrent claimers never get the same row.
func TestClaimOnce(t *testing.T) {
	eachDB(t, func(t *testing.T, dbURL string) {
		ctx := context.Background()
		s := testSchema(t)
		st := openTest(t, dbURL)
		other := openTest(t, dbURL) // a second instance's connection pool
		var subs []*Submission
		for i := range 60 {
			subs = append(subs, newSub(t, s, fmt.Sprintf("key-%08d", i), nil))
		}
		if _, err := st.Insert(ctx, subs, []string{KindEmail}); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		seen := map[string]string{}
		var wg sync.WaitGroup
		for w := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db := []*Store{st, other}[w%2]
				owner := fmt.Sprintf("w%d", w)
				for {
					jobs, err := db.Claim(ctx, owner, []string{KindEmail}, time.Now(), time.Minute, 4)
					if err != nil {
						t.Error(err)
						return
					}
					if len(jobs) == 0 {
						return
					}
					for _, j := range jobs {
						mu.Lock()
						if prev, dup := seen[j.ID]; dup {
							t.Errorf("row %s claimed by %s and %s", j.ID, prev, owner)
						}
						seen[j.ID] = owner
						mu.Unlock()
						if err := db.Done(ctx, owner, j.ID, time.Now()); err != nil {
							t.Error(err)
						}
					}
				}
			}()
		}
		waittest.Wait(t, &wg, "the claiming workers")
		if len(seen) != 60 {
			t.Errorf("%d rows claimed, want 60", len(seen))
		}
	})
}

func TestMigrationsIdempotent(t *testing.T) {
	eachDB(t, func(t *testing.T, dbURL string) {
		openTest(t, dbURL)
		st := openTest(t, dbURL)
		var n int
		st.DB().QueryRow(`SELECT COUNT(*) FROM forms_migrations`).Scan(&n)
		if n != len(migrations) {
			t.Errorf("%d migrations recorded, want %d", n, len(migrations))
		}
	})
}

func TestSQLiteIsDurable(t *testing.T) {
	st := openTest(t, "sqlite:"+t.TempDir()+"/f.db")
	var mode string
	var sync int
	st.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	st.DB().QueryRow(`PRAGMA synchronous`).Scan(&sync)
	if mode != "wal" || sync != 2 {
		t.Fatalf("journal_mode %q synchronous %d, want wal and 2 (FULL)", mode, sync)
	}
}
