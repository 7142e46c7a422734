package build

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"sitegen/pkg/cache"
	"sitegen/pkg/content"
	"sitegen/pkg/deps"
	"sitegen/pkg/output"
)

// TestKnownPagesRecord: a page file's identity is its lstat when its
// change time is old enough (none when it is recent or gone), and a page
// taken from the cache without reading its file is recorded with that
// identity and the SHA-256 the build that read it found.
func TestKnownPagesRecord(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"content/pl/a.md", "content/pl/b.md"} {
		writeFile(t, filepath.Join(root, p), "---\ntitle: A\n---\nA.\n")
	}
	dir := t.TempDir()
	store, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := newKnownPages(store, deps.New(root, time.Now())).Identity("content/pl/a.md"); got != "" {
		t.Errorf("a file changed as the build began: identity %q, want none", got)
	}
	k := newKnownPages(store, deps.New(root, time.Now().Add(time.Hour)))
	own, _ := output.StatID(filepath.Join(root, "content/pl/a.md"))
	id := k.Identity("content/pl/a.md")
	if id != own || id == "" {
		t.Fatalf("identity %q, want the file's lstat %q", id, own)
	}
	k.Remember("content/pl/a.md", id, content.KnownPage{Sum: [32]byte{7}})
	store.Close()
	// The next build takes it from the cache and records it.
	if store, err = cache.Open(dir); err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rec := deps.New(root, time.Now().Add(time.Hour))
	k = newKnownPages(store, rec)
	if _, ok := k.Known("content/pl/a.md", k.Identity("content/pl/a.md")); !ok {
		t.Fatal("the page remembered is not known")
	}
	es, _ := rec.Entries()
	if i := slices.IndexFunc(es, func(e deps.Entry) bool { return e.Key == deps.Key{Kind: deps.File, Path: "content/pl/a.md"} }); i < 0 || es[i].ID != id || es[i].Sum != [32]byte{7} {
		t.Errorf("recorded %+v, want the identity and the sum the cache holds", es)
	}
	if err := os.Remove(filepath.Join(root, "content/pl/b.md")); err != nil {
		t.Fatal(err)
	}
	if got := k.Identity("content/pl/b.md"); got != "" {
		t.Errorf("a file gone: identity %q, want none", got)
	}
}
