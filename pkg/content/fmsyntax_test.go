package content

import (
	"strings"
	"testing"
)

// TestFrontMatterSyntaxPosition: a quote or flow bracket left open in front
// matter is reported at the line and column where it opens (the caret goes
// there), not at the end of the front matter or without a column.
func TestFrontMatterSyntaxPosition(t *testing.T) {
	for _, c := range []struct {
		name, fm string
		pos      string // file:line:col
		msg      string
	}{
		{"double quote", "id: a\ntitle: \"About\ndescription: x\n", "p.md:3:8", `the quoted string (") opened here is not closed on its line`},
		{"single quote", "id: a\ntitle: 'About\ndescription: x\n", "p.md:3:8", `the quoted string (') opened here is not closed on its line`},
		{"quote in a list item", "id: a\ntags:\n  - \"b\n  - c\n", "p.md:4:5", `the quoted string (")`},
		{"quote after an apostrophe in a plain scalar", "id: a\ntitle: It's \"fine\"\ndescription: 'x\n", "p.md:4:14", `the quoted string (')`},
		{"quote inside a flow list", "id: a\ntags: [a, \"b\ndescription: x\n", "p.md:3:11", `the quoted string (")`},
		{"flow list", "id: a\ntitle: [About, x\ndescription: x\n", "p.md:3:8", "the flow list ([) opened here is not closed (did not find expected ',' or ']')"},
		{"nested flow list", "id: a\ntitle: [a, [b]\n", "p.md:3:8", "the flow list ([)"},
		{"flow mapping", "id: a\nparams: {a: b\ndescription: x\n", "p.md:3:9", "the flow mapping ({) opened here is not closed"},
		{"quote at the first line", "title: \"x\n", "p.md:2:8", `the quoted string (")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errs := ParsePage("p.md", "en", "p.md", []byte("---\n"+c.fm+"---\nbody\n"))
			if len(errs) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %v", len(errs), errs)
			}
			d := errs[0]
			if got := d.Pos.String(); got != c.pos {
				t.Errorf("at %s, want %s (%s)", got, c.pos, d.Message)
			}
			if !strings.Contains(d.Message, c.msg) {
				t.Errorf("message %q lacks %q", d.Message, c.msg)
			}
			if d.Hint == "" {
				t.Errorf("no hint: %s", d.Message)
			}
		})
	}
}
