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
