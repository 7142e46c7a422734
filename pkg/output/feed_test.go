package output

import (
	"strings"
	"testing"
	"time"
)

// testFeed has what a feed must escape and encode: markup in titles and
// summaries, a Japanese list and page.
func testFeed() Feed {
	d := func(s string) time.Time { t, _ := ParseFeedDate(s); return t }
	return Feed{Lang: "ja", Title: "ブログ & <notes>", Description: "記事 ]]> \"quoted\"", Author: "Polyglot & Co",
		Page: "https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/", RSS: "https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/feed.xml",
		Atom: "https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/atom.xml", Updated: d("2026-02-03"),
		Items: []FeedItem{
			{Title: "<script>alert(1)</script>", URL: "https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/a/", Date: d("2026-02-03"), Summary: "a < b && c > d"},
			{Title: "No date", URL: "https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/b/"},
			{Title: "With time", URL: "https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/c/", Date: d("2026-01-12T09:30:00+09:00"), Summary: "x"},
		}}
}

// TestFeedsValid: both feeds pass CheckFeed (the W3C validator's rules for
// what is written) and carry the text escaped, never as markup.
func TestFeedsValid(t *testing.T) {
	f := testFeed()
	rss, err := f.RSS2()
	if err != nil {
		t.Fatal(err)
	}
	atom, err := f.Atom1()
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"rss": rss, "atom": atom} {
		if errs := CheckFeed(b); len(errs) > 0 {
			t.Errorf("%s: %v\n%s", name, errs, b)
		}
		s := string(b)
		if strings.Contains(s, "<script>") || !strings.Contains(s, "&lt;script&gt;") || !strings.Contains(s, "a &lt; b &amp;&amp; c &gt; d") {
			t.Errorf("%s: text not escaped:\n%s", name, s)
		}
	}
	for _, want := range []string{"<pubDate>Tue, 03 Feb 2026 00:00:00 +0000</pubDate>", "<pubDate>Mon, 12 Jan 2026 00:30:00 +0000</pubDate>",
		`<atom:link href="https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/feed.xml" rel="self" type="application/rss+xml">`} {
		if !strings.Contains(string(rss), want) {
			t.Errorf("rss lacks %s:\n%s", want, rss)
		}
	}
	if strings.Count(string(rss), "<pubDate>") != 2 {
		t.Errorf("an item without a date has a pubDate:\n%s", rss)
	}
	for _, want := range []string{"<updated>2026-02-03T00:00:00Z</updated>", "<updated>2026-01-12T00:30:00Z</updated>", `xml:lang="ja"`,
		"<name>Polyglot &amp; Co</name>"} {
		if !strings.Contains(string(atom), want) {
			t.Errorf("atom lacks %s:\n%s", want, atom)
		}
	}
}

// TestCheckFeedFinds: each rule of CheckFeed fails a feed that breaks it.
func TestCheckFeedFinds(t *testing.T) {
	f := testFeed()
	rss, _ := f.RSS2()
	atom, _ := f.Atom1()
	for _, tt := range []struct {
		doc      []byte
		old, new string
		want     string
	}{
		{rss, "<link>https://example.test/ja/", "<link>/ja/", "channel link \"/ja/"},
		{rss, "Tue, 03 Feb 2026 00:00:00 +0000</pubDate>", "2026-02-03</pubDate>", "item 1 pubDate \"2026-02-03\" is not an RFC 822 date"},
		{rss, `rel="self"`, `rel="hub"`, "no atom:link rel=\"self\""},
		{rss, "https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/a/</link>", "https://example.test/ja/ブログ/a/</link>", "must percent-encode"},
		{rss, "<description>記事", "<descriptionx>記事", "not well-formed"},
		{atom, "<updated>2026-02-03T00:00:00Z</updated>\n  <author>", "<updated>Tue, 03 Feb 2026</updated>\n  <author>", "feed updated \"Tue, 03 Feb 2026\" is not an RFC 3339 date"},
		{atom, "<author>\n    <name>Polyglot &amp; Co</name>\n  </author>", "", "entry 1 has no author, nor has the feed"},
		{atom, "<id>https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/b/</id>", "<id>https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/a/</id>", "entry 2: id https://example.test/ja/%E3%83%96%E3%83%AD%E3%82%B0/a/ is used twice"},
	} {
		doc := strings.Replace(string(tt.doc), tt.old, tt.new, 1)
		if doc == string(tt.doc) {
			t.Fatalf("%q not in the feed", tt.old)
		}
		errs := CheckFeed([]byte(doc))
		found := false
		for _, e := range errs {
			found = found || strings.Contains(e.Error(), tt.want)
		}
		if !found {
			t.Errorf("%q -> %q: %v, want %q", tt.old, tt.new, errs, tt.want)
		}
	}
}
