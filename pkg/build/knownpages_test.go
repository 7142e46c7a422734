package build

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"sitegen/pkg/cache"
	"sitegen/pkg/output"
)

// TestKnownPagesTakeDigestLstats: once the input digest has made its
// lstats, a page file it lstat'ed is not lstat'ed again (the identity is
// the digest's, whatever the file's is now); a file it did not see is.
func TestKnownPagesTakeDigestLstats(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"content/pl/a.md", "content/pl/b.md"} {
		writeFile(t, filepath.Join(root, p), "---\ntitle: A\n---\nA.\n")
	}
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	stats := new(statIDs)
	k := newKnownPages(store, root, time.Now().Add(time.Hour), stats, nil)
	own, _ := output.StatID(filepath.Join(root, "content/pl/a.md"))
	if got := k.Identity("content/pl/a.md"); got != own || got == "" {
		t.Fatalf("before the digest: identity %q, want the file's lstat %q", got, own)
	}
	stats.publish(map[string]statID{"content/pl/a.md": {id: "digest's", ctime: 1}})
	if got := k.Identity("content/pl/a.md"); got != "digest's" {
		t.Errorf("after the digest: identity %q, want the digest's", got)
	}
	wantB, _ := output.StatID(filepath.Join(root, "content/pl/b.md"))
	if got := k.Identity("content/pl/b.md"); got != wantB {
		t.Errorf("a file the digest did not see: identity %q, want its lstat %q", got, wantB)
	}
	if err := os.Remove(filepath.Join(root, "content/pl/b.md")); err != nil {
		t.Fatal(err)
	}
	if got := k.Identity("content/pl/b.md"); got != "" {
		t.Errorf("a file gone: identity %q, want none", got)
	}
}
