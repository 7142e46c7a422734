package sitetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// fontState is what a page says about its web fonts.
type fontState struct {
	Class     bool     // <html> has sg-fonts
	Stored    string   // localStorage sg-fonts
	Body      string   // the body's computed font-family
	LoadEnd   float64  // the navigation's loadEventEnd
	Fonts     []string // the .woff2 files fetched, by resource timing
	Before    []string // those whose fetch started before the load event ended
	Loaded    []string // the families of the FontFaces loaded
	FontsUsed bool     // document.fonts.check for the text face
}

const fontStateJS = `(async () => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fonts = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.woff2'));
  return {
    class: document.documentElement.classList.contains('sg-fonts'),
    stored: String(localStorage.getItem('sg-fonts')),
    body: getComputedStyle(document.body).fontFamily,
    loadEnd: nav.loadEventEnd,
    fonts: fonts.map((e) => new URL(e.name).pathname),
    before: fonts.filter((e) => e.startTime < nav.loadEventEnd).map((e) => new URL(e.name).pathname),
    loaded: [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family),
    fontsUsed: document.fonts.check('16px "Inter Variable"', 'a'),
  };
})()`

// testFontsAfterLoad: a first visit fetches no web font while the page
// loads (Lighthouse's simulated LCP counted the fonts' download into every
// page's LCP, bench/lighthouse) and renders in the metric-matched
// fallbacks; once it has loaded, the runtime fetches the fonts into the
// cache and records it, and the next full load uses them from its first
// paint (the head's inline script, allowed by the CSP's hash, sets
// sg-fonts). The page that fetched them keeps its fallbacks (no swap, no
// shift).
func (s *browserSuite) testFontsAfterLoad(t *testing.T) {
	for _, w := range []int64{mobileWidth, desktopWidth} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			tb := s.newTab(t, tabOptions{width: w, consent: "accept"})
			defer tb.release()
			tb.navigate("/pl/", 200)
			tb.waitJS(`localStorage.getItem('sg-fonts') === '1'`, 10*time.Second, "the runtime to fetch the fonts after the load")
			first := jsEval[fontState](tb, fontStateJS)
			if first.Class || strings.Contains(first.Body, "Inter Variable") {
				t.Errorf("first visit: sg-fonts %v, body font %q: want the fallbacks for the whole page view", first.Class, first.Body)
			}
			if len(first.Before) > 0 {
				t.Errorf("first visit: fonts fetched before the load event ended (%.0f ms): %v", first.LoadEnd, first.Before)
			}
			for _, want := range []string{"/inter-latin-wght-", "/inter-pl-wght-", "/space-grotesk-latin-wght-", "/space-grotesk-pl-wght-"} {
				if !brAny(first.Fonts, want) {
					t.Errorf("first visit: %s* not fetched after the load (fetched %v)", want, first.Fonts)
				}
			}
			for _, f := range first.Fonts {
				if strings.Contains(f, "latin-ext") {
					t.Errorf("first visit: fetched %s, which a page of Polish and English text does not need", f)
				}
			}

			// The next full load: the fonts from its first paint.
			tb.navigate("/en/about-us/contact/", 200)
			tb.waitJS(`document.readyState === 'complete'`, 5*time.Second, "the second page to load")
			tb.waitJS(`document.fonts.status === 'loaded'`, 5*time.Second, "the second page's fonts")
			second := jsEval[fontState](tb, fontStateJS)
			if !second.Class || !strings.HasPrefix(second.Body, `"Inter Variable"`) {
				t.Errorf("second page: sg-fonts %v, body font %q: want the web fonts (is the head's inline script allowed by the CSP?)", second.Class, second.Body)
			}
			if !second.FontsUsed || !brAny(second.Loaded, "Space Grotesk Variable") {
				t.Errorf("second page: fonts loaded %v (Inter ready: %v), want Inter and Space Grotesk", second.Loaded, second.FontsUsed)
			}
			tb.checkNoErrors()
		})
	}
}

// testPrefetchWhenIdle: the prefetcher starts watching links only in idle
// callbacks (or their timeout), never in the runtime's start: a URL per
// link and the observer's first report on each held the main thread for
// 65-100 ms at 4x CPU on the home page, counted by Lighthouse as blocking
// time. Prefetching itself is TestRuntime/Prefetch.
func (s *browserSuite) testPrefetchWhenIdle(t *testing.T) {
	const record = `(() => {
  const calls = (window.__observeCalls = { idle: 0, other: 0 });
  let inIdle = 0;
  const ric = window.requestIdleCallback;
  window.requestIdleCallback = function (f, o) {
    return ric.call(window, function (d) { inIdle++; try { return f(d); } finally { inIdle--; } }, o);
  };
  const obs = IntersectionObserver.prototype.observe;
  IntersectionObserver.prototype.observe = function (el) {
    if (el instanceof HTMLAnchorElement) calls[inIdle ? 'idle' : 'other']++;
    return obs.call(this, el);
  };
})();`
	tb := s.newTab(t, tabOptions{width: desktopWidth, consent: "accept"})
	defer tb.release()
	var id cdppage.ScriptIdentifier
	err := chromedp.Do(tb.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		r, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: record})
		if err == nil {
			id = r.Identifier
		}
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer chromedp.Do(tb.ctx, cdpDo(cdppage.RemoveScriptToEvaluateOnNewDocument, cdppage.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: id}))
	tb.navigate("/pl/", 200)
	links := jsEval[int](tb, `document.querySelectorAll('a[href^="/"]').length`)
	tb.waitJS(`window.__observeCalls.idle + window.__observeCalls.other >= `+fmt.Sprint(links/2), 5*time.Second, "the prefetcher to watch the page's links")
	calls := jsEval[map[string]int](tb, `window.__observeCalls`)
	if calls["other"] > 0 {
		t.Errorf("%d links watched outside an idle callback (%d inside): the prefetcher's start must wait for idle time", calls["other"], calls["idle"])
	}
	if jsEval[string](tb, `document.documentElement.dataset.sgPrefetch`) != "3000,4,3000" {
		t.Errorf("prefetch not on")
	}
}

// brAny reports whether some item contains sub.
func brAny(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
