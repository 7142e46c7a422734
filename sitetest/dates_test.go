package sitetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestDatesKeptHonest (issue 26 point 8) on the site built at 2026-08-15:
// events past at that date show no sign-up link while upcoming ones do;
// the 2026-06-25 general meeting, past and without materials, says so
// instead of promising its notice; the supervisory board's 2021–2026
// term, ended on 2026-06-25, reads as ended.
func TestDatesKeptHonest(t *testing.T) {
	out := site(t)
	read := func(p string) *html.Node {
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
		return doc
	}
	for _, c := range []struct {
		events, calendar, investors, noMaterials, notice, ended string
	}{
		{"pl/wydarzenia", "pl/dla-inwestorow/kalendarz", "pl/dla-inwestorow/informacje-ogolne",
			"nie zostały opublikowane", "Ogłoszenie o zwołaniu publikujemy", "Kadencja 2021–2026 upłynęła 25.06.2026"},
		{"en/events", "en/for-investors/calendar", "en/for-investors/investors",
			"have not been published", "The notice is published", "The 2021–2026 term of office ended on 25.06.2026"},
	} {
		past, upcoming := 0, 0
		for _, li := range findAll(read(c.events), func(n *html.Node) bool { return strings.Contains(brAttr(n, "class"), "timeline__item ") }) {
			signups := len(findAll(li, func(n *html.Node) bool {
				return n.Data == "a" && strings.Contains(brAttr(n, "class"), "timeline__signup-link")
			}))
			date := brText(findAll(li, func(n *html.Node) bool { return n.Data == "time" })[0])
			if strings.Contains(brAttr(li, "class"), "timeline__item--past") {
				past++
				if signups > 0 || strings.Contains(brText(li), "mailto:") {
					t.Errorf("%s: the past event of %s still offers a sign-up link", c.events, date)
				}
			} else if signups > 0 {
				upcoming++
			}
		}
		if past == 0 || upcoming == 0 {
			t.Errorf("%s: %d past events, %d upcoming with a sign-up link; the check needs both", c.events, past, upcoming)
		}
		cal := brText(read(c.calendar))
		if !strings.Contains(cal, c.noMaterials) || strings.Contains(cal, c.notice) {
			t.Errorf("%s: the past 2026 general meeting does not say its materials are missing, or still promises its notice", c.calendar)
		}
		if inv := strings.Join(strings.Fields(brText(read(c.investors))), " "); !strings.Contains(inv, c.ended) {
			t.Errorf("%s: the supervisory board's term does not read as ended (%q)", c.investors, c.ended)
		}
	}
}

func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}
