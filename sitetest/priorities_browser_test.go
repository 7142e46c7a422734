package sitetest

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// priorityPages: one page per kind of first screen (hero photo, report
// tabs, form and rotating text, code post), in both languages.
var priorityPages = []string{
	"/pl/", "/en/", "/pl/o-nas/kontakt/", "/en/about-us/contact/",
	"/pl/dla-inwestorow/raporty/", "/pl/devblog/blok-akcji-wywolujacy-rest-api/",
}

// testLoadPriorities: while a page loads, only the document, images and
// fonts ask for high priority, and no script of the page's own, no module
// preload and no web app manifest is requested at all; what is requested
// after the load is asked for at low priority in the markup
// (fetchpriority=low). The priority a browser then gives a request is its
// own heuristic, which differs between versions: logged, not asserted. Lighthouse's simulated FCP and
// LCP count every high-priority request that ended before the observed
// paint, with all it depended on, and its LCP every request of any priority
// that ended before it: the web fonts (highest priority when a stylesheet
// asks for them), the build check (/page-data/app-data.json, fetched by the
// runtime), island code (import() is high priority), and then the module
// scripts, their preloads and the manifest at low priority each held the
// mobile LCP back (bench/lighthouse). The fonts are preloaded on purpose, so
// a first visit is in the brand fonts (TestFontsPreloaded, TestBrowser/
// FirstVisitFonts: their requests are not checked here); the module scripts, modulepreloads and the manifest sit in
// <template data-sg-late> until the inline late loader copies them into the
// head after the load event (checked here by the order of the protocol's
// events, not by any duration; TestLateElementsInTemplates checks the
// markup of every page), the build check is a low-priority fetch and the
// island loader preloads a chunk at low priority before importing it.
// Favicons (the browser's own requests) are left out.
func (s *browserSuite) testLoadPriorities(t *testing.T) {
	for _, w := range []int64{mobileWidth, desktopWidth} {
		for _, p := range priorityPages {
			t.Run(fmt.Sprintf("%d%s", w, p), func(t *testing.T) {
				tb := s.newTab(t, tabOptions{width: w})
				defer tb.release()
				tb.navigate(p, 200)
				// Loaded, the build checked, the islands that hydrate at load
				// (and MobileMenu at 390 px) hydrated.
				tb.waitJS(`document.readyState === 'complete' && !!document.documentElement.dataset.sgBuild &&
  [...document.querySelectorAll('sg-island[data-directive=load], sg-island[data-directive=media]')].every((i) => i.hasAttribute('data-hydrated') || i.dataset.sgWaiting === 'media')`,
					5*time.Second, "the page to load and its load-time islands to hydrate")
				// A classic script without async or defer blocks
				// the parser by design (the top bar's date check while a
				// visitor's date can fall in the announcement's window,
				// TestTopbarScriptWhileVisitorsCanBeInWindow): it is high
				// priority and meant to be.
				blocking := jsEval[[]string](tb, `[...document.querySelectorAll('script[src]:not([async]):not([defer]):not([type=module])')].map((s) => new URL(s.src).pathname)`)
				tb.mu.Lock()
				loads := make([]loadRecord, 0, len(tb.loads))
				for _, l := range tb.loads {
					loads = append(loads, *l)
				}
				tb.mu.Unlock()
				tb.mu.Lock()
				loadedAt := tb.loadedAt
				tb.mu.Unlock()
				if loadedAt == 0 {
					t.Fatal("precondition: no load event seen")
				}
				// Once loaded, the late elements are in the head.
				if late := jsEval[[]string](tb, `[...document.head.querySelectorAll(':scope > script[type=module][src], :scope > link[rel=modulepreload], :scope > link[rel=manifest]')].map((e) => e.localName + ' ' + new URL(e.src || e.href).pathname)`); !brContainsPrefix(late, "script /_assets/runtime-") || !brContains(late, "link /site.webmanifest") {
					t.Errorf("after the load the head has %v: want the runtime's module script and the manifest copied from <template data-sg-late>", late)
				}
				var checks, scripts int
				for _, l := range loads {
					u, err := url.Parse(l.url)
					if err != nil || u.Scheme == "data" || l.typ == "Font" {
						continue
					}
					if u.Path == "/page-data/app-data.json" {
						checks++
					}
					if (l.typ == "Script" && !brContains(blocking, u.Path)) || l.typ == "Manifest" || strings.HasSuffix(u.Path, ".webmanifest") {
						scripts++
						if l.sent <= loadedAt {
							t.Errorf("%s (%s) was requested before the load event: module scripts, modulepreloads and the manifest load only after it", u.Path, l.typ)
						}
					}
					if l.priority != "High" && l.priority != "VeryHigh" {
						continue
					}
					if l.typ == "Document" || l.typ == "Image" || u.Path == "/favicon.ico" || u.Path == "/img/brand/favicon.svg" || brContains(blocking, u.Path) {
						continue
					}
					if l.sent > loadedAt {
						// Asked for after the load, with fetchpriority=low in
						// the markup (checked below): the priority the
						// request gets is the browser's own choice (Chromium
						// 150 gives a low-priority modulepreload High, 156
						// Low), not the product's.
						t.Logf("after the load: %s (%s) at priority %s", u.Path, l.typ, l.priority)
						continue
					}
					t.Errorf("%s (%s) requested at priority %s before the load event: only the document, images and fonts may ask for high priority while the page loads", u.Path, l.typ, l.priority)
				}
				// What the product asks for after the load it asks for at
				// low priority, in the markup: the late elements and the
				// island loader's preloads of island code.
				if loud := jsEval[[]string](tb, `[...document.querySelectorAll('script[type=module][src], link[rel=modulepreload]')].filter((e) => e.getAttribute('fetchpriority') !== 'low').map((e) => e.localName + ' ' + new URL(e.src || e.href).pathname)`); len(loud) > 0 {
					t.Errorf("module scripts and preloads without fetchpriority=low: %v", loud)
				}
				if n := jsEval[int](tb, `document.querySelectorAll('link[rel=modulepreload][href*="/islands/"]').length`); n == 0 {
					t.Errorf("precondition: no island code preloaded after the load")
				}
				if scripts == 0 {
					t.Errorf("precondition: no script request seen after the load")
				}
				if checks == 0 {
					t.Errorf("precondition: no build-check request seen: the test saw no requests?")
				}
			})
		}
	}
}

func brContainsPrefix(list []string, prefix string) bool {
	for _, x := range list {
		if strings.HasPrefix(x, prefix) {
			return true
		}
	}
	return false
}
