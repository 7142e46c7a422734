package sitetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestSectionsHaveHeadings: every <section> of every page has a heading of
// its own (h1–h6 not inside a nested sectioning element): what the Nu HTML
// checker warns about as "Section lacks heading" (issue 26 point 8). A block
// without a heading is a <div>.
func TestSectionsHaveHeadings(t *testing.T) {
	out := site(t)
	pages := 0
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := html.Parse(strings.NewReader(string(b)))
		if err != nil {
			return err
		}
		pages++
		rel, _ := filepath.Rel(out, p)
		for _, s := range headlessSections(doc) {
			t.Errorf("%s: <section class=%q id=%q> has no heading", rel, brAttr(s, "class"), brAttr(s, "id"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 100 {
		t.Fatalf("checked %d pages; the site has more", pages)
	}
}

// TestHeadlessSectionsFound: the check finds a section without a heading,
// and one whose only heading belongs to a nested article.
func TestHeadlessSectionsFound(t *testing.T) {
	for src, want := range map[string]int{
		`<section><h2>A</h2><p>x</p></section>`:                          0,
		`<section><div><h3>A</h3></div></section>`:                       0,
		`<section><p>x</p></section>`:                                    1,
		`<section><article><h2>A</h2></article></section>`:               1,
		`<section><h2>A</h2><section><p>x</p></section></section>`:       1,
		`<div><p>no section</p></div><section aria-label="x"></section>`: 1,
	} {
		doc, _ := html.Parse(strings.NewReader(src))
		if got := len(headlessSections(doc)); got != want {
			t.Errorf("%s: %d headless sections, want %d", src, got, want)
		}
	}
}

func headlessSections(doc *html.Node) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "section" && !hasOwnHeading(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// hasOwnHeading: an h1–h6 under n, not inside a nested sectioning element.
func hasOwnHeading(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.Data {
		case "h1", "h2", "h3", "h4", "h5", "h6":
			return true
		case "section", "article", "aside", "nav":
			continue
		}
		if hasOwnHeading(c) {
			return true
		}
	}
	return false
}
