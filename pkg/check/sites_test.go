package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vereinCopy copies the verein fixture site (German and Ukrainian) with the
// repository's node_modules linked in.
func vereinCopy(t *testing.T) string {
	t.Helper()
	nm, err := filepath.Abs("../../node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(nm, "preact")); err != nil {
		t.Skip("node_modules not installed (run make setup)")
	}
	dir := filepath.Join(t.TempDir(), "verein")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/sites/verein")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCyrillicAnchors: the verein fixture links to Cyrillic heading ids
// (written percent-encoded in the href, as goldmark writes them); the check
// finds them as a browser does, and reports one that names no heading at
// the Markdown source.
func TestCyrillicAnchors(t *testing.T) {
	dir := vereinCopy(t)
	if rep := run(t, dir, nil); len(rep.Diagnostics) != 0 {
		t.Fatalf("the verein fixture has findings:\n%s", diagsText(rep))
	}
	p := filepath.Join(dir, "content/uk/ueber-uns.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "(#статут-і-внесок)", "(#статут)", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := run(t, dir, nil)
	if len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Kind != KindAnchor || rep.Diagnostics[0].Pos.File != "content/uk/ueber-uns.md" ||
		rep.Diagnostics[0].Pos.Line != 9 || !strings.Contains(rep.Diagnostics[0].Message, `"статут"`) {
		t.Errorf("a link to a missing Cyrillic anchor:\n%s", diagsText(rep))
	}
}

// TestFormMarkupDisagrees: a form whose markup disagrees with its schema
// (here every field's maxlength) is reported by check as it is by build,
// at the template line that writes the <form>.
func TestFormMarkupDisagrees(t *testing.T) {
	dir := vereinCopy(t)
	p := filepath.Join(dir, "templates/sections/form.html")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), `maxlength="{{ .maxLength }}"`, `maxlength="7"`, 1)
	if bad == string(b) {
		t.Fatal("the form template has no maxlength to change")
	}
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := run(t, dir, nil)
	found := false
	for _, f := range rep.Diagnostics {
		if f.Kind == KindBuild && f.Pos.File == "templates/sections/form.html" && f.Pos.Line == 5 && strings.Contains(f.Message, "the form on") &&
			strings.Contains(f.Message, "maxlength 7 in the markup") {
			found = true
		}
	}
	if !found {
		t.Errorf("check does not report the form that disagrees with its schema:\n%s", diagsText(rep))
	}
}
