package output

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"sitegen/internal/waittest"
)

// TestParallelWrites writes a tree from many goroutines at once, as the
// build does: every file is there with its bytes, the counts add up, and
// Prepare made the shared folders (run with -race to check the locking).
func TestParallelWrites(t *testing.T) {
	parent := t.TempDir()
	tree, err := Begin(filepath.Join(parent, "public"), "test")
	if err != nil {
		t.Fatal(err)
	}
	const n = 400
	var rels []string
	for i := 0; i < n; i++ {
		rels = append(rels, fmt.Sprintf("pl/p%d/index.html", i), fmt.Sprintf("page-data/pl/p%d/page-data.json", i))
	}
	rels = append(rels, "pl/404.html", "robots.txt", "deep/a/b/c/file.txt")
	if err := tree.Prepare(rels); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"pl", "page-data", "page-data/pl", "deep/a/b"} {
		if st, err := os.Stat(filepath.Join(tree.tmp, d)); err != nil || !st.IsDir() {
			t.Errorf("Prepare did not create the shared folder %s: %v", d, err)
		}
	}
	var wg sync.WaitGroup
	var total int64
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(rels); i += 8 {
				if err := tree.WriteFile(rels[i], []byte(rels[i])); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	for _, r := range rels {
		total += int64(len(r))
	}
	// A file outside the plan still gets its folders.
	if err := tree.WriteFile("extra/x/y.txt", []byte("y")); err != nil {
		t.Fatal(err)
	}
	waittest.Wait(t, &wg, "the writers")
	if got, want := tree.Files(), len(rels)+1; got != want {
		t.Errorf("Files() = %d, want %d", got, want)
	}
	if got, want := tree.Bytes(), total+1; got != want {
		t.Errorf("Bytes() = %d, want %d", got, want)
	}
	if err := tree.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, r := range append(rels, "extra/x/y.txt") {
		b, err := os.ReadFile(filepath.Join(parent, "public", filepath.FromSlash(r)))
		if err != nil {
			t.Fatal(err)
		}
		if r != "extra/x/y.txt" && string(b) != r {
			t.Errorf("%s holds %q", r, b)
		}
	}
}
