package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolyglotFeeds: the polyglot fixture (English, German, Japanese with
// Japanese slugs) passes check, which finds and checks the RSS and Atom
// feed of its blog in each locale; a page that links a feed the build does
// not write, or a feed that breaks the rules, is an error at the page.
func TestPolyglotFeeds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "polyglot")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/sites/polyglot")); err != nil {
		t.Fatal(err)
	}
	// The fixture's search island needs preact: the repository's packages.
	nm, err := filepath.Abs("../../node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	rep := run(t, dir, nil)
	if rep.Errors != 0 || rep.Feeds != 34 {
		t.Fatalf("%d errors, %d feeds checked, want 0 and 34 (the blog's 6, 28 of the tags):\n%s", rep.Errors, rep.Feeds, diagsText(rep))
	}

	base := filepath.Join(dir, "templates", "base.html")
	b, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), `{{ .URL }}">{{ end }}`, `{{ .URL }}x">{{ end }}`, 1)
	if bad == string(b) {
		t.Fatal("base.html links no feed")
	}
	if err := os.WriteFile(base, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	rep = run(t, dir, nil)
	if !strings.Contains(diagsText(rep), "error: feed https://polyglot.example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/feed.xmlx: no file there") {
		t.Errorf("a link to a feed that is not written is not reported:\n%s", diagsText(rep))
	}
}
