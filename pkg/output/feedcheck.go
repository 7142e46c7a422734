package output

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// CheckFeed checks an RSS 2.0 or Atom 1.0 document by the rules the W3C
// feed validator applies to what sitegen writes: well-formed XML; the
// required elements (RSS: channel title, link, description, item title or
// description; Atom: feed id, title, updated, an author, entry id, title,
// updated); absolute http(s) URLs written in ASCII (percent-encoded); RSS
// dates in RFC 822 with a four-digit year, Atom dates in RFC 3339; an
// atom:link rel="self"; no entry id twice. It returns every problem found.
func CheckFeed(b []byte) []error {
	var root struct{ XMLName xml.Name }
	if err := xml.Unmarshal(b, &root); err != nil {
		return []error{fmt.Errorf("not well-formed XML: %w", err)}
	}
	var p feedProblems
	switch {
	case root.XMLName.Local == "rss":
		p.checkRSS(b)
	case root.XMLName.Local == "feed" && root.XMLName.Space == "http://www.w3.org/2005/Atom":
		p.checkAtom(b)
	default:
		p.bad("root element %s is neither rss nor an Atom feed", root.XMLName.Local)
	}
	if !bytes.HasPrefix(b, []byte("<?xml")) {
		p.bad("no XML declaration")
	}
	return p.errs
}

// feedProblems collects what CheckFeed finds.
type feedProblems struct{ errs []error }

func (p *feedProblems) bad(format string, a ...any) {
	p.errs = append(p.errs, fmt.Errorf(format, a...))
}

// absURL checks that u is an absolute http(s) URL written in ASCII.
func (p *feedProblems) absURL(what, u string) {
	pu, err := url.Parse(u)
	switch {
	case u == "":
		p.bad("%s is missing", what)
	case err != nil || (pu.Scheme != "https" && pu.Scheme != "http") || pu.Host == "":
		p.bad("%s %q is not an absolute http(s) URL", what, u)
	case strings.ContainsFunc(u, func(r rune) bool { return r >= 0x80 || r <= ' ' }):
		p.bad("%s %q holds characters a URL must percent-encode", what, u)
	}
}

// checkRSS checks an RSS 2.0 document.
func (p *feedProblems) checkRSS(b []byte) {
	var doc struct {
		Version string `xml:"version,attr"`
		Channel struct {
			// Self comes before Link: a field without a namespace
			// matches atom:link too, and the first match wins.
			Self []struct {
				Href string `xml:"href,attr"`
				Rel  string `xml:"rel,attr"`
			} `xml:"http://www.w3.org/2005/Atom link"`
			Title         string `xml:"title"`
			Link          string `xml:"link"`
			Description   string `xml:"description"`
			LastBuildDate string `xml:"lastBuildDate"`
			Items         []struct {
				Title       string `xml:"title"`
				Link        string `xml:"link"`
				Description string `xml:"description"`
				PubDate     string `xml:"pubDate"`
				GUID        struct {
					PermaLink string `xml:"isPermaLink,attr"`
					Value     string `xml:",chardata"`
				} `xml:"guid"`
			} `xml:"item"`
		} `xml:"channel"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		p.errs = append(p.errs, err)
		return
	}
	ch := doc.Channel
	if doc.Version != "2.0" {
		p.bad("rss version %q, want 2.0", doc.Version)
	}
	if ch.Title == "" || ch.Description == "" {
		p.bad("channel needs a title and a description")
	}
	p.absURL("channel link", ch.Link)
	self := false
	for _, l := range ch.Self {
		if l.Rel == "self" {
			self = true
			p.absURL("atom:link rel=self", l.Href)
		}
	}
	if !self {
		p.bad("channel has no atom:link rel=\"self\"")
	}
	rfc822 := func(what, d string) {
		if d == "" {
			return
		}
		if _, err := time.Parse(time.RFC1123Z, d); err != nil {
			if _, err2 := time.Parse(time.RFC1123, d); err2 != nil {
				p.bad("%s %q is not an RFC 822 date with a four-digit year", what, d)
			}
		}
	}
	rfc822("lastBuildDate", ch.LastBuildDate)
	guids := map[string]bool{}
	for i, it := range ch.Items {
		if it.Title == "" && it.Description == "" {
			p.bad("item %d has neither title nor description", i+1)
		}
		p.absURL(fmt.Sprintf("item %d link", i+1), it.Link)
		if it.GUID.PermaLink != "false" && it.GUID.Value != "" {
			p.absURL(fmt.Sprintf("item %d guid (a permalink)", i+1), it.GUID.Value)
		}
		if guids[it.GUID.Value] && it.GUID.Value != "" {
			p.bad("item %d: guid %s is used twice", i+1, it.GUID.Value)
		}
		guids[it.GUID.Value] = true
		rfc822(fmt.Sprintf("item %d pubDate", i+1), it.PubDate)
	}
}

// checkAtom checks an Atom 1.0 document.
func (p *feedProblems) checkAtom(b []byte) {
	type link struct {
		Href string `xml:"href,attr"`
		Rel  string `xml:"rel,attr"`
	}
	type author struct {
		Name string `xml:"name"`
	}
	var doc struct {
		ID      string   `xml:"id"`
		Title   string   `xml:"title"`
		Updated string   `xml:"updated"`
		Author  []author `xml:"author"`
		Links   []link   `xml:"link"`
		Entries []struct {
			ID      string   `xml:"id"`
			Title   string   `xml:"title"`
			Updated string   `xml:"updated"`
			Links   []link   `xml:"link"`
			Author  []author `xml:"author"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		p.errs = append(p.errs, err)
		return
	}
	p.absURL("feed id", doc.ID)
	if doc.Title == "" {
		p.bad("feed has no title")
	}
	rfc3339 := func(what, d string) {
		if _, err := time.Parse(time.RFC3339, d); err != nil {
			p.bad("%s %q is not an RFC 3339 date", what, d)
		}
	}
	rfc3339("feed updated", doc.Updated)
	self := false
	for _, l := range doc.Links {
		p.absURL("feed link", l.Href)
		self = self || l.Rel == "self"
	}
	if !self {
		p.bad("feed has no link rel=\"self\"")
	}
	ids := map[string]bool{}
	for i, e := range doc.Entries {
		p.absURL(fmt.Sprintf("entry %d id", i+1), e.ID)
		if ids[e.ID] {
			p.bad("entry %d: id %s is used twice", i+1, e.ID)
		}
		ids[e.ID] = true
		if e.Title == "" {
			p.bad("entry %d has no title", i+1)
		}
		rfc3339(fmt.Sprintf("entry %d updated", i+1), e.Updated)
		if len(doc.Author) == 0 && len(e.Author) == 0 {
			p.bad("entry %d has no author, nor has the feed", i+1)
		}
		alt := false
		for _, l := range e.Links {
			p.absURL(fmt.Sprintf("entry %d link", i+1), l.Href)
			alt = alt || l.Rel == "alternate" || l.Rel == ""
		}
		if !alt {
			p.bad("entry %d has no alternate link", i+1)
		}
	}
}
