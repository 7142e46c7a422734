package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
)

// size is raw and gzip bytes.
type size struct{ raw, gz int }

func (a size) add(b size) size { return size{a.raw + b.raw, a.gz + b.gz} }

func gzipLen(b []byte, level int) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, level)
	w.Write(b)
	w.Close()
	return buf.Len()
}

// pageFile is the output file that answers a page URL.
func pageFile(out, u string) string {
	p := strings.TrimPrefix(u, "/")
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return filepath.Join(out, filepath.FromSlash(p))
}

// staticBytes are the bytes a page's HTML names: the HTML itself, the CSS
// it links (stylesheets, preloaded styles) or inlines (<style>), and the
// JavaScript it loads at startup (external scripts other than nomodule and
// data blocks, and modulepreloads). Inline scripts count in the HTML only.
type staticBytes struct {
	html, css, js size
	files         []string // the CSS and JS files counted, for -v
}

func measureStatic(out, pageURL string, level int) (staticBytes, error) {
	var sb staticBytes
	b, err := os.ReadFile(pageFile(out, pageURL))
	if err != nil {
		return sb, err
	}
	sb.html = size{len(b), gzipLen(b, level)}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		return sb, fmt.Errorf("%s: %v", pageURL, err)
	}
	seen := map[string]bool{}
	file := func(ref string) (string, bool) {
		u, err := url.Parse(ref)
		if err != nil || (u.Host != "" && u.Host != "127.0.0.1") || u.Scheme == "data" {
			return "", false
		}
		p := u.Path
		if !strings.HasPrefix(p, "/") {
			p = path.Join(path.Dir(pageURL+"x"), p)
		}
		return p, true
	}
	var errs []string
	count := func(ref string, into *size) {
		p, ok := file(ref)
		if !ok || seen[p] {
			return
		}
		seen[p] = true
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(p, "/"))))
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s names %s, not in the output", pageURL, p))
			return
		}
		*into = into.add(size{len(data), gzipLen(data, level)})
		sb.files = append(sb.files, p)
	}
	var inlineCSS bytes.Buffer
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			a := map[string]string{}
			for _, at := range n.Attr {
				a[strings.ToLower(at.Key)] = at.Val
			}
			rel := " " + strings.ToLower(a["rel"]) + " "
			switch n.Data {
			case "link":
				switch {
				case strings.Contains(rel, " stylesheet ") && !strings.Contains(rel, " alternate "):
					count(a["href"], &sb.css)
				case strings.Contains(rel, " preload ") && a["as"] == "style":
					count(a["href"], &sb.css)
				case strings.Contains(rel, " modulepreload "):
					count(a["href"], &sb.js)
				}
			case "style":
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.TextNode {
						inlineCSS.WriteString(c.Data)
					}
				}
			case "script":
				t := strings.ToLower(strings.TrimSpace(a["type"]))
				_, nomodule := a["nomodule"]
				js := t == "" || t == "module" || t == "text/javascript" || t == "application/javascript"
				if src, ok := a["src"]; ok && js && !nomodule {
					count(src, &sb.js)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if inlineCSS.Len() > 0 {
		sb.css = sb.css.add(size{inlineCSS.Len(), gzipLen(inlineCSS.Bytes(), level)})
	}
	if len(errs) > 0 {
		return sb, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return sb, nil
}
