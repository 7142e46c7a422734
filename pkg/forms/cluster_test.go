package forms

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"sitegen/internal/waittest"
)

// TestTwoInstancesSendEachNotificationOnce runs two handler instances on one
// PostgreSQL database with one SMTP server: every submission, whichever
// instance took it, is mailed exactly once.
func TestTwoInstancesSendEachNotificationOnce(t *testing.T) {
	db := freshPostgres(t)
	box := startMailbox(t)
	s := testSchema(t)
	cfg := ServerConfig{Mail: MailConfig{URL: box.url(), From: "forms@botforge.example", To: []string{"sales@botforge.example"}}}
	a := startTest(t, db, cfg, s)
	b := startTest(t, db, cfg, s)
	const n = 120
	var wg sync.WaitGroup
	ids := make([]string, n)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 8 {
				inst := []*testService{a, b}[i%2]
				in := validJSON()
				in["idempotencyKey"] = fmt.Sprintf("two-instances-%04d", i)
				res, out := postJSON(t, inst.srv.URL, in, nil)
				if res.StatusCode != 201 {
					t.Errorf("post %d: %d %v", i, res.StatusCode, out)
					return
				}
				ids[i] = out["id"].(string)
			}
		}()
	}
	waittest.Wait(t, &wg, "the posting workers")
	waitFor(t, "every outbox row to be done", func() bool {
		st, err := a.Store.Stats(context.Background())
		return err == nil && st[KindEmail].Pending == 0
	})
	box.mu.Lock()
	defer box.mu.Unlock()
	perSubject := map[string]int{}
	perMessageID := map[string]int{}
	for _, m := range box.msgs {
		perSubject[m.Header.Get("Subject")]++
		perMessageID[m.Header.Get("Message-Id")]++
	}
	for i, id := range ids {
		if c := perSubject["Lead "+id]; c != 1 {
			t.Errorf("submission %d (%s) mailed %d times", i, id, c)
		}
	}
	if len(box.msgs) != n || len(perMessageID) != n {
		t.Errorf("%d e-mails with %d Message-IDs for %d submissions", len(box.msgs), len(perMessageID), n)
	}
	// Both instances sent: each row is done by the instance that held its
	// lease, and each instance's worker is woken by the submissions it took.
	var owners []string
	rows, err := a.Store.DB().Query(`SELECT lease_owner, COUNT(*) FROM outbox GROUP BY lease_owner ORDER BY lease_owner`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var o string
		var c int
		if err := rows.Scan(&o, &c); err != nil {
			t.Fatal(err)
		}
		if o != "" && c > 0 {
			owners = append(owners, fmt.Sprintf("%s=%d", o, c))
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(owners) != 2 {
		t.Errorf("rows sent per instance: %v, want both instances to have sent", owners)
	}
	t.Logf("two instances: %d submissions, %d e-mails, each sent once; rows sent per instance: %v", n, len(box.msgs), owners)
}
