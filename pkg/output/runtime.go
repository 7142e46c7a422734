package output

import (
	"bytes"
	"html"
	"slices"
	"strings"

	"sitegen/pkg/config"
	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// Head is what a client-side page swap updates in <head>.
type Head struct {
	Title       string
	Description string
	Canonical   string
	Robots      string
}

// ParseHead reads the head fields of a rendered page (the templates write
// them in exactly these forms).
func ParseHead(page []byte) Head {
	head := page
	if i := bytes.Index(page, []byte("</head>")); i >= 0 {
		head = page[:i]
	}
	get := func(open string, stop byte, close string) string {
		if v, ok := between(head, open, stop, close); ok {
			return html.UnescapeString(string(v))
		}
		return ""
	}
	return Head{
		Title:       get("<title>", '<', "</title>"),
		Description: get(`<meta name="description" content="`, '"', `">`),
		Canonical:   get(`<link rel="canonical" href="`, '"', `">`),
		Robots:      get(`<meta name="robots" content="`, '"', `">`),
	}
}

// between finds the first open in b followed by bytes other than stop and
// then close, and returns those bytes: the leftmost match of the regular
// expression open([^stop]*)close, found with plain searches.
func between(b []byte, open string, stop byte, close string) ([]byte, bool) {
	for {
		i := bytes.Index(b, []byte(open))
		if i < 0 {
			return nil, false
		}
		rest := b[i+len(open):]
		if j := bytes.IndexByte(rest, stop); j >= 0 && bytes.HasPrefix(rest[j:], []byte(close)) {
			return rest[:j], true
		}
		b = b[i+1:]
	}
}

// SliceNames are the shared parts of every page, one slice per locale.
var SliceNames = []string{"header", "footer"}

// SlicesMap is a page's slicesMap: slice -> the name of its locale's data
// (/slice-data/{name}.json).
func SlicesMap(lang string) map[string]string {
	m := make(map[string]string, len(SliceNames))
	for _, n := range SliceNames {
		m[n] = n + "-" + lang
	}
	return m
}

// SliceDataPath is the output path of a slice's data.
func SliceDataPath(name string) string { return sitepath.SliceData + "/" + name + ".json" }

// Slice is /slice-data/{name}.json: the HTML of a shared part of the page.
type Slice struct {
	Name string `json:"name"`
	HTML string `json:"html"`
}

// Slices cuts a rendered page into its shared parts: "header" is everything
// in <body> before <main> (skip link, top bar, header), "footer" everything
// after </main> up to the page's scripts (footer, consent banner). They
// carry the marks of the page they were cut from (aria-current); the
// runtime sets those for the page it shows.
func Slices(page []byte) (map[string]string, bool) {
	b := bytes.Index(page, []byte("<body"))
	m := bytes.Index(page, []byte("<main"))
	me := bytes.LastIndex(page, []byte("</main>"))
	if b < 0 || m < b || me < m {
		return nil, false
	}
	bo := bytes.IndexByte(page[b:], '>')
	tail := page[me+len("</main>"):]
	end := len(tail)
	for _, stop := range []string{`<template data-sg-late`, `<script type="module"`, `<link rel="modulepreload"`, `</body>`} {
		if i := bytes.Index(tail, []byte(stop)); i >= 0 && i < end {
			end = i
		}
	}
	return map[string]string{
		"header": strings.TrimSpace(string(page[b+bo+1 : m])),
		"footer": strings.TrimSpace(string(tail[:end])),
	}, true
}

// RSC is /page-data/{p}/page-data-rsc.json: the island manifest of a page
// whose <main> holds islands. The props stay in the page HTML (next to each
// island) so the manifest does not repeat them.
type RSC struct {
	Path    string      `json:"path"`
	Loader  string      `json:"loader"`
	Modules []string    `json:"modules"` // chunks to preload
	Islands []RSCIsland `json:"islands"`
}

// RSCIsland is one island of the manifest.
type RSCIsland struct {
	Component string `json:"component"`
	Directive string `json:"directive"`
	Media     string `json:"media,omitempty"`
	Chunk     string `json:"chunk"`
}

// RSCPath is the output path of an entry's island manifest.
func RSCPath(e *route.Entry) string {
	return "page-data/" + e.PageData + "/page-data-rsc.json"
}

// IslandNames are the distinct components of a manifest, sorted as found.
func IslandNames(is []RSCIsland) []string {
	var names []string
	seen := map[string]bool{}
	for _, i := range is {
		if !seen[i.Component] {
			seen[i.Component] = true
			names = append(names, i.Component)
		}
	}
	return names
}

// AnalyticsSources are the CSP sources the configured analytics need: none
// without scripts; with them, the scripts' origins for scripts, and they and
// the data origins for images and connections (the scripts' hits).
func AnalyticsSources(a config.Analytics) CSP {
	if !a.Enabled() {
		return CSP{}
	}
	scripts := a.ScriptOrigins()
	both := append(slices.Clone(scripts), a.DataOrigins...)
	return CSP{Script: scripts, Img: both, Connect: slices.Clone(both)}
}
