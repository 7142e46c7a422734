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

// TestStylesInlineAndHashed: no page makes the browser wait for a
// stylesheet before its first paint. Every page carries the site's one
// stylesheet in a <style> in its head (a <link rel=stylesheet> in the head
// cost about 1 s of the mobile LCP, bench/lighthouse), the same on every
// page; and the CSP in the host's rule files allows exactly the inline
// styles the pages carry, by hash, without 'unsafe-inline'.
func TestStylesInlineAndHashed(t *testing.T) {
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
		m := regexp.MustCompile(`style-src ([^;"\n]*)`).FindAllStringSubmatch(string(b), -1)
		if len(m) == 0 {
			t.Fatalf("%s: no style-src in the CSP", f)
		}
		for _, x := range m[1:] {
			if x[1] != m[0][1] {
				t.Fatalf("%s: two different style-src: %q and %q", f, m[0][1], x[1])
			}
		}
		policies[f] = m[0][1]
		if strings.Contains(m[0][1], "'unsafe-inline'") {
			t.Errorf("%s: style-src %s allows any inline style; it should list the hashes of the pages' <style>s", f, m[0][1])
		}
	}
	sheets := map[string]string{} // the inline stylesheet -> a page carrying it
	pages := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		name := "/" + filepath.ToSlash(rel)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		doc, err := html.Parse(f)
		f.Close()
		if err != nil {
			return err
		}
		var styles, links []string
		var refresh bool
		var walk func(n *html.Node, inHead bool)
		walk = func(n *html.Node, inHead bool) {
			if n.Type == html.ElementNode {
				attr := map[string]string{}
				for _, a := range n.Attr {
					attr[a.Key] = a.Val
				}
				switch {
				case n.Data == "head":
					inHead = true
				case n.Data == "meta" && strings.EqualFold(attr["http-equiv"], "refresh"):
					refresh = true
				case n.Data == "link" && strings.Contains(" "+strings.ToLower(attr["rel"])+" ", " stylesheet ") && attr["media"] != "print":
					links = append(links, attr["href"])
				case n.Data == "style":
					var b strings.Builder
					for c := n.FirstChild; c != nil; c = c.NextSibling {
						b.WriteString(c.Data)
					}
					styles = append(styles, b.String())
					if !inHead {
						t.Errorf("%s: a <style> outside the head", name)
					}
				}
				if _, ok := attr["style"]; ok {
					t.Errorf("%s: a style attribute on <%s> (the CSP refuses it)", name, n.Data)
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, inHead)
			}
		}
		walk(doc, false)
		if refresh && len(styles) == 0 && len(links) == 0 {
			return nil // a redirect page shows nothing
		}
		pages++
		for _, l := range links {
			t.Errorf("%s: <link rel=stylesheet href=%q> blocks the first paint; the stylesheet belongs inline", name, l)
		}
		if len(styles) != 1 {
			t.Errorf("%s: %d <style> elements, want the site's one stylesheet", name, len(styles))
		}
		for _, css := range styles {
			if len(css) < 1000 {
				t.Errorf("%s: an inline stylesheet of %d bytes: not the site's stylesheet", name, len(css))
			}
			sum := sha256.Sum256([]byte(css))
			hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
			for f, pol := range policies {
				if !strings.Contains(" "+pol+" ", " "+hash+" ") {
					t.Errorf("%s: the CSP of %s does not allow its <style> (%s not in style-src %s)", name, f, hash, pol)
				}
			}
			if _, ok := sheets[css]; !ok {
				sheets[css] = name
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 90 {
		t.Errorf("checked %d pages, want every page of the site (more than 90)", pages)
	}
	if len(sheets) > 1 {
		var names []string
		for _, n := range sheets {
			names = append(names, n)
		}
		t.Errorf("%d different inline stylesheets (e.g. on %v): the site ships one", len(sheets), names)
	}
}

// TestTopbarScriptWhileVisitorsCanBeInWindow: the top bar's
// parser-blocking script (the visitor's date decides before the first
// paint) ships while a visitor's date can fall inside the announcement's
// window (its end, 2026-09-21, at most two days before the build's date),
// and not after: then it only delays every page's first paint.
func TestTopbarScriptWhileVisitorsCanBeInWindow(t *testing.T) {
	for _, c := range []struct {
		date string
		want bool
	}{
		{"2026-08-15", true}, // inside the window
		{"2026-09-23", true}, // a visitor far west may still be on the 21st
		{"2026-09-24", false},
		{"2031-01-01", false},
	} {
		t.Run(c.date, func(t *testing.T) {
			out := siteOn(t, c.date)
			for _, p := range []string{"pl/index.html", "en/o-nas/kontakt/index.html", "en/about-us/contact/index.html"} {
				b, err := os.ReadFile(filepath.Join(out, p))
				if os.IsNotExist(err) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), `class="topbar"`) {
					t.Fatalf("%s: no top bar", p)
				}
				if got := regexp.MustCompile(`<script src="/_assets/topbar-now-`).Match(b); got != c.want {
					t.Errorf("%s built on %s: top bar script %v, want %v", p, c.date, got, c.want)
				}
			}
		})
	}
}
