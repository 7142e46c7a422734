package sitetest

// Browser tests of the last two spec gaps of issue 26 point 7: the island
// loader retried every 200 ms (bounded) when it fails, and a page whose own
// page data is missing on a direct load ("page resources for {path} not
// found", RUNTIME.md "Failures").

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// loaderRetries is islands.js's TRIES: retries after the script tag failed.
const loaderRetries = 10

// waitErr waits until the tab has logged an error containing s.
func (tb *tab) waitErr(s string, d time.Duration) {
	tb.t.Helper()
	deadline := time.Now().Add(d)
	for {
		tb.mu.Lock()
		errs := append([]string(nil), tb.errs...)
		tb.mu.Unlock()
		for _, e := range errs {
			if strings.Contains(e, s) {
				return
			}
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("waiting %v for an error containing %q; errors: %q", d, s, errs)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func (rs *runtimeSuite) testIslandLoader(t *testing.T) {
	const page = "/en/about-us/contact/"
	// The consent banner hydrates when the browser is idle, wherever it is.
	const hydrated = `window.__sgIslandScans >= 1 && document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]')`
	loader := pathHas("/_assets/islands/loader-")

	// The loader is an immutable asset: without the HTTP cache every try
	// reaches the server.
	noCache := func(tb *tab) {
		tb.do(cdpDo(network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}))
		t.Cleanup(func() {
			within(10*time.Second, func() error {
				return chromedp.Do(tb.base, cdpDo(network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: false}))
			})
		})
	}
	t.Run("503 once", func(t *testing.T) {
		tb := rs.open(t, tabOptions{consent: "reject"})
		noCache(tb)
		rs.srv.inject(t, &fault{match: loader, status: 503, times: 1})
		m := rs.srv.mark()
		rs.load(tb, "", page)
		tb.waitJS(hydrated, 15*time.Second, "the islands to hydrate after the loader failed once")
		reqs := rs.srv.since(m, "/_assets/islands/loader-")
		if len(reqs) != 2 || reqs[0].Query != "" || reqs[1].Query != "sg-retry=1" {
			t.Fatalf("loader requests %v, want the script tag's and one retry (?sg-retry=1)", paths(reqs))
		}
		// Never earlier than 200 ms after the failure (later on a busy machine).
		if gap := reqs[1].At.Sub(reqs[0].At); gap < 190*time.Millisecond {
			t.Errorf("the retry came %v after the failed request, want 200ms", gap)
		}
		if n := jsEval[int](tb, `window.__sgIslandScans`); n != 1 {
			t.Errorf("the loader scanned the page %d times, want once", n)
		}
		tb.checkNoErrors()
	})

	t.Run("503 always", func(t *testing.T) {
		tb := rs.open(t, tabOptions{consent: "reject"})
		noCache(tb)
		rs.srv.inject(t, &fault{match: loader, status: 503})
		m := rs.srv.mark()
		rs.load(tb, "", page)
		tb.waitErr("sitegen: island loader", 20*time.Second)
		tb.dropErrors("sitegen: island loader")
		// The bound: the tag's request and loaderRetries retries, then none.
		jsEval[bool](tb, `new Promise((r) => setTimeout(() => r(true), 600))`)
		reqs := rs.srv.since(m, "/_assets/islands/loader-")
		if len(reqs) != 1+loaderRetries {
			t.Errorf("a loader that always fails was asked %d times, want %d: %v", len(reqs), 1+loaderRetries, paths(reqs))
		}
		// The page is the static page it was: the form is there to fill in.
		if !jsEval[bool](tb, `!!document.querySelector('#demo-form input[name=email]') && !document.querySelector('sg-island[data-hydrated]')`) {
			t.Error("with the loader failing the static form is missing or an island hydrated")
		}
		tb.checkNoErrors()
	})
}

func (rs *runtimeSuite) testPageResources(t *testing.T) {
	const page = "/en/grants/"
	tb := rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", page)
	tb.waitJS(`document.documentElement.dataset.sgResources === 'found'`, 10*time.Second, "the check of the page's resources")
	tb.checkNoErrors()

	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/grants/page-data.json"), status: 404})
	rs.load(tb, "", page)
	tb.waitJS(`document.documentElement.dataset.sgResources === 'missing'`, 10*time.Second, "the check of the page's missing resources")
	tb.waitErr("page resources for /en/grants/ not found", 5*time.Second)
	tb.dropErrors("page resources for /en/grants/ not found")
	// Its static HTML stays usable: the content is there and a link works.
	if h := jsEval[string](tb, `document.querySelector('main h1').textContent.trim()`); h == "" {
		t.Error("the page without page data lost its h1")
	}
	rs.clickTo(tb, "/en/events/", "", "")
	tb.waitJS(`location.pathname === '/en/events/' && document.querySelector('main h1')`, 10*time.Second, "a link on the page without page data")
	tb.checkNoErrors()
}
