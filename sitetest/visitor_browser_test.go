package sitetest

// What a visitor sees first and reads whole (issue 26 points 3 and 4): the
// contact page leads with its form, and no word, e-mail address or phone
// number breaks across lines at 320, 390 or 1280 px.

import (
	"fmt"
	"testing"
)

// testFormFirst: the demo form's first field is on the first screen at
// 1280×800 and ends within the second screen at 390×844.
func (s *browserSuite) testFormFirst(t *testing.T) {
	for _, c := range []struct {
		w, h    int64
		screens float64
	}{{desktopWidth, 800, 1}, {mobileWidth, 844, 2}} {
		for _, p := range []string{"/pl/o-nas/kontakt/", "/en/about-us/contact/"} {
			t.Run(fmt.Sprintf("%dx%d%s", c.w, c.h, p), func(t *testing.T) {
				tb := s.newTab(t, tabOptions{width: c.w, height: c.h, consent: "reject"})
				defer tb.release()
				tb.navigate(p, 200)
				bottom := jsEval[float64](tb, `(() => { const f = document.querySelector('#demo-form input:not([type=hidden])');
				  return f ? f.getBoundingClientRect().bottom + scrollY : -1; })()`)
				if bottom < 0 {
					t.Fatalf("%s has no demo form field", p)
				}
				if limit := c.screens * float64(c.h); bottom > limit {
					t.Errorf("the form's first field ends %.0f px down the page, want within %.0f px (%g screen(s) of %d px)", bottom, limit, c.screens, c.h)
				}
			})
		}
	}
}

// wordBreakPages are pages with e-mail addresses, phone numbers and long
// words in cards, heroes and the footer.
var wordBreakPages = []string{
	"/pl/", "/en/", "/pl/o-nas/kontakt/", "/en/about-us/contact/", "/pl/o-nas/zespol/",
	"/pl/dla-inwestorow/informacje-ogolne/", "/en/for-investors/investors/", "/pl/rozwiazania/rekrutacja/",
	"/pl/o-nas/praca/", "/pl/dla-inwestorow/wza/",
}

// brokenWordsJS lists the words of the page's visible text that the browser
// laid out on more than one line, and the e-mail and phone links whose text
// does. A word is what lies between ASCII white space (a no-break space
// joins), and may break only after a hyphen, dash or slash (an address or
// number never). The page must not scroll sideways either.
const brokenWordsJS = `(() => {
  const out = [];
  const r = document.createRange();
  const lines = (rects) => {
    const tops = [];
    for (const x of rects) if (x.width > 0 && !tops.some((t) => Math.abs(t - x.top) < x.height / 2)) tops.push(x.top);
    return tops.length;
  };
  const skip = 'script,style,template,[hidden],.visually-hidden,.sr-only,pre,code';
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode()); ) {
    const el = n.parentElement;
    if (!el || el.closest(skip) || !el.getClientRects().length) continue;
    const box = el.getBoundingClientRect();
    if (box.right <= 0 || box.width < 2) continue; // off screen (a honeypot field), clipped to nothing
    const re = /[^ \t\n\r\f]+/g;
    for (let m; (m = re.exec(n.data)); ) {
      const word = m[0];
      if (word.length < 2) continue;
      r.setStart(n, m.index);
      r.setEnd(n, m.index + word.length);
      if (lines(r.getClientRects()) < 2) continue;
      const address = /@|^\+?\d[\d\u00a0().-]{5,}$|^https?:/.test(word);
      if (address || !/[-\u2010-\u2014\/]/.test(word)) out.push(word);
    }
  }
  for (const a of document.querySelectorAll('a[href^="mailto:"], a[href^="tel:"]')) {
    if (a.closest(skip) || !a.getClientRects().length) continue;
    const rects = [];
    const tw = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    for (let n; (n = tw.nextNode()); ) {
      if (n.parentElement.closest(skip) || !n.data.trim()) continue;
      r.selectNodeContents(n);
      rects.push(...r.getClientRects());
    }
    if (lines(rects) > 1) out.push('link ' + a.getAttribute('href'));
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px wide');
  return out;
})()`

// testNoBrokenWords: at 320, 390 and 1280 px no word, address or phone
// number of the pages breaks across lines.
func (s *browserSuite) testNoBrokenWords(t *testing.T) {
	for _, w := range []int64{320, mobileWidth, desktopWidth} {
		for _, p := range wordBreakPages {
			t.Run(fmt.Sprintf("%d%s", w, p), func(t *testing.T) {
				tb := s.newTab(t, tabOptions{width: w, consent: "reject"})
				defer tb.release()
				tb.navigate(p, 200)
				// The layout in the brand fonts, as a visitor sees it once they load.
				jsEval[bool](tb, `document.fonts.ready.then(() => true)`)
				if bad := jsEval[[]string](tb, brokenWordsJS); len(bad) > 0 {
					t.Errorf("%s at %d px: broken across lines: %q", p, w, bad)
				}
			})
		}
	}
}

// peopleRowsJS reports, for every list of people on the page, what is wrong
// with its rows: a row that leaves part of the list's width empty, cards of
// one row with different heights, a person without a drawn portrait of the
// site's one style (assets/static/img/team, tools/avatars; alt="" where the
// card's heading next to it names the person).
const peopleRowsJS = `(async () => {
  const out = [];
  const drawn = new Map(); // portrait URL -> a drawn face, not initials set in type
  for (const list of document.querySelectorAll('.people, .contacts')) {
    const cards = [...list.children];
    const lb = list.getBoundingClientRect();
    const rows = new Map();
    for (const c of cards) {
      const r = c.getBoundingClientRect();
      const key = Math.round(r.top);
      if (!rows.has(key)) rows.set(key, []);
      rows.get(key).push(r);
      const img = c.querySelector('img');
      if (!img || !/\/img\/team\/[a-z-]+\.svg$/.test(new URL(img.currentSrc || img.src).pathname) || !img.hasAttribute('alt')) {
        out.push((list.parentElement.closest('[id]') || {}).id + ': ' + (c.querySelector('h3') || c).textContent.trim() + ' has no drawn portrait (with an alt attribute)');
      } else if (!drawn.has(img.src)) {
        drawn.set(img.src, fetch(img.src).then((r) => r.text()).then((svg) => !/<text[\s>]/.test(svg) && /<ellipse/.test(svg)));
      }
    }
    for (const [top, rs] of rows) {
      const left = Math.min(...rs.map((r) => r.left)), right = Math.max(...rs.map((r) => r.right));
      if (left - lb.left > 2 || lb.right - right > 2) out.push(list.className + ': the row at ' + top + ' px fills ' + Math.round(right - left) + ' of ' + Math.round(lb.width) + ' px');
      const hs = rs.map((r) => Math.round(r.height));
      if (Math.max(...hs) - Math.min(...hs) > 1) out.push(list.className + ': the row at ' + top + ' px has cards of heights ' + hs.join(', '));
    }
  }
  for (const [src, ok] of drawn) if (!(await ok)) out.push(new URL(src).pathname + ' is not a drawn portrait (initials in type, or no face)');
  return out;
})()`

// testPeopleRows: at 390, 768 and 1280 px every row of people fills its
// list's width with cards of one height, each with a drawn portrait
// (issue 26 point 2).
func (s *browserSuite) testPeopleRows(t *testing.T) {
	for _, w := range []int64{mobileWidth, 768, desktopWidth} {
		for _, p := range []string{"/pl/o-nas/zespol/", "/en/about-us/team/", "/pl/dla-inwestorow/informacje-ogolne/", "/pl/o-nas/kontakt/"} {
			t.Run(fmt.Sprintf("%d%s", w, p), func(t *testing.T) {
				tb := s.newTab(t, tabOptions{width: w, consent: "reject"})
				defer tb.release()
				tb.navigate(p, 200)
				jsEval[bool](tb, `document.fonts.ready.then(() => true)`)
				if n := jsEval[int](tb, `document.querySelectorAll('.people > *, .contacts > *').length`); n == 0 {
					t.Fatalf("%s shows no people", p)
				}
				if bad := jsEval[[]string](tb, peopleRowsJS); len(bad) > 0 {
					t.Errorf("%s at %d px: %q", p, w, bad)
				}
			})
		}
	}
}
