package sitetest

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"sitegen/pkg/render"
)

// TestLateElementsInTemplates: no page asks for its module scripts, their
// modulepreloads or the web app manifest while it loads. Lighthouse's
// simulated LCP charges every request that ended before the observed LCP
// over slow 4G, whatever its priority: requested during the parse, these
// held the mobile LCP 0.2-0.5 s back (bench/lighthouse, fourth round). They
// sit in <template data-sg-late> (inert), and the page carries the inline
// late loader (render.LateLoader) after them, which copies them into the
// head after the load and the first paint (TestBrowser/LoadPriorities sees
// their requests start after the load event); without JavaScript the
// manifest is in a <noscript>.
func TestLateElementsInTemplates(t *testing.T) {
	out := site(t)
	var lates, pagesSeen int
	walkHTML(t, out, func(name string, doc *html.Node) {
		var early []string
		var lateTemplates, loaders int
		var manifestLate bool
		var walk func(n *html.Node, inTemplate bool)
		walk = func(n *html.Node, inTemplate bool) {
			if n.Type == html.ElementNode {
				attr := map[string]string{}
				for _, a := range n.Attr {
					attr[a.Key] = a.Val
				}
				rel := " " + strings.ToLower(attr["rel"]) + " "
				switch {
				case n.Data == "template":
					if _, ok := attr["data-sg-late"]; ok {
						lateTemplates++
						inTemplate = true
					}
				case n.Data == "script" && attr["src"] != "" && attr["type"] == "module",
					n.Data == "link" && strings.Contains(rel, " modulepreload "),
					n.Data == "link" && strings.Contains(rel, " manifest "):
					if !inTemplate {
						early = append(early, n.Data+" "+attr["src"]+attr["href"])
					} else if strings.Contains(rel, " manifest ") {
						manifestLate = true
					}
				case n.Data == "script" && attr["src"] == "" && n.FirstChild != nil && n.FirstChild.Data == render.LateLoader:
					loaders++
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, inTemplate)
			}
		}
		walk(doc, false) // walkHTML leaves out the alias pages (redirects)
		pagesSeen++
		for _, e := range early {
			t.Errorf("%s: %s is requested while the page loads: put it in a <template data-sg-late>", name, e)
		}
		if !manifestLate {
			t.Errorf("%s: no web app manifest in a <template data-sg-late>", name)
		}
		if lateTemplates > 0 {
			lates++
			if loaders != 1 {
				t.Errorf("%s: %d <template data-sg-late> but %d copies of the late loader: want exactly one", name, lateTemplates, loaders)
			}
		}
	})
	if pagesSeen == 0 || lates == 0 {
		t.Fatalf("precondition: %d pages, %d with late templates", pagesSeen, lates)
	}
}
