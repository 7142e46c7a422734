package build

// The header convention of testdata/invalid/*.txtar, checked by
// TestInvalidFixtureHeaders (also described in testdata/invalid/README.md):
//
//	<one or more lines saying what the fixture covers>
//	want:
//	- <file>: <fragment>
//	- <file>: <fragment>
//	-- <site files laid over testdata/sites/basic> --
//	-- want --
//	<file>:<line>[:<col>]: <message>
//
// The header lists exactly the diagnostics of the "want" file, one item per
// line and in the same (sorted) order: item i names the file of want line i
// and a fragment of its message. So a fixture cannot claim to cover an error
// its want does not hold, and a want line cannot go unexplained.

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// headerItem is one "- <file>: <fragment>" line of a fixture header.
type headerItem struct{ file, fragment string }

// parseHeader returns the items listed under "want:" in a fixture comment.
func parseHeader(comment string) ([]headerItem, error) {
	lines := strings.Split(strings.TrimRight(comment, "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "want:" {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf(`the header has no "want:" line listing the errors`)
	}
	if start == 1 {
		return nil, fmt.Errorf(`the header does not say what the fixture covers before "want:"`)
	}
	var items []headerItem
	for _, l := range lines[start:] {
		rest, ok := strings.CutPrefix(l, "- ")
		file, fragment, ok2 := strings.Cut(rest, ": ")
		if !ok || !ok2 || strings.TrimSpace(file) == "" || strings.TrimSpace(fragment) == "" {
			return nil, fmt.Errorf("header line %q is not \"- <file>: <fragment>\"", l)
		}
		items = append(items, headerItem{file, fragment})
	}
	return items, nil
}

// checkHeader reports how a fixture's header and its want disagree.
func checkHeader(comment, want string) []string {
	var problems []string
	items, err := parseHeader(comment)
	if err != nil {
		return []string{err.Error()}
	}
	want = strings.TrimSpace(want)
	if want == "" {
		return []string{"want is empty"}
	}
	lines := strings.Split(want, "\n")
	if len(items) != len(lines) {
		problems = append(problems, fmt.Sprintf("the header lists %d errors, want holds %d", len(items), len(lines)))
	}
	for i := 0; i < len(items) && i < len(lines); i++ {
		it, line := items[i], lines[i]
		if !strings.HasPrefix(line, it.file+":") || !strings.Contains(line, it.fragment) {
			problems = append(problems, fmt.Sprintf("header item %d (%s: %s) does not match want line %d: %s", i+1, it.file, it.fragment, i+1, line))
		}
	}
	return problems
}

// TestInvalidFixtureHeaders: every testdata/invalid fixture has a non-empty
// want, and its header lists exactly the errors that want holds.
func TestInvalidFixtureHeaders(t *testing.T) {
	cases, _ := filepath.Glob("../../testdata/invalid/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no invalid fixtures")
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(c)
			if err != nil {
				t.Fatal(err)
			}
			var want string
			found := false
			for _, f := range ar.Files {
				if f.Name == "want" {
					want, found = string(f.Data), true
				}
			}
			if !found {
				t.Fatal(`no "want" file`)
			}
			for _, p := range checkHeader(string(ar.Comment), want) {
				t.Error(p)
			}
		})
	}
}

// TestCheckHeader shows the checker itself rejects what it should.
func TestCheckHeader(t *testing.T) {
	const want = "a.md:1:1: first thing\nb.yaml:2: second thing\n"
	tests := []struct {
		name, comment, want string
		ok                  bool
	}{
		{"exact", "Covers two.\nwant:\n- a.md: first\n- b.yaml: second thing\n", want, true},
		{"empty want", "Covers two.\nwant:\n- a.md: first\n", "\n", false},
		{"claims one more", "Covers three.\nwant:\n- a.md: first\n- b.yaml: second\n- c.md: third\n", want, false},
		{"lists one less", "Covers one.\nwant:\n- a.md: first\n", want, false},
		{"wrong kind", "Covers two.\nwant:\n- a.md: first\n- b.yaml: other thing\n", want, false},
		{"wrong file", "Covers two.\nwant:\n- a.md: first\n- a.md: second\n", want, false},
		{"wrong order", "Covers two.\nwant:\n- b.yaml: second\n- a.md: first\n", want, false},
		{"no list", "Covers two.\n", want, false},
		{"no description", "want:\n- a.md: first\n- b.yaml: second\n", want, false},
		{"prose in the list", "Covers two.\nwant:\n- a.md: first\nand b\n", want, false},
	}
	for _, tt := range tests {
		if got := checkHeader(tt.comment, tt.want); (len(got) == 0) != tt.ok {
			t.Errorf("%s: problems %v, want ok=%v", tt.name, got, tt.ok)
		}
	}
}
