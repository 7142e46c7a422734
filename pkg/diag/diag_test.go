package diag

import (
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
