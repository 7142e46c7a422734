package markdown

import (
	"strings"
	"testing"

	"sitegen/pkg/diag"
)

func nestedList(depth int) string {
	var b strings.Builder
	b.WriteString("Intro.\n\n")
	for i := 0; i < depth; i++ {
		b.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	return b.String()
}

// TestBounds: Markdown whose parsing cost grows faster than its size (deep
// nesting, paragraphs full of unclosed brackets) is refused at the line
// that starts it; ordinary Markdown near the bounds is not.
func TestBounds(t *testing.T) {
	links := func(n int) string { return strings.Repeat("[a](/x) ", n) }
	refused := []struct {
		name, src string
		want      string // position
	}{
		{"list 2000 deep", nestedList(2000), "content/pl/x.md:141:259"},
		{"list markers on one line", "x\n\n" + strings.Repeat("- ", 100) + "y\n", "content/pl/x.md:12:129"},
		{"quotes", strings.Repeat(">", 10000) + " x\n", "content/pl/x.md:10:65"},
		{"unclosed links", strings.Repeat("[a](", 50000), "content/pl/x.md:10:1"},
		{"brackets", "ok\n\n" + strings.Repeat("[", 100000) + "x" + strings.Repeat("]", 100000), "content/pl/x.md:12"},
	}
	c := New(Options{})
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			src := Source{Text: []byte(tc.src), Pos: diag.Pos{File: "content/pl/x.md", Line: 10, Col: 1}}
			_, errs := c.Block(src, nil)
			if len(errs) != 1 || errs[0].Pos.String() != tc.want {
				t.Fatalf("diagnostics %v, want one at %s", errs, tc.want)
			}
			if errs := c.CheckLinks(src, nil); len(errs) != 1 {
				t.Errorf("CheckLinks: %v, want the same refusal", errs)
			}
		})
	}
	accepted := map[string]string{
		"list 60 deep":       nestedList(60),
		"thematic breaks":    strings.Repeat("- ", 200) + "\n\n" + strings.Repeat("*", 500) + "\n",
		"many links":         strings.Repeat(links(200)+"\n\n", 100),
		"numbered sub-items": "1. a\n   1. b\n      1. c\n",
	}
	for name, s := range accepted {
		if _, errs := c.Block(Source{Text: []byte(s), Pos: diag.Pos{File: "x.md", Line: 1}}, func(d string) (string, error) { return d, nil }); len(errs) > 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}
}
