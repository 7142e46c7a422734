package build

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFrontMatterFromCache: a build that takes a page's front matter from
// the cache reports its errors at the same place as one that parses it,
// and builds the same pages.
//
// It runs as a build sees files just written, and with a clock an hour
// ahead (the page file itself is then known, not read: knownPages).
func TestFrontMatterFromCache(t *testing.T) {
	t.Run("files read", func(t *testing.T) { frontMatterFromCache(t, nil) })
	t.Run("files known", func(t *testing.T) {
		frontMatterFromCache(t, func() time.Time { return time.Now().Add(time.Hour) })
	})
}

func frontMatterFromCache(t *testing.T, now func() time.Time) {
	src := fixtureCopy(t)
	dir := t.TempDir()
	out, cache := filepath.Join(dir, "public"), filepath.Join(dir, "cache")
	page := filepath.Join(src, "content/pl/kontakt.md")
	replaceIn(t, page, "aliases: [/kontakt-stary]", "aliases: [/kontakt-stary]\ndate: 2026-02-30")
	var msgs []string
	for range 2 { // the second build takes the front matter from the cache
		opts := warmOpts(src, out, cache)
		opts.now = now
		_, err := Run(context.Background(), opts)
		if err == nil {
			t.Fatal("an impossible date built")
		}
		msgs = append(msgs, err.Error())
	}
	if !strings.Contains(msgs[0], "content/pl/kontakt.md:8:7") {
		t.Fatalf("the parsed page's error is not at its date: %s", msgs[0])
	}
	if msgs[1] != msgs[0] {
		t.Errorf("from the cache:\n%s\nparsed:\n%s", msgs[1], msgs[0])
	}
	replaceIn(t, page, "\ndate: 2026-02-30", "")
	if _, err := Run(context.Background(), warmOpts(src, out, cache)); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "front matter from the cache", readTree(t, out), coldTree(t, src))
}
