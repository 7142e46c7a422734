package sitetest

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestEveryPersonHasAPortrait: every person the site shows (the team and
// the boards, the contact persons, the customers quoted) has a drawn
// portrait of one style (/img/team/, tools/avatars/generate.py), never the
// empty placeholder of a person without a picture.
func TestEveryPersonHasAPortrait(t *testing.T) {
	out := site(t)
	kinds := map[string]int{}
	walkHTML(t, out, func(name string, doc *html.Node) {
		for _, kind := range []string{"person", "contact-card", "quote"} {
			for _, card := range find(doc, func(n *html.Node) bool { return n.Type == html.ElementNode && hasExactClass(n, kind) }) {
				kinds[kind]++
				imgs := find(card, func(n *html.Node) bool {
					return n.Data == "img" && strings.HasPrefix(brAttr(n, "src"), "/img/team/") && strings.HasSuffix(brAttr(n, "src"), ".svg")
				})
				if len(imgs) != 1 {
					who := []rune(strings.Join(strings.Fields(text(card)), " "))
					t.Errorf("%s: a .%s card (%q) has %d drawn portraits, want 1", name, kind, string(who[:min(60, len(who))]), len(imgs))
				}
			}
		}
	})
	for _, kind := range []string{"person", "contact-card", "quote"} {
		if kinds[kind] == 0 {
			t.Errorf("precondition: no .%s card on any page", kind)
		}
	}
}

// hasExactClass reports whether n's class attribute holds c itself (not a
// modifier such as c--compact, nor an element such as c__name).
func hasExactClass(n *html.Node, c string) bool {
	for _, f := range strings.Fields(brAttr(n, "class")) {
		if f == c {
			return true
		}
	}
	return false
}
