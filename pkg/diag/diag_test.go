package diag

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestPretty(t *testing.T) {
	fsys := fstest.MapFS{
		"a.yaml": {Data: []byte("title: x\n  żółw: [1, 2]\n\tkey: v\r\n")},
	}
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{
			"caret under the column, counted in characters",
			Diagnostic{Pos: Pos{File: "a.yaml", Line: 2, Col: 9}, Message: "expected text, got a list", Hint: "write it as text"},
			"a.yaml:2:9: expected text, got a list\n  2 |   żółw: [1, 2]\n    |         ^\n  hint: write it as text",
		},
		{
			"tabs stay tabs so the caret lines up",
			Diagnostic{Pos: Pos{File: "a.yaml", Line: 3, Col: 2}, Message: "bad key"},
			"a.yaml:3:2: bad key\n  3 | \tkey: v\n    | \t^",
		},
		{
			"line without column: no caret",
			Diagnostic{Pos: Pos{File: "a.yaml", Line: 1}, Message: "m"},
			"a.yaml:1: m\n  1 | title: x",
		},
		{
			"related position on its own line",
			New(Pos{File: "a.yaml", Line: 1, Col: 1}, "set %q is already defined", "x").WithRelated(Pos{File: "b.yaml", Line: 4, Col: 1}, "first defined at"),
			"a.yaml:1:1: set \"x\" is already defined\n  1 | title: x\n    | ^\n  first defined at b.yaml:4:1",
		},
		{
			"unknown file: the message alone",
			Diagnostic{Pos: Pos{File: "gone.yaml", Line: 3, Col: 1}, Message: "m"},
			"gone.yaml:3:1: m",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := AttachSource(fsys, List{tt.d})
			got := err.(List)[0].Pretty()
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
	// A lone diagnostic stays a Diagnostic.
	if d, ok := AttachSource(fsys, tt0()).(Diagnostic); !ok || d.Line != "title: x" {
		t.Errorf("AttachSource(Diagnostic) = %#v", d)
	}
}

func tt0() Diagnostic { return Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 1}, Message: "m"} }

func TestErrorKeepsPositionsAsValues(t *testing.T) {
	d := New(Pos{File: "a.md", Line: 2, Col: 5}, "page id %q is already used", "x").
		WithHint("ids are unique").WithRelated(Pos{File: "b.md", Line: 2, Col: 5}, "first used at")
	if got, want := d.Error(), `a.md:2:5: page id "x" is already used (hint: ids are unique) (first used at b.md:2:5)`; got != want {
		t.Errorf("Error() = %s, want %s", got, want)
	}
	if d.Related.File != "b.md" {
		t.Errorf("Related = %+v", d.Related)
	}
}

func TestSortIsTotal(t *testing.T) {
	a := List{
		{Pos: Pos{File: "b", Line: 1}, Message: "x"},
		{Pos: Pos{File: "a", Line: 2, Col: 3}, Message: "z"},
		{Pos: Pos{File: "a", Line: 2, Col: 3}, Message: "y"},
		{Pos: Pos{File: "a", Line: 2, Col: 3}, Message: "y"},
	}
	got := a.Sort().Error()
	if want := "a:2:3: y\na:2:3: z\nb:1: x"; got != want {
		t.Errorf("sorted:\n%s\nwant:\n%s", got, want)
	}
}

// TestSortKeepsList: Sort and Err leave the list as it was, so it can be
// sorted again (dropping a duplicate once cleared the list's last element:
// the dev server's overlay, which reported a list twice, showed an empty
// error).
func TestSortKeepsList(t *testing.T) {
	l := List{{Pos: Pos{File: "b"}, Message: "x"}, {Pos: Pos{File: "a"}, Message: "y"}, {Pos: Pos{File: "a"}, Message: "y"}}
	before := slices.Clone(l)
	first := l.Err().Error()
	if !slices.Equal(l, before) {
		t.Errorf("Err changed the list: %v, was %v", l, before)
	}
	if again := l.Err().Error(); again != first {
		t.Errorf("sorted again:\n%s\nthe first time:\n%s", again, first)
	}
}

// TestSeverity: a warning and a note are no errors (a build passes with
// them; sitegen check fails on a warning only with --strict), they sort after
// the errors, and their lines say what they are.
func TestSeverity(t *testing.T) {
	l := List{
		{Pos: Pos{File: "a.md"}, Message: "w", Severity: Warning, Kind: "duplicate-title"},
		{Pos: Pos{File: "b.md"}, Message: "n", Severity: Note},
		{Pos: Pos{File: "c.md"}, Message: "e"},
	}
	if n := l.Errors(); n != 1 {
		t.Errorf("Errors() = %d, want 1", n)
	}
	sorted := l.Sort()
	var got []string
	for _, d := range sorted {
		got = append(got, d.Error())
	}
	want := []string{"c.md: e", "warning: a.md: w", "note: b.md: n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sorted = %q, want %q", got, want)
	}
	if b, _ := Warning.MarshalText(); string(b) != "warning" || Error.String() != "error" {
		t.Errorf("names: %s %s", b, Error)
	}
	if (List{sorted[1], sorted[2]}).Err() != nil {
		t.Error("a list of a warning and a note is an error")
	}
}

// TestComparePos: ComparePos orders by position first, whatever the
// severity (sitegen check lists a file's warnings and errors in the order
// of their lines), while Sort puts the errors first.
func TestComparePos(t *testing.T) {
	l := List{
		{Pos: Pos{File: "a.md", Line: 9}, Message: "e"},
		{Pos: Pos{File: "a.md", Line: 2}, Message: "w", Severity: Warning},
	}
	slices.SortFunc(l, ComparePos)
	if l[0].Severity != Warning {
		t.Errorf("ComparePos: %v", l)
	}
	if s := l.Sort(); s[0].Severity != Error {
		t.Errorf("Sort: %v", s)
	}
}

// TestPosQuotesBadName: a position in a file whose name is not UTF-8, or
// holds a control character, is printed quoted, never as raw bytes.
func TestPosQuotesBadName(t *testing.T) {
	for _, tc := range []struct {
		pos  Pos
		want string
	}{
		{Pos{File: "content/pl/ż.md", Line: 2, Col: 3}, "content/pl/ż.md:2:3"},
		{Pos{File: "content/pl/\xff.md", Line: 2}, `"content/pl/\xff.md":2`},
		{Pos{File: "content/pl/a\x1b[2J.md"}, `"content/pl/a\x1b[2J.md"`},
	} {
		if got := tc.pos.String(); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.pos.File, got, tc.want)
		}
	}
}
