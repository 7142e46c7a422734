package sitetest

// What a marketing lead sent back (issue 40, items 7–11), each checked where
// a visitor sees it: at 390 and 1280 px, in both languages.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// emailLines gives each contact person's e-mail address (the mailto link's
// address, found as text anywhere in the card) and on how many lines it lies.
const emailLines = `(() => {
  const out = [];
  for (const a of document.querySelectorAll('main .contact-card a[href^="mailto:"]')) {
    const addr = a.getAttribute('href').slice(7);
    const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    let found = false;
    for (let n; (n = walker.nextNode()); ) {
      const i = n.data.indexOf(addr);
      if (i < 0) continue;
      found = true;
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + addr.length);
      const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
      out.push({ addr, lines: tops.size });
    }
    if (!found) out.push({ addr, lines: -1 });
  }
  return out;
})()`

func (s *browserSuite) testMarketing(t *testing.T) {
	for _, w := range []int64{mobileWidth, desktopWidth} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			tb := s.newTab(t, tabOptions{width: w, height: 844, consent: "reject"})
			defer tb.release()

			// 7. The contact persons' addresses: one unbroken text, one line.
			for _, p := range []string{"/pl/o-nas/kontakt/", "/en/about-us/contact/"} {
				tb.open(p)
				jsEval[bool](tb, `document.fonts.ready.then(() => true)`)
				type line struct {
					Addr  string
					Lines int
				}
				got := jsEval[[]line](tb, emailLines)
				if len(got) == 0 {
					t.Errorf("%s: no contact person's e-mail address", p)
				}
				for _, l := range got {
					if l.Lines != 1 {
						t.Errorf("%s at %d px: %s lies on %d lines (-1: not one text)", p, w, l.Addr, l.Lines)
					}
				}
				// 8. The rotating line between the form and the contact persons.
				order := jsEval[[]string](tb, `[...document.querySelectorAll('main #demo-form, main .rotating-text, main .contacts')].map((e) => e.id || e.className.split(' ')[0])`)
				if strings.Join(order, " ") != "demo-form rotating-text contacts" {
					t.Errorf("%s: the form, the rotating line and the persons come in the order %v", p, order)
				}
			}

			// 11. The last breadcrumb of a long post title: no line starts with "/".
			for _, p := range []string{"/pl/blog/biznes/chatboty-w-obsludze-klienta/", "/en/blog/business/internal-communication-with-a-bot-in-teams/"} {
				tb.open(p)
				if n := jsEval[int](tb, `document.querySelectorAll('.breadcrumbs__list > li').length`); n < 3 {
					t.Fatalf("%s: %d breadcrumbs", p, n)
				}
				// A separator is drawn at the start of its item (::before):
				// an item whose first box starts a line (left edge at the
				// list's start) below the first line begins that line with "/".
				starts := jsEval[[]bool](tb, `(() => { const ol = document.querySelector('.breadcrumbs__list'); const left = ol.getBoundingClientRect().left;
				  return [...ol.children].slice(1).map((li) => { const r = li.getClientRects()[0]; return !!r && Math.abs(r.left - left) < 2 && r.top > ol.getBoundingClientRect().top + 2; }); })()`)
				for i, st := range starts {
					if st {
						t.Errorf("%s at %d px: breadcrumb %d starts a line with its \"/\"", p, w, i+2)
					}
				}
			}

			// 11. The footer: every page linked once; no contact line starts
			// with a separator.
			tb.open("/pl/")
			if dup := jsEval[[]string](tb, `(() => { const seen = new Map(); for (const a of document.querySelectorAll('footer .site-footer__nav a')) { const k = new URL(a.href).pathname + new URL(a.href).hash; seen.set(k, (seen.get(k) || []).concat(a.textContent.trim())); }
			  return [...seen].filter(([, v]) => v.length > 1).map(([k, v]) => k + ': ' + v.join(', ')); })()`); len(dup) > 0 {
				t.Errorf("footer links leading to the same page: %v", dup)
			}
			if bad := jsEval[[]string](tb, `(() => { const p = document.querySelector('.site-footer__company-text'); const out = []; let top = null;
			  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
			  for (let n; (n = walker.nextNode()); ) for (let i = 0; i < n.data.length; i++) { if (/\s/.test(n.data[i])) continue; const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); const b = r.getClientRects()[0];
			    if (b && (top === null || b.top > top + 4)) { top = b.top; if (/^[·•|\-–]/.test(n.data[i])) out.push(n.data.slice(i, i + 24)); } }
			  return out; })()`); len(bad) > 0 {
				t.Errorf("at %d px footer contact lines start with a separator: %q", w, bad)
			}

			// 11. The consent banner: a low strip on a phone's first screen.
			if w == mobileWidth {
				tb2 := s.newTab(t, tabOptions{width: w, height: 844})
				tb2.navigate("/pl/", 200)
				tb2.waitJS(`document.querySelector('.consent-banner.consent-banner--visible')`, busyBudget, "the consent banner")
				if f := jsEval[float64](tb2, `document.querySelector('.consent-banner').getBoundingClientRect().height / innerHeight`); f > 0.2 {
					t.Errorf("the consent banner covers %.0f%% of the first 390x844 screen, want at most 20%%", f*100)
				}
				tb2.release()
				return
			}

			// 11. Desktop "Produkty": a click or Enter opens its list and
			// stays on the page.
			tb.open("/pl/o-nas/kontakt/")
			open := `(() => { const d = document.querySelector('.main-nav__item--parent .main-nav__dropdown'); return getComputedStyle(d).visibility === 'visible' && isVisible(d.querySelector('a')); })()`
			tb.click(".main-nav__item--parent .main-nav__link")
			tb.do(cdpDo(input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: 5, Y: 700})) // away: no hover
			if err := tb.poll(`location.pathname === '/pl/o-nas/kontakt/' && `+open, 3*time.Second); err != nil {
				t.Errorf("a click on Produkty: at %s, its list open: %v", jsEval[string](tb, `location.pathname`), jsEval[bool](tb, open))
			}
			tb.open("/pl/o-nas/kontakt/")
			tb.do(cdpDo(input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: 5, Y: 700}))
			jsEval[bool](tb, `(document.querySelector('.main-nav__item--parent .main-nav__link').focus(), true)`)
			tb.do(chromedp.KeyEvent(kb.Enter))
			time.Sleep(300 * time.Millisecond) // a link would be navigating by now
			if err := tb.poll(`location.pathname === '/pl/o-nas/kontakt/' && `+open, 3*time.Second); err != nil {
				t.Errorf("Enter on Produkty: at %s, its list open: %v", jsEval[string](tb, `location.pathname`), jsEval[bool](tb, open))
			}

			// 11. The investors' tables as wide as the sections beside them.
			for _, p := range []string{"/pl/dla-inwestorow/informacje-ogolne/", "/en/for-investors/investors/"} {
				tb.open(p)
				ws := jsEval[map[string]float64](tb, `(() => { const w = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().width : -1; };
				  return { documents: w('main .section--documents .container'), facts: w('main .facts'), timeline: w('main .timeline'), status: w('main .status-note') }; })()`)
				for k, v := range ws {
					if v < 0 {
						continue
					}
					if d := ws["documents"] - v; k != "documents" && (d > 2*48+2 || d < -2) {
						t.Errorf("%s at %d px: the %s is %.0f px wide beside %.0f px sections", p, w, k, v, ws["documents"])
					}
				}
			}
		})
	}
}
