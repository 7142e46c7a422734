package build

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sitegen/pkg/output"
)

// feedSchemas are the RELAX NG schemas of the feeds (testdata/feeds/README.md:
// Atom's is RFC 4287's, RSS 2.0's is written from its specification).
var feedSchemas = map[string]string{
	output.RSSFile:  "../../testdata/feeds/rss.rng",
	output.AtomFile: "../../testdata/feeds/atom.rng",
}

// xmllint finds libxml2's validator, or skips (fails under CI, which
// installs it: .ci/run).
func xmllint(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("xmllint")
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("xmllint is not installed; CI must install it (apt-get install libxml2-utils)")
	}
	t.Skip("xmllint is not installed (apt-get install libxml2-utils): skipping the feed schema test")
	return ""
}

// validateFeed runs xmllint --relaxng on a feed: whether it is valid, and
// xmllint's messages.
func validateFeed(t *testing.T, bin, schema string, feed []byte) (string, bool) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "feed.xml")
	if err := os.WriteFile(f, feed, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--noout", "--relaxng", schema, f).CombinedOutput()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("running xmllint: %v", err)
	}
	return string(out), err == nil
}

// TestPolyglotFeedSchemas: every feed the polyglot fixture writes (RSS 2.0
// and Atom, every locale) is valid against its RELAX NG schema in libxml2's
// validator; and the validator is not blind: a relative link and dates not
// in the formats the formats require make a feed invalid.
func TestPolyglotFeedSchemas(t *testing.T) {
	bin := xmllint(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Run(context.Background(), Options{Source: polyglot, Out: out, Date: "2026-03-01"}); err != nil {
		t.Fatal(err)
	}
	feeds := map[string][]byte{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || feedSchemas[d.Name()] == "" {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(out, p)
		feeds[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(feeds) < 6 {
		t.Fatalf("%d feeds written, want at least the blog's RSS and Atom in 3 locales", len(feeds))
	}
	for rel, b := range feeds {
		if msg, ok := validateFeed(t, bin, feedSchemas[filepath.Base(rel)], b); !ok {
			t.Errorf("%s is not valid:\n%s", rel, msg)
		}
	}

	for _, c := range []struct {
		name, feed, old, new, want string
	}{
		{"relative link", "en/blog/" + output.RSSFile, "<link>https://polyglot.example.test/en/blog/feeds/</link>", "<link>/en/blog/feeds/</link>", "element link"},
		{"date not RFC 822", "en/blog/" + output.RSSFile, "<pubDate>Tue, 03 Feb 2026 00:00:00 +0000</pubDate>", "<pubDate>2026-02-03</pubDate>", "element pubDate"},
		{"date not RFC 3339", "en/blog/" + output.AtomFile, "<updated>2026-02-03T00:00:00Z</updated>", "<updated>2026-02-03</updated>", "Type dateTime doesn't allow value '2026-02-03'"},
		{"item without title or description", "ja/ブログ/" + output.RSSFile, "<title>ウォームビルド</title>", "", "Element item failed to validate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := string(feeds[c.feed])
			if !strings.Contains(b, c.old) {
				t.Fatalf("%s has no %s:\n%s", c.feed, c.old, b)
			}
			broken := strings.Replace(b, c.old, c.new, 1)
			if c.new == "" { // and the description
				broken = strings.Replace(broken, "<description>ウォームビルドは変わっていないものを省きます。</description>", "", 1)
			}
			msg, ok := validateFeed(t, bin, feedSchemas[filepath.Base(c.feed)], []byte(broken))
			if ok || !strings.Contains(msg, c.want) {
				t.Errorf("%s with %s: valid %t, want invalid with %q:\n%s", c.feed, c.new, ok, c.want, msg)
			}
		})
	}
}
