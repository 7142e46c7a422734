package sitetest

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// vagueLinkTexts are link texts that say nothing of where a link leads
// (Lighthouse's SEO audit "link-text" lists these, in both languages we
// use, and fails a page with one, hidden or not).
var vagueLinkTexts = map[string]bool{
	"click here": true, "click this": true, "go": true, "here": true, "this": true, "start": true,
	"right here": true, "more": true, "learn more": true, "see more": true, "read more": true,
	"więcej": true, "zobacz więcej": true, "czytaj więcej": true, "dowiedz się więcej": true,
	"kliknij tutaj": true, "tutaj": true, "tu": true,
}

// TestLinkTextsDescriptive: no link on any page of the built site, shown
// or hidden, has a non-descriptive text.
func TestLinkTextsDescriptive(t *testing.T) {
	out := site(t)
	for _, p := range htmlPages(t, out) {
		for _, a := range find(doc(t, out, p), func(n *html.Node) bool { return n.Type == html.ElementNode && n.Data == "a" }) {
			if _, ok := attr(a, "href"); !ok {
				continue
			}
			if label, ok := attr(a, "aria-label"); ok && !vagueLinkTexts[strings.ToLower(strings.TrimSpace(label))] {
				continue
			}
			if txt := strings.ToLower(strings.Join(strings.Fields(text(a)), " ")); vagueLinkTexts[txt] {
				t.Errorf("%s: a link to %s says only %q", p, hrefOf(a), txt)
			}
		}
	}
}

func hrefOf(n *html.Node) string { h, _ := attr(n, "href"); return h }
