package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/pkg/route"
)

// TestPanicIsInternalError: a panic while a page renders (injected through
// the beforeRender hook) is an internal error naming the page, not a crash;
// the previous output stays and no temporary tree is left.
func TestPanicIsInternalError(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "site")
	copyTree(t, fixture, src)
	out := filepath.Join(dir, "public")
	buildFixture(t, src, out)
	before := readTree(t, out)
	_, err := Run(context.Background(), Options{Source: src, Out: out, Date: "2026-01-01",
		beforeRender: func(e *route.Entry) {
			if e.URL == "/en/about-us/contact/" {
				var m map[string]int
				m["boom"]++ // a nil map write: a runtime panic
			}
		}})
	if err == nil {
		t.Fatal("build succeeded")
	}
	want := "content/en/contact.md: internal error while rendering /en/about-us/contact/: assignment to entry in nil map (this is a bug in sitegen; please report it)"
	if got := err.Error(); got != want {
		t.Errorf("error:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(err.Error(), "goroutine") {
		t.Errorf("error carries a stack trace: %v", err)
	}
	assertSameTree(t, before, readTree(t, out))
	assertNoLeftovers(t, dir)
}

func assertSameTree(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	if len(after) != len(before) {
		t.Fatalf("output changed: %d files before, %d after", len(before), len(after))
	}
	for name, b := range before {
		if string(b) != string(after[name]) {
			t.Errorf("%s changed after a failed build", name)
		}
	}
}

func assertNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".sitegen-") && !strings.HasPrefix(e.Name(), ".sitegen-lock-") { // the lock stays
			t.Errorf("left behind %s", e.Name())
		}
	}
}
