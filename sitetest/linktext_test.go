package sitetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// vagueLinkTexts are link texts that say nothing of where they go:
// Lighthouse's SEO audit "Links do not have descriptive text" lists the
// English ones (and counts hidden links too); the Polish ones are their
// equivalents.
var vagueLinkTexts = map[string]bool{
	"click here": true, "click this": true, "go": true, "here": true, "information": true, "learn more": true,
	"more": true, "more info": true, "more information": true, "right here": true, "read more": true,
	"see more": true, "start": true, "this": true,
	"kliknij tutaj": true, "kliknij": true, "tutaj": true, "tu": true, "więcej": true, "czytaj więcej": true,
	"zobacz więcej": true, "dowiedz się więcej": true, "więcej informacji": true, "informacje": true,
}

// TestLinksAreDescriptive: no link of any page, shown or hidden, has a
// vague text (issue 26 point 6: the hidden top bar's "See more" cost the
// English pages their SEO 100).
func TestLinksAreDescriptive(t *testing.T) {
	out := site(t)
	pages := 0
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		doc, err := html.Parse(f)
		if err != nil {
			return err
		}
		pages++
		rel, _ := filepath.Rel(out, p)
		for _, a := range vagueLinks(doc) {
			t.Errorf("%s: link to %s says only %q", rel, brAttr(a, "href"), linkText(a))
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

func TestVagueLinksFound(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader(`<p hidden><a href="/x/"> See <b>more</b> </a><a href="/y/">See the share offer</a><a href="/z/">Więcej</a></p>`))
	if got := len(vagueLinks(doc)); got != 2 {
		t.Errorf("found %d vague links, want 2", got)
	}
}

func vagueLinks(doc *html.Node) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" && brHasAttr(n, "href") && vagueLinkTexts[linkText(n)] {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// linkText is the link's text as Lighthouse reads it: trimmed, white space
// collapsed, lower case.
func linkText(a *html.Node) string {
	return strings.ToLower(strings.Join(strings.Fields(brText(a)), " "))
}
