package sitetest

import (
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// preloadedFaces are the font files every page preloads (the faces of the
// text above the fold: Space Grotesk for headings, Inter for the rest), and
// those a Polish page preloads too (its Polish letters).
var (
	preloadedFaces   = []string{"space-grotesk-latin-wght", "inter-latin-wght"}
	preloadedFacesPL = []string{"space-grotesk-pl-wght", "inter-pl-wght"}
)

// TestFontsPreloaded: a first visit is in the brand fonts. Every page
// preloads the latin files of both families (a Polish page its Polish
// letters' files too) before its stylesheet, as fonts (as=font,
// type=font/woff2, crossorigin: a font fetch is a CORS request, and a
// preload without it is fetched twice), at the URLs its @font-face rules
// name; those faces are font-display: swap, and the type tokens name the
// web fonts first and their metric-matched fallbacks next
// (TestFontFallbackMetrics), so a swap after the first paint moves nothing
// (TestBrowser/FirstVisitFonts measures it).
func TestFontsPreloaded(t *testing.T) {
	out := site(t)
	tokens := regexp.MustCompile(`:root\s*\{[^}]*?--font-(sans|display):\s*([^;}]*)[^}]*?--font-(sans|display):\s*([^;}]*)`)
	faces := regexp.MustCompile(`@font-face\s*\{([^}]*)\}`)
	pages := 0
	walkHTML(t, out, func(name string, doc *html.Node) {
		heads := find(doc, func(n *html.Node) bool { return n.Data == "head" })
		if len(heads) == 0 || len(find(heads[0], func(n *html.Node) bool { return n.Data == "style" })) == 0 {
			return // a redirect page
		}
		pages++
		var css string
		preloads := map[string]string{} // face -> href
		for n := heads[0].FirstChild; n != nil; n = n.NextSibling {
			if n.Type != html.ElementNode {
				continue
			}
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
			}
			switch {
			case n.Data == "link" && attr["rel"] == "preload" && attr["as"] == "font":
				if css != "" {
					t.Errorf("%s: the font preload %s comes after the stylesheet", name, attr["href"])
				}
				if _, ok := attr["crossorigin"]; !ok || attr["type"] != "font/woff2" {
					t.Errorf("%s: font preload %s: crossorigin %v, type %q: want crossorigin and font/woff2", name, attr["href"], ok, attr["type"])
				}
				for _, f := range append(append([]string{}, preloadedFaces...), preloadedFacesPL...) {
					if strings.Contains(attr["href"], "/"+f+"-") {
						preloads[f] = attr["href"]
					}
				}
			case n.Data == "style":
				css += rawText(n)
			}
		}
		want := preloadedFaces
		if strings.HasPrefix(name, "/pl/") {
			want = append(append([]string{}, preloadedFaces...), preloadedFacesPL...)
		}
		for _, f := range want {
			href, ok := preloads[f]
			if !ok {
				t.Errorf("%s: does not preload %s (preloads %v)", name, f, preloads)
				continue
			}
			// The preloaded file is the one a swap-face of the stylesheet names.
			named := false
			for _, m := range faces.FindAllStringSubmatch(css, -1) {
				if strings.Contains(m[1], href) {
					named = true
					if !regexp.MustCompile(`font-display:\s*swap`).MatchString(m[1]) {
						t.Errorf("%s: the @font-face of %s is not font-display: swap: %s", name, href, m[1])
					}
				}
			}
			if !named {
				t.Errorf("%s: preloads %s, which no @font-face of its stylesheet names", name, href)
			}
		}
		if pages > 1 {
			return // one stylesheet on every page (TestStylesInlineAndHashed)
		}
		m := tokens.FindStringSubmatch(css)
		if m == nil {
			t.Fatalf("%s: no --font-sans and --font-display in :root", name)
		}
		first := map[string]string{m[1]: m[2], m[3]: m[4]}
		for tok, fams := range map[string][]string{"sans": {`"Inter Variable"`, `"Inter Fallback"`}, "display": {`"Space Grotesk Variable"`, `"Space Grotesk Fallback"`}} {
			list := strings.Split(first[tok], ",")
			if len(list) < 2 || strings.TrimSpace(list[0]) != fams[0] || strings.TrimSpace(list[1]) != fams[1] {
				t.Errorf(":root --font-%s: %s, want %s then %s", tok, first[tok], fams[0], fams[1])
			}
		}
	})
	if pages < 90 {
		t.Errorf("checked %d pages, want every page of the site (more than 90)", pages)
	}
}

// rawText is the text of a <script> or <style>, as written.
func rawText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(c.Data)
	}
	return b.String()
}
