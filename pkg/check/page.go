package check

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// page is what the checks need of one rendered HTML page.
type page struct {
	ids         map[string]bool
	links       []string // href of <a> and <area>
	feeds       []string // href of <link rel="alternate"> to an RSS or Atom feed
	imgsNoAlt   []string // src of <img> without an alt attribute
	title       string
	hasTitle    bool
	description *string
	alternates  map[string]string // hreflang -> href
	canonical   string            // href of <link rel="canonical">
	styles      []string
	scripts     []string // module scripts and preloads
	noindex     bool     // <meta name="robots" content="noindex...">
}

func parsePage(b []byte) *page {
	p := &page{ids: map[string]bool{}, alternates: map[string]string{}}
	z := html.NewTokenizer(bytes.NewReader(b))
	inTitle := false
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return p
		case html.TextToken:
			if inTitle {
				p.title += string(z.Text())
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); atom.Lookup(name) == atom.Title {
				inTitle = false
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			if id, ok := attrs["id"]; ok && id != "" {
				p.ids[id] = true
			}
			switch atom.Lookup(name) {
			case atom.A, atom.Area:
				if n, ok := attrs["name"]; ok && atom.Lookup(name) == atom.A {
					p.ids[n] = true
				}
				if h, ok := attrs["href"]; ok {
					p.links = append(p.links, h)
				}
			case atom.Img:
				if _, ok := attrs["alt"]; !ok {
					p.imgsNoAlt = append(p.imgsNoAlt, attrs["src"])
				}
			case atom.Title:
				if !p.hasTitle {
					p.hasTitle, inTitle = true, true
				}
			case atom.Meta:
				if strings.EqualFold(attrs["name"], "description") {
					d := attrs["content"]
					p.description = &d
				}
				if strings.EqualFold(attrs["name"], "robots") && strings.Contains(strings.ToLower(attrs["content"]), "noindex") {
					p.noindex = true
				}
			case atom.Link:
				rel := " " + strings.ToLower(attrs["rel"]) + " "
				switch {
				case strings.Contains(rel, " alternate ") && attrs["hreflang"] != "":
					p.alternates[attrs["hreflang"]] = attrs["href"]
				case strings.Contains(rel, " alternate ") && (attrs["type"] == "application/rss+xml" || attrs["type"] == "application/atom+xml"):
					p.feeds = append(p.feeds, attrs["href"])
				case strings.Contains(rel, " canonical "):
					p.canonical = attrs["href"]
				case strings.Contains(rel, " stylesheet "):
					p.styles = append(p.styles, attrs["href"])
				case strings.Contains(rel, " modulepreload "):
					p.scripts = append(p.scripts, attrs["href"])
				}
			case atom.Script:
				if src, ok := attrs["src"]; ok {
					p.scripts = append(p.scripts, src)
				}
			}
		}
	}
}
