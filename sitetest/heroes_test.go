package sitetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestHeroesShowTheProduct (issue 26 point 1): the hero of every solution
// and product page draws the product at work, a chat conversation of at
// least three messages from both sides, and no photograph; the home page's
// hero shows the platform illustration, not a photograph.
func TestHeroesShowTheProduct(t *testing.T) {
	out := site(t)
	hero := func(p string) *html.Node {
		t.Helper()
		f, err := os.Open(filepath.Join(out, filepath.FromSlash(p), "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		doc, err := html.Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		media := findAll(doc, func(n *html.Node) bool { return brAttr(n, "class") == "hero__media" })
		if len(media) != 1 {
			t.Fatalf("%s: %d hero pictures, want 1", p, len(media))
		}
		return media[0]
	}
	var pages []string
	for _, dir := range []string{"pl/rozwiazania", "pl/produkty", "en/solutions", "en/products"} {
		entries, err := os.ReadDir(filepath.Join(out, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				pages = append(pages, dir+"/"+e.Name())
			}
		}
	}
	if len(pages) < 16 {
		t.Fatalf("found %d solution and product pages, want 16: %v", len(pages), pages)
	}
	for _, p := range append(pages, "pl/hirebot", "en/hirebot") {
		m := hero(p)
		if n := len(findAll(m, func(n *html.Node) bool { return n.Data == "img" || n.Data == "picture" })); n > 0 {
			t.Errorf("%s: the hero shows a picture, want the product at work", p)
		}
		bot := len(findAll(m, func(n *html.Node) bool { return strings.Contains(brAttr(n, "class"), "chat-demo__msg--bot") }))
		user := len(findAll(m, func(n *html.Node) bool { return strings.Contains(brAttr(n, "class"), "chat-demo__msg--user") }))
		if bot+user < 3 || bot == 0 || user == 0 {
			t.Errorf("%s: the hero's conversation has %d bot and %d visitor messages", p, bot, user)
		}
	}
	for _, p := range []string{"pl", "en"} {
		m := hero(p)
		if len(findAll(m, func(n *html.Node) bool { return n.Data == "picture" || n.Data == "img" })) > 0 ||
			len(findAll(m, func(n *html.Node) bool { return strings.Contains(brAttr(n, "class"), "hero-art") })) == 0 {
			t.Errorf("/%s/: the home hero does not show the platform illustration", p)
		}
	}
}
