package sitetest

// Checks of the islands as the built website's pages carry them: the JS of
// an island runs once per locale, not once per page, while each page keeps
// its own part (the mobile menu's current link, the demo form's page field),
// which the templates pass to the island as children.

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestSiteIslandRendersPerLocale: every island of the website has the same
// props on every page of a locale (what differs per page comes as children),
// so building the site runs each island's JS at most once per locale.
func TestSiteIslandRendersPerLocale(t *testing.T) {
	out := site(t)
	uses := map[string]bool{} // island + "|" + lang
	pagesWith := 0
	walkHTML(t, out, func(rel string, doc *html.Node) {
		lang := brAttr(first(doc, func(n *html.Node) bool { return n.Data == "html" }), "lang")
		n := 0
		for _, is := range find(doc, func(n *html.Node) bool { return n.Data == "sg-island" }) {
			uses[brAttr(is, "data-island")+"|"+lang] = true
			n++
		}
		if n > 0 {
			pagesWith++
		}
	})
	if pagesWith < 90 || siteRep.SSRCalls < int64(2*pagesWith) {
		t.Fatalf("precondition: %d pages with islands, %d island renders", pagesWith, siteRep.SSRCalls)
	}
	if siteRep.SSREngine == 0 || siteRep.SSREngine > int64(len(uses)) {
		t.Errorf("the build ran island JS %d times for %d island renders on %d pages; want at most %d, once per island and locale (%v)",
			siteRep.SSREngine, siteRep.SSRCalls, pagesWith, len(uses), sortedSet(uses))
	}
}

// TestSiteIslandsPagePart: each page's mobile menu marks the links to that
// page (aria-current="page" and the --current class, the parent item
// active), exactly as the header's main menu does, and each page's demo form
// names that page in its hidden page field. Both are in the server HTML, for
// visitors without JavaScript.
func TestSiteIslandsPagePart(t *testing.T) {
	out := site(t)
	marked, forms := 0, 0
	walkHTML(t, out, func(rel string, doc *html.Node) {
		cur := ""
		if c := first(doc, func(n *html.Node) bool { return n.Data == "link" && brAttr(n, "rel") == "canonical" }); c != nil {
			u, err := url.Parse(brAttr(c, "href"))
			if err != nil {
				t.Fatalf("%s: canonical: %v", rel, err)
			}
			cur = u.Path
		}
		menu := first(doc, func(n *html.Node) bool { return n.Data == "sg-island" && brAttr(n, "data-island") == "MobileMenu" })
		if menu == nil {
			t.Errorf("%s: no MobileMenu island", rel)
			return
		}
		nav := first(menu, func(n *html.Node) bool { return n.Data == "nav" && brHasAttr(n, "data-sg-children") })
		if nav == nil {
			t.Errorf("%s: the mobile menu has no nav[data-sg-children]", rel)
			return
		}
		var mobile, desktop []string
		for _, a := range find(nav, func(n *html.Node) bool { return n.Data == "a" }) {
			href, here := brAttr(a, "href"), brAttr(a, "aria-current") == "page"
			if here {
				mobile = append(mobile, href)
			}
			if here != hasClass(a, "mobile-menu__link--current") {
				t.Errorf("%s: mobile menu link %s: aria-current=%q but class %q", rel, href, brAttr(a, "aria-current"), brAttr(a, "class"))
			}
			if cur != "" && here != (href == cur) {
				t.Errorf("%s: mobile menu link %s: aria-current=%q on the page %s", rel, href, brAttr(a, "aria-current"), cur)
			}
		}
		for _, li := range find(nav, func(n *html.Node) bool {
			return n.Data == "li" && n.Parent != nil && !hasClass(n.Parent, "mobile-menu__list--sub")
		}) {
			sub := first(li, func(n *html.Node) bool { return n.Data == "ul" && hasClass(n, "mobile-menu__list--sub") })
			inside := sub != nil && first(sub, func(n *html.Node) bool { return n.Data == "a" && brAttr(n, "aria-current") == "page" }) != nil
			if inside != hasClass(li, "mobile-menu__item--active") {
				t.Errorf("%s: mobile menu item with class %q: a current link inside: %v", rel, brAttr(li, "class"), inside)
			}
		}
		mainNav := first(doc, func(n *html.Node) bool { return n.Data == "nav" && hasClass(n, "main-nav") })
		if mainNav == nil {
			t.Errorf("%s: no main menu", rel)
			return
		}
		for _, a := range find(mainNav, func(n *html.Node) bool { return n.Data == "a" && brAttr(n, "aria-current") == "page" }) {
			desktop = append(desktop, brAttr(a, "href"))
		}
		sort.Strings(mobile)
		sort.Strings(desktop)
		if !slices.Equal(mobile, desktop) {
			t.Errorf("%s: the mobile menu marks %v as the current page, the main menu %v", rel, mobile, desktop)
		}
		if len(mobile) > 0 {
			marked++
		}

		if form := first(doc, func(n *html.Node) bool { return n.Data == "form" && brAttr(n, "id") == "demo-form" }); form != nil {
			forms++
			in := first(form, func(n *html.Node) bool { return n.Data == "input" && brAttr(n, "name") == "page" })
			if in == nil || brAttr(in, "type") != "hidden" || cur == "" || brAttr(in, "value") != cur {
				t.Errorf("%s: the demo form's page field: type %q value %q (present: %v), want a hidden field with %q", rel, brAttr(in, "type"), brAttr(in, "value"), in != nil, cur)
			} else if in.Parent == nil || !brHasAttr(in.Parent, "data-sg-children") || !brHasAttr(in.Parent, "hidden") {
				t.Errorf("%s: the demo form's page field is not in its hidden children element", rel)
			}
		}
	})
	if marked < 40 || forms < 10 {
		t.Errorf("precondition: %d pages mark a mobile menu link, %d pages have the demo form", marked, forms)
	}
}

// walkHTML parses every page of the output (redirect stubs aside).
func walkHTML(t *testing.T, out string, f func(rel string, doc *html.Node)) {
	t.Helper()
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := html.Parse(strings.NewReader(string(b)))
		if err != nil {
			return err
		}
		if first(doc, func(n *html.Node) bool {
			return n.Data == "meta" && strings.EqualFold(brAttr(n, "http-equiv"), "refresh")
		}) != nil {
			return nil
		}
		rel, _ := filepath.Rel(out, p)
		f("/"+filepath.ToSlash(rel), doc)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// first returns the first element below n for which match is true, or nil.
func first(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n == nil {
		return nil
	}
	if all := find(n, match); len(all) > 0 {
		return all[0]
	}
	return nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
