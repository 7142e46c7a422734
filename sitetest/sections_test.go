package sitetest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"
)

// TestEverySectionHasHeading: on every page of the built site each
// <section> has a heading of its own (h1–h6, not one of a nested section),
// or it is not a <section> (the Nu HTML checker's "Section lacks heading").
func TestEverySectionHasHeading(t *testing.T) {
	out := site(t)
	bad := 0
	for _, p := range htmlPages(t, out) {
		// A tag chosen by a template action (<{{ $tag }}>) is escaped
		// into text by html/template: it must not show on the page.
		if raw, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		} else if bytes.Contains(raw, []byte("&lt;section")) || bytes.Contains(raw, []byte("&lt;div class=")) {
			t.Errorf("%s: an element's tag shows as text (&lt;section or &lt;div class=)", p)
		}
		for _, s := range find(doc(t, out, p), func(n *html.Node) bool { return n.Type == html.ElementNode && n.Data == "section" }) {
			if !ownHeading(s) {
				bad++
				if bad <= 30 {
					cls, _ := attr(s, "class")
					id, _ := attr(s, "id")
					t.Errorf("%s: <section class=%q id=%q> has no heading", p, cls, id)
				}
			}
		}
	}
	if bad > 30 {
		t.Errorf("... %d sections without a heading in all", bad)
	}
}

// ownHeading reports whether n holds a heading outside any nested section.
func ownHeading(n *html.Node) bool {
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
		if ownHeading(c) {
			return true
		}
	}
	return false
}
