package sitetest

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestWebFontsOnlyWhenCached: no page fetches a web font while it loads
// unless an earlier page left it in the cache. Fetched during the load
// (preloaded or named by the type tokens), Lighthouse's simulated LCP
// charged the fonts' ~70 KB over slow 4G to every page: 1.8-2.0 s instead
// of 1.1-1.5 s (bench/lighthouse). So no page preloads a font; the type
// tokens name only the metric-matched local faces, and the web fonts only
// under :root.sg-fonts (set before the first paint by an inline script in
// the head when the runtime recorded that it fetched them, TestBrowser/
// FontsAfterLoad) and when scripting is off; and the CSP in _headers,
// _nginx.conf and .htaccess allows that inline script by its hash.
func TestWebFontsOnlyWhenCached(t *testing.T) {
	out := site(t)
	policies := map[string]string{}
	// The host's rule files (site.yaml's host): whichever it has.
	for _, f := range []string{"_headers", "_nginx.conf", ".htaccess"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`script-src ([^;"\n]*)`).FindStringSubmatch(string(b))
		if m == nil {
			t.Fatalf("%s: no script-src in the CSP", f)
		}
		policies[f] = m[1]
	}
	tokens := regexp.MustCompile(`--font-(sans|display):\s*([^;}]*)`)
	pages := 0
	walkHTML(t, out, func(name string, doc *html.Node) {
		heads := find(doc, func(n *html.Node) bool { return n.Data == "head" })
		if len(heads) == 0 || len(find(heads[0], func(n *html.Node) bool { return n.Data == "style" })) == 0 {
			return // a redirect page
		}
		head := heads[0]
		pages++
		var order []string // inline scripts ("script") and styles ("style") in the head, in order
		var script, css string
		for n := head.FirstChild; n != nil; n = n.NextSibling {
			if n.Type != html.ElementNode {
				continue
			}
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
			}
			switch {
			case n.Data == "link" && attr["rel"] == "preload" && attr["as"] == "font":
				t.Errorf("%s: preloads the font %s while the page loads", name, attr["href"])
			case n.Data == "script" && attr["src"] == "" && (attr["type"] == "" || attr["type"] == "module"):
				order = append(order, "script")
				script = rawText(n)
			case n.Data == "style":
				order = append(order, "style")
				css = rawText(n)
			}
		}
		if strings.Join(order, " ") != "script style" {
			t.Errorf("%s: inline head elements %v, want the fonts script before the stylesheet", name, order)
		} else {
			if !strings.Contains(script, `localStorage.getItem("sg-fonts")`) || !strings.Contains(script, `classList.add("sg-fonts")`) {
				t.Errorf("%s: the head's inline script %q does not set sg-fonts from local storage", name, script)
			}
			sum := sha256.Sum256([]byte(script))
			hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
			for f, pol := range policies {
				if !strings.Contains(" "+pol+" ", " "+hash+" ") {
					t.Errorf("%s: the CSP of %s does not allow its inline script (%s not in script-src %s)", name, f, hash, pol)
				}
			}
		}
		if pages > 1 {
			return // one stylesheet on every page (TestStylesInlineAndHashed)
		}
		// The stylesheet: by block, the type tokens each declares.
		blocks := map[string]map[string]string{}
		for _, m := range regexp.MustCompile(`(@media\s*\(scripting:\s*none\)\s*\{\s*:root|:root\.sg-fonts|:root)\s*\{([^}]*)\}`).FindAllStringSubmatch(css, -1) {
			sel := strings.Join(strings.Fields(strings.ReplaceAll(m[1], "{", "")), "")
			for _, tm := range tokens.FindAllStringSubmatch(m[2], -1) {
				if blocks[sel] == nil {
					blocks[sel] = map[string]string{}
				}
				if _, ok := blocks[sel][tm[1]]; !ok {
					blocks[sel][tm[1]] = strings.TrimSpace(tm[2])
				}
			}
		}
		want := map[string]string{"sans": `"Inter Variable"`, "display": `"Space Grotesk Variable"`}
		for _, tok := range []string{"sans", "display"} {
			base, ok := blocks[":root"][tok]
			if !ok {
				t.Errorf("no --font-%s in :root", tok)
			} else if strings.Contains(base, "Variable") {
				t.Errorf(":root --font-%s: %s names a web font: every first page would fetch it while it loads", tok, base)
			}
			for _, sel := range []string{":root.sg-fonts", "@media(scripting:none):root"} {
				if v := blocks[sel][tok]; !strings.HasPrefix(v, want[tok]) {
					t.Errorf("%s --font-%s: %q, want the web font %s first", sel, tok, v, want[tok])
				}
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
