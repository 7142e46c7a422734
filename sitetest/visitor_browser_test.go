package sitetest

// What a visitor sees first (issue 26): the contact page leads with its
// form, and no address, phone number or word breaks mid-word.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// testContactFormFirst: the form's first field is in the first screen at
// 1280x800 and within the second at 390x844; the contact persons follow
// the form.
func (s *browserSuite) testContactFormFirst(t *testing.T) {
	for _, c := range []struct {
		width, height int64
		screens       float64
	}{{1280, 800, 1}, {390, 844, 2}} {
		for _, p := range []string{"/pl/o-nas/kontakt/", "/en/about-us/contact/"} {
			t.Run(fmt.Sprintf("%s/%d", p, c.width), func(t *testing.T) {
				tb := s.newTab(t, tabOptions{width: c.width, height: c.height, consent: "reject"})
				tb.navigate(p, 200)
				type where struct{ Field, Persons, Height float64 }
				w := jsEval[where](tb, `(() => {
				  const f = document.querySelector('#demo-form input:not([type=hidden]), #demo-form textarea, #demo-form select');
				  const persons = document.querySelector('.contacts');
				  return { Field: f ? f.getBoundingClientRect().bottom + scrollY : -1,
				    Persons: persons ? persons.getBoundingClientRect().top + scrollY : -1, Height: innerHeight };
				})()`)
				if w.Field < 0 || w.Persons < 0 {
					t.Fatalf("no form field (%v) or contact persons (%v) on %s", w.Field, w.Persons, p)
				}
				if limit := w.Height * c.screens; w.Field > limit {
					t.Errorf("the form's first field ends %.0f px down, want within %.0f (%v screens of %v px)", w.Field, limit, c.screens, w.Height)
				}
				if w.Persons < w.Field {
					t.Errorf("the contact persons (%.0f px) come before the form's first field (%.0f px)", w.Persons, w.Field)
				}
			})
		}
	}
}

// brokenWords lists the words in <main> whose letters lie on more than one
// line. A word is what lies between white space, split once more after a
// hyphen or slash: those are where a line may end without breaking a word.
// An e-mail address is one word (it never wraps, not even at its "@").
const brokenWords = `(() => {
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode()); ) {
    const el = n.parentElement;
    if (!el || !isVisible(el) || el.closest('.visually-hidden, [aria-hidden=true], script, style, template, svg')) continue;
    const re = /[^\s\-\/–—]+[\-\/–—]?/g;
    for (let m; (m = re.exec(n.data)); ) {
      if (m[0].length < 2) continue;
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top / 4)));
      if (tops.size > 1) out.push(m[0] + ' (in ' + el.localName + (el.className ? '.' + String(el.className).split(' ')[0] : '') + ')');
    }
  }
  return out;
})()`

// testNoBrokenWords: at 320, 390 and 1280 px no word, e-mail address or
// phone number on the pages a visitor meets first wraps mid-word.
func (s *browserSuite) testNoBrokenWords(t *testing.T) {
	// One page of each type a visitor meets first (both languages on the
	// contact page, whose cards hold the longest addresses): few enough
	// that the suite's shared tabs stay free for the other tests.
	pages := []string{"/pl/", "/pl/o-nas/kontakt/", "/en/about-us/contact/", "/pl/o-nas/zespol/", "/en/for-investors/investors/", "/pl/rozwiazania/rekrutacja/"}
	for _, w := range []int64{320, 390, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			tb := s.newTab(t, tabOptions{width: w, consent: "reject"})
			for _, p := range pages {
				tb.open(p)
				jsEval[bool](tb, `document.fonts.ready.then(() => true)`)
				if got := jsEval[[]string](tb, brokenWords); len(got) > 0 {
					t.Errorf("%s at %d px: words broken across lines: %s", p, w, strings.Join(got, "; "))
				}
			}
		})
	}
}

// peopleRows measures every list of people cards (.people, .contacts):
// for each row of cards, how far its last card ends from the list's right
// edge and how much the card heights differ.
const peopleRows = `(() => {
  const out = [];
  for (const list of document.querySelectorAll('main .people, main .contacts')) {
    const lr = list.getBoundingClientRect();
    const rows = new Map();
    for (const c of list.children) {
      const r = c.getBoundingClientRect();
      const k = Math.round(r.top);
      if (!rows.has(k)) rows.set(k, []);
      rows.get(k).push(r);
    }
    for (const [top, rs] of rows) {
      const hs = rs.map((r) => r.height);
      out.push({ List: (list.closest('[id]') || {}).id || list.className, Cards: rs.length,
        Gap: lr.right - Math.max(...rs.map((r) => r.right)), HeightSpread: Math.max(...hs) - Math.min(...hs) });
    }
  }
  return out;
})()`

// testPeopleRows: at 390, 768 and 1280 px the people on the team, investor
// and contact pages fill their rows, and the cards of a row are equally tall.
func (s *browserSuite) testPeopleRows(t *testing.T) {
	pages := []string{"/pl/o-nas/zespol/", "/pl/dla-inwestorow/informacje-ogolne/", "/en/about-us/contact/"}
	for _, w := range []int64{390, 768, 1280} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			tb := s.newTab(t, tabOptions{width: w, consent: "reject"})
			for _, p := range pages {
				tb.open(p)
				type row struct {
					List              string
					Cards             int
					Gap, HeightSpread float64
				}
				rows := jsEval[[]row](tb, peopleRows)
				if len(rows) == 0 {
					t.Errorf("%s: no people cards", p)
				}
				for i, r := range rows {
					last := i == len(rows)-1 || rows[i+1].List != r.List
					// No card alone in the last row of a grid at 1280 px.
					if w == 1280 && last && r.Cards == 1 && i > 0 && rows[i-1].List == r.List {
						t.Errorf("%s at %d px: the last row of %s holds one card alone", p, w, r.List)
					}
					if r.Gap > 2 && !(last && r.Cards > 0 && i > 0 && rows[i-1].List == r.List) {
						t.Errorf("%s at %d px: a row of %d cards in %s leaves %.0f px empty at its end", p, w, r.Cards, r.List, r.Gap)
					}
					if r.HeightSpread > 1 {
						t.Errorf("%s at %d px: the cards of a row in %s differ %.0f px in height", p, w, r.List, r.HeightSpread)
					}
				}
			}
		})
	}
}

// open loads a site path in a tab that has loaded others before: the
// service worker the runtime registered may answer it (then the browser
// reports no network response), so wait for the document instead.
func (tb *tab) open(p string) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.Navigate(tb.s.base+p)); err != nil {
		tb.t.Fatalf("navigating to %s: %v", p, err)
	}
	tb.waitJS(fmt.Sprintf(`location.pathname === %s && document.readyState === 'complete' && document.querySelector('main h1')`, jsStr(p)), busyBudget, "%s to load", p)
}
