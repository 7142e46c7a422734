package output

import (
	"bytes"
	"encoding/xml"

	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// The sitemaps protocol (sitemaps.org) allows a sitemap file at most
// SitemapMaxURLs URLs and SitemapMaxBytes bytes, uncompressed.
const (
	SitemapMaxURLs  = 50000
	SitemapMaxBytes = 50 << 20
)

// sitemapPartURLs is how many URLs each part of a split sitemap lists:
// a part is a few megabytes, and only one is held at a time.
const sitemapPartURLs = 10000

// sitemapLimits are the limits Sitemaps works to (tests make them small).
type sitemapLimits struct{ maxURLs, maxBytes, partURLs int }

var protocolLimits = sitemapLimits{SitemapMaxURLs, SitemapMaxBytes, sitemapPartURLs}

const (
	sitemapNS     = "http://www.sitemaps.org/schemas/sitemap/0.9"
	sitemapOpen   = `<urlset xmlns="` + sitemapNS + `" xmlns:xhtml="http://www.w3.org/1999/xhtml">`
	sitemapClose  = "</urlset>\n"
	sitemapIndex  = `<sitemapindex xmlns="` + sitemapNS + `">`
	sitemapIClose = "</sitemapindex>\n"
)

// Sitemaps makes the sitemap: every indexable page with its locale variants
// and x-default (the default locale's version), and passes each file to
// emit as soon as it is complete.
//
// A site of at most SitemapMaxURLs such pages gets one file, sitemap.xml. A
// larger one would break the protocol's limits: its pages go into parts
// (sitepath.SitemapPart: sitemap-1.xml, sitemap-2.xml, ...) of at most
// sitemapPartURLs URLs and SitemapMaxBytes bytes each, and sitemap.xml
// becomes the sitemap index that lists them, emitted last. Either way the
// memory held is one file's bytes (one part's, for a large site), never the
// whole sitemap in a second form.
func Sitemaps(plan *route.Plan, baseURL string, emit func(name string, b []byte) error) error {
	return sitemaps(plan, baseURL, protocolLimits, emit)
}

func sitemaps(plan *route.Plan, baseURL string, lim sitemapLimits, emit func(name string, b []byte) error) error {
	var entries []*route.Entry
	for _, e := range plan.Entries {
		if e.NoIndex() || e.Root || e.Fallback {
			continue
		}
		entries = append(entries, e)
	}
	var one []byte
	if len(entries) <= lim.maxURLs {
		one = sitemapFile(plan, baseURL, entries)
		if len(one) <= lim.maxBytes {
			return emit(sitepath.Sitemap, one)
		}
		one = nil // too many bytes for one file: split it like a large site
	}
	var parts []string
	var buf []byte
	n := 0 // URLs in buf
	flush := func() error {
		if n == 0 {
			return nil
		}
		buf = append(buf, "\n"+sitemapClose...)
		name := sitepath.SitemapPart(len(parts) + 1)
		parts = append(parts, name)
		err := emit(name, buf)
		buf, n = nil, 0
		return err
	}
	var u []byte
	for _, e := range entries {
		u = appendSitemapURL(u[:0], plan, baseURL, e)
		if n > 0 && (n == lim.partURLs || len(buf)+len(u)+len("\n"+sitemapClose) > lim.maxBytes) {
			if err := flush(); err != nil {
				return err
			}
		}
		if n == 0 {
			buf = make([]byte, 0, min(lim.maxBytes, len(xml.Header)+len(sitemapOpen)+len(u)*(lim.partURLs+1)))
			buf = append(buf, xml.Header+sitemapOpen...)
		}
		buf = append(buf, u...)
		n++
	}
	if err := flush(); err != nil {
		return err
	}
	return emit(sitepath.Sitemap, sitemapIndexFile(baseURL, parts))
}

// Sitemap returns the sitemap's files by name (see Sitemaps).
func Sitemap(plan *route.Plan, baseURL string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := Sitemaps(plan, baseURL, func(name string, b []byte) error {
		out[name] = b
		return nil
	})
	return out, err
}

// sitemapFile is one sitemap file listing entries: the bytes
// encoding/xml's MarshalIndent(…, "", "  ") gives for the urlset, written
// directly.
func sitemapFile(plan *route.Plan, baseURL string, entries []*route.Entry) []byte {
	if len(entries) == 0 {
		return []byte(xml.Header + sitemapOpen + sitemapClose)
	}
	var u []byte
	var b []byte
	for i, e := range entries {
		u = appendSitemapURL(u[:0], plan, baseURL, e)
		if i == 0 { // the first entry's size times the count: close to the whole
			b = make([]byte, 0, len(xml.Header)+len(sitemapOpen)+len(u)*len(entries)*9/8+len(sitemapClose)+1)
			b = append(b, xml.Header+sitemapOpen...)
		}
		b = append(b, u...)
	}
	return append(b, "\n"+sitemapClose...)
}

// appendSitemapURL appends e's <url> element, indented as one of the
// urlset's children.
func appendSitemapURL(b []byte, plan *route.Plan, baseURL string, e *route.Entry) []byte {
	b = append(b, "\n  <url>\n    <loc>"...)
	b = appendEscaped(b, baseURL+sitepath.URL(e.URL))
	b = append(b, "</loc>"...)
	if e.Page.Date != "" {
		b = append(b, "\n    <lastmod>"...)
		b = appendEscaped(b, e.Page.Date)
		b = append(b, "</lastmod>"...)
	}
	link := func(lang, href string) {
		b = append(b, "\n    <xhtml:link rel=\"alternate\" hreflang=\""...)
		b = appendEscaped(b, lang)
		b = append(b, "\" href=\""...)
		b = appendEscaped(b, href)
		b = append(b, "\"></xhtml:link>"...)
	}
	var def string
	for _, v := range plan.Variants(e.ID) {
		if v.Fallback {
			continue
		}
		u := baseURL + sitepath.URL(v.URL)
		link(v.Lang, u)
		if v.Lang == plan.Default.Code {
			def = u
		}
	}
	if def != "" {
		link("x-default", def)
	}
	return append(b, "\n  </url>"...)
}

// sitemapIndexFile is the sitemap index listing the parts.
func sitemapIndexFile(baseURL string, parts []string) []byte {
	b := []byte(xml.Header + sitemapIndex)
	for _, p := range parts {
		b = append(b, "\n  <sitemap>\n    <loc>"...)
		b = appendEscaped(b, baseURL+"/"+p)
		b = append(b, "</loc>\n  </sitemap>"...)
	}
	return append(b, "\n"+sitemapIClose...)
}

// appendEscaped appends s escaped as encoding/xml escapes text and
// attribute values.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '&', '<', '>', '"', '\'', '\t', '\n', '\r':
			var w bytes.Buffer
			xml.EscapeText(&w, []byte(s)) //nolint:errcheck // a bytes.Buffer does not fail
			return append(b, w.Bytes()...)
		}
		if s[i] < 0x20 || s[i] >= 0x80 {
			var w bytes.Buffer
			xml.EscapeText(&w, []byte(s)) //nolint:errcheck
			return append(b, w.Bytes()...)
		}
	}
	return append(b, s...)
}
