package render

import (
	"fmt"
	"html/template"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TOCEntry is one heading of a table of contents.
type TOCEntry struct {
	Level int    // 2 for <h2>
	ID    string // the heading's id (the anchor)
	Text  string // its text, without markup
}

// toc lists the headings of rendered HTML (a page's .Page.Content) from
// level min to max that have an id, in document order: a layout writes
// the table of contents from them.
func toc(content template.HTML, min, max int) ([]TOCEntry, error) {
	if min < 1 || max > 6 || min > max {
		return nil, fmt.Errorf("toc: levels %d..%d (want 1 <= min <= max <= 6)", min, max)
	}
	var out []TOCEntry
	z := html.NewTokenizer(strings.NewReader(string(content)))
	var cur *TOCEntry
	var text strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out, nil
		case html.StartTagToken:
			t := z.Token()
			if lvl := headingLevel(t.DataAtom); lvl >= min && lvl <= max && cur == nil {
				for _, a := range t.Attr {
					if a.Key == "id" && a.Val != "" {
						cur = &TOCEntry{Level: lvl, ID: a.Val}
						text.Reset()
					}
				}
			}
		case html.TextToken:
			if cur != nil {
				text.Write(z.Text())
			}
		case html.EndTagToken:
			t := z.Token()
			if cur != nil && headingLevel(t.DataAtom) == cur.Level {
				cur.Text = strings.Join(strings.Fields(text.String()), " ")
				out = append(out, *cur)
				cur = nil
			}
		}
	}
}

func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}
