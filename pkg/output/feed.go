package output

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"sitegen/pkg/route"
	"sitegen/pkg/sitepath"
)

// Feeds: a list the site names (site.yaml feeds:) is published per locale
// as RSS 2.0 (<list>/feed.xml) and Atom 1.0 (<list>/atom.xml), made the way
// the W3C feed validator checks them: absolute URLs, RFC 822 dates in RSS
// and RFC 3339 dates in Atom, every text escaped by encoding/xml, an
// atom:link rel="self" in RSS, an id, updated and author in Atom.

// Names of a list's feed files, in the list page's folder.
const (
	RSSFile  = "feed.xml"
	AtomFile = "atom.xml"
)

// MIME types of the feeds, for <link rel="alternate" type=...>.
const (
	RSSType  = "application/rss+xml"
	AtomType = "application/atom+xml"
)

// Feed is one list of one locale, ready to write.
type Feed struct {
	Lang        string
	Title       string
	Description string
	Author      string // the site's title: Atom needs an author
	Page        string // absolute URL of the list page
	RSS, Atom   string // absolute URLs of the feed files
	Updated     time.Time
	Items       []FeedItem
}

// FeedItem is one page of the list.
type FeedItem struct {
	Title   string
	URL     string    // absolute
	Date    time.Time // zero: the page has no date
	Summary string
}

// FeedPaths are the output paths of the feeds of the list page e.
func FeedPaths(e *route.Entry) (rss, atom string) {
	dir := strings.TrimPrefix(e.URL, "/")
	return dir + RSSFile, dir + AtomFile
}

// NewFeed makes the feed of the list page list: the newest items of the
// pages it lists (plan.Items: the pages below it, or a term's pages), at
// most max. baseURL makes the URLs
// absolute; build is the day of the build, the feed's date when no item
// has one.
func NewFeed(plan *route.Plan, list *route.Entry, baseURL, siteTitle string, max int, build time.Time) Feed {
	abs := func(u string) string { return baseURL + sitepath.URL(u) }
	f := Feed{Lang: list.Lang, Title: list.Page.Title, Description: list.Page.Description, Author: siteTitle,
		Page: abs(list.URL), RSS: abs(list.URL + RSSFile), Atom: abs(list.URL + AtomFile)}
	if list.Term != nil {
		f.Title = list.Taxonomy.TitleIn(list.Lang) + ": " + list.Term.Name
		f.Description = f.Title
	}
	for _, e := range plan.Items(list) {
		if e.NoIndex() {
			continue
		}
		if len(f.Items) == max {
			break
		}
		it := FeedItem{Title: e.Page.Title, URL: abs(e.URL), Summary: e.Page.Summary}
		if it.Summary == "" {
			it.Summary = e.Page.Description
		}
		if d, err := ParseFeedDate(e.Page.Date); err == nil {
			it.Date = d
			if d.After(f.Updated) {
				f.Updated = d
			}
		}
		f.Items = append(f.Items, it)
	}
	if f.Updated.IsZero() {
		f.Updated = build
	}
	return f
}

// ParseFeedDate reads a page date: YYYY-MM-DD (midnight UTC) or RFC 3339.
func ParseFeedDate(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

type rssDoc struct {
	XMLName xml.Name   `xml:"rss"`
	Version string     `xml:"version,attr"`
	Atom    string     `xml:"xmlns:atom,attr"`
	Channel rssChannel `xml:"channel"`
}

type rssChannel struct {
	Title         string    `xml:"title"`
	Link          string    `xml:"link"`
	Description   string    `xml:"description"`
	Language      string    `xml:"language"`
	LastBuildDate string    `xml:"lastBuildDate"`
	Self          rssSelf   `xml:"atom:link"`
	Items         []rssItem `xml:"item"`
}

type rssSelf struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr"`
}

type rssItem struct {
	Title       string  `xml:"title"`
	Link        string  `xml:"link"`
	GUID        rssGUID `xml:"guid"`
	PubDate     string  `xml:"pubDate,omitempty"`
	Description string  `xml:"description,omitempty"`
}

type rssGUID struct {
	PermaLink string `xml:"isPermaLink,attr"`
	Value     string `xml:",chardata"`
}

// RSS2 returns the feed as RSS 2.0.
func (f Feed) RSS2() ([]byte, error) {
	ch := rssChannel{Title: f.Title, Link: f.Page, Description: f.Description, Language: f.Lang,
		LastBuildDate: f.Updated.UTC().Format(time.RFC1123Z), Self: rssSelf{Href: f.RSS, Rel: "self", Type: RSSType}}
	if ch.Description == "" {
		ch.Description = f.Title
	}
	for _, it := range f.Items {
		ri := rssItem{Title: it.Title, Link: it.URL, GUID: rssGUID{PermaLink: "true", Value: it.URL}, Description: it.Summary}
		if !it.Date.IsZero() {
			ri.PubDate = it.Date.UTC().Format(time.RFC1123Z)
		}
		ch.Items = append(ch.Items, ri)
	}
	return marshalFeed(rssDoc{Version: "2.0", Atom: "http://www.w3.org/2005/Atom", Channel: ch})
}

type atomDoc struct {
	XMLName xml.Name    `xml:"feed"`
	NS      string      `xml:"xmlns,attr"`
	Lang    string      `xml:"xml:lang,attr"`
	Title   string      `xml:"title"`
	Sub     string      `xml:"subtitle,omitempty"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Author  atomAuthor  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
}

type atomEntry struct {
	Title   string    `xml:"title"`
	ID      string    `xml:"id"`
	Link    atomLink  `xml:"link"`
	Updated string    `xml:"updated"`
	Summary *atomText `xml:"summary,omitempty"`
}

type atomText struct {
	Type  string `xml:"type,attr"`
	Value string `xml:",chardata"`
}

// Atom1 returns the feed as Atom 1.0. An entry without a date takes the
// feed's (Atom requires one).
func (f Feed) Atom1() ([]byte, error) {
	doc := atomDoc{NS: "http://www.w3.org/2005/Atom", Lang: f.Lang, Title: f.Title, Sub: f.Description, ID: f.Page,
		Updated: f.Updated.UTC().Format(time.RFC3339), Author: atomAuthor{Name: f.Author},
		Links: []atomLink{{Href: f.Atom, Rel: "self", Type: AtomType}, {Href: f.Page, Rel: "alternate", Type: "text/html"}}}
	for _, it := range f.Items {
		d := it.Date
		if d.IsZero() {
			d = f.Updated
		}
		e := atomEntry{Title: it.Title, ID: it.URL, Link: atomLink{Href: it.URL, Rel: "alternate", Type: "text/html"}, Updated: d.UTC().Format(time.RFC3339)}
		if it.Summary != "" {
			e.Summary = &atomText{Type: "text", Value: it.Summary}
		}
		doc.Entries = append(doc.Entries, e)
	}
	return marshalFeed(doc)
}

func marshalFeed(v any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("feed: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
