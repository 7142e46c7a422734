package forms

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSQLiteEraseLeavesNoBytes: after Erase and Purge return, no byte of the
// erased person's e-mail address or text is left in the database file or
// its WAL, even while another process (forms serve) holds the database open.
func TestSQLiteEraseLeavesNoBytes(t *testing.T) {
	ctx := context.Background()
	s := testSchema(t)
	path := filepath.Join(t.TempDir(), "forms.db")
	serving := openTest(t, "sqlite:"+path)
	st := openTest(t, "sqlite:"+path)
	const (
		erasedEmail = "erase.me.please@example.com"
		erasedText  = "Erasable Company Quxzy"
		oldEmail    = "purged.person@example.com"
		oldText     = "Purgeable Works Vbnmq"
	)
	for i := 0; i < 20; i++ {
		subs := []*Submission{
			newSub(t, s, "key-keep"+NewID(), nil),
			newSub(t, s, "key-gone"+NewID(), func(v map[string][]string) {
				v["email"] = []string{erasedEmail}
				v["companyName"] = []string{erasedText}
			}),
			newSub(t, s, "key-olds"+NewID(), func(v map[string][]string) {
				v["email"] = []string{oldEmail}
				v["companyName"] = []string{oldText}
			}),
		}
		subs[2].CreatedAt = time.Now().Add(-800 * 24 * time.Hour)
		if _, err := serving.Insert(ctx, subs, []string{KindEmail}); err != nil {
			t.Fatal(err)
		}
		if i%5 == 0 {
			serving.DB().Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
		}
	}
	if !filesContain(t, path, erasedEmail) {
		t.Fatal("setup: the address is not in the files before erasure")
	}
	if n, err := st.Erase(ctx, erasedEmail); err != nil || n != 20 {
		t.Fatalf("erase: %d %v", n, err)
	}
	for _, secret := range []string{erasedEmail, erasedText} {
		if filesContain(t, path, secret) {
			t.Errorf("after erase, %q is still in the database file or its WAL", secret)
		}
	}
	if n, err := st.Purge(ctx, time.Now().Add(-730*24*time.Hour)); err != nil || n != 20 {
		t.Fatalf("purge: %d %v", n, err)
	}
	for _, secret := range []string{oldEmail, oldText} {
		if filesContain(t, path, secret) {
			t.Errorf("after purge, %q is still in the database file or its WAL", secret)
		}
	}
	if recs, _ := st.Records(ctx, Filter{}); len(recs) != 20 {
		t.Errorf("%d records left, want the 20 kept", len(recs))
	}
}

// filesContain reports whether the database file or its WAL holds s.
func filesContain(t *testing.T, path, s string) bool {
	t.Helper()
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}
