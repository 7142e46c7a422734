package sitetest

// Browser tests of the built website in headless Chromium (chromedp v0.23):
// every page type loads without console errors, islands hydrate per
// directive without a hydration mismatch, every island works when a user
// drives it, the site works with JavaScript disabled, and a page loads no
// island code it does not need.
//
// Chromium is found as `chromium` on PATH (Debian: /usr/bin/chromium). Without
// it the test is skipped, unless the environment variable CI is set (CI
// installs it), where a missing browser is a failure.
//
//	go test ./sitetest -run Browser -v

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"golang.org/x/net/html"

	"sitegen/pkg/forms"
	"sitegen/pkg/hosting"
	"sitegen/pkg/islands"
)

const (
	// demoEndpoint is forms.demo.endpoint of site.yaml.
	demoEndpoint = "/api/demo"
	// tabTimeout bounds everything one tab does: a whole subtest's steps,
	// not one wait. 30 s was the cause of the flakes on a loaded 2-core
	// machine (Form/nojs, Islands/JobsList): their dozen steps (typing,
	// clicks, a form post, page loads, Preact effects) took longer than
	// 30 s in all, so a wait late in the subtest ran out of the tab's
	// budget, not its own. A hung browser still fails within this bound.
	tabTimeout = 90 * time.Second
	// desktop and mobile viewport widths; MobileMenu hydrates at (max-width: 960px).
	desktopWidth = 1280
	mobileWidth  = 390
	viewHeight   = 800
	// maxTabs is the size of the pool of tabs, so how many subtests drive
	// the browser at a time.
	maxTabs = 3
)

// chromiumPath finds the browser, or skips (fails under CI) without one.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if st, err := os.Stat("/usr/bin/chromium"); err == nil && !st.IsDir() {
		return "/usr/bin/chromium"
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed; CI must install it (apt-get install chromium)")
	}
	t.Skip("chromium is not installed: skipping the browser tests")
	return ""
}

// demoPost is one request the test endpoint received.
type demoPost struct {
	Method      string
	ContentType string
	Accept      string
	Body        map[string]string
}

// browserSuite is the shared state of the browser tests: one server, one
// browser, a small pool of tabs (each in its own browser context) that the
// subtests borrow one at a time.
type browserSuite struct {
	out  string
	base string // http://127.0.0.1:port
	bctx context.Context

	tabs chan *tab // the idle tabs of the pool

	mu       sync.Mutex
	posts    []demoPost
	extra    map[string]http.Handler // test-only pages (the "none" directive)
	required map[string]string       // lang -> the DemoForm's "required" message

	formSchema *forms.Schema // the build's demo form schema (startForms)
	formStore  *forms.Store

	noneOnce sync.Once
	none     noneFixture
	noneErr  error
}

func TestBrowser(t *testing.T) {
	exe := chromiumPath(t)
	start := time.Now()
	s := &browserSuite{
		out:      site(t),
		extra:    map[string]http.Handler{},
		required: map[string]string{},
		tabs:     make(chan *tab, maxTabs),
	}
	s.startServer(t)
	s.startBrowser(t, exe)
	s.openTabs(t)
	t.Logf("site built, server and browser ready in %v", time.Since(start).Round(time.Millisecond))

	// The groups and their subtests run concurrently (t.Run from several
	// goroutines, so -parallel does not cap them); the pool of tabs bounds
	// how many drive the browser at a time.
	s.concurrently(t, []subtest{
		{"Pages", s.testPages},
		{"Directives", s.testDirectives},
		{"Islands", s.testIslands},
		{"NoJavaScript", s.testNoJavaScript},
		{"NoIslandCode", s.testNoIslandCode},
		{"Form", s.testForm},
		{"Images", s.testImages},
		{"IslandGeometry", s.testIslandGeometry},
		{"RotatingTextHeight", s.testRotatingTextHeight},
		{"LoadPriorities", s.testLoadPriorities},
		{"FirstVisitFonts", s.testFirstVisitFonts},
		{"PrefetchWhenIdle", s.testPrefetchWhenIdle},
		{"ContactFormFirst", s.testContactFormFirst},
		{"NoBrokenWords", s.testNoBrokenWords},
		{"PeopleRows", s.testPeopleRows},
		{"HeaderDrawings", s.testHeaderDrawings},
		{"Marketing", s.testMarketing},
	})
	t.Logf("browser suite took %v", time.Since(start).Round(time.Millisecond))
}

// busyBudget bounds a wait for what takes a page load or a few renders and
// effects: quick on a quiet machine, yet on a loaded 2-core CI machine
// (several builds beside the test, one browser driving up to maxTabs tabs)
// a no-JavaScript form post and its answer page, or Preact's effects (run
// in a timeout after the next frame), took over 10 s and 5 s. The wait ends
// as soon as the condition holds; only a real failure waits this long.
const busyBudget = 30 * time.Second

type subtest struct {
	name string
	fn   func(t *testing.T)
}

// concurrently runs the subtests at the same time and waits for them.
func (s *browserSuite) concurrently(t *testing.T, subs []subtest) {
	var wg sync.WaitGroup
	for _, st := range subs {
		wg.Go(func() { t.Run(st.name, st.fn) })
	}
	wg.Wait()
}

func (s *browserSuite) startServer(t *testing.T) {
	h, err := hosting.NewHandler(s.out, []string{"/pl", "/en"}, siteRep.RedirectTable, siteRep.HeaderRules)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	// The real demo-request handler (pkg/forms) on the schema the build
	// wrote, with a SQLite file; the suite also notes each post it receives.
	formsHandler := s.startForms(t)
	mux.HandleFunc(demoEndpoint, func(w http.ResponseWriter, r *http.Request) {
		p := demoPost{Method: r.Method, ContentType: r.Header.Get("Content-Type"), Accept: r.Header.Get("Accept")}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		if err := json.Unmarshal(b, &p.Body); err != nil {
			p.Body = map[string]string{"_raw": string(b)}
			if v, err := url.ParseQuery(string(b)); err == nil {
				p.Body = map[string]string{}
				for k := range v {
					p.Body[k] = v.Get(k)
				}
			}
		}
		s.mu.Lock()
		s.posts = append(s.posts, p)
		s.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		formsHandler.ServeHTTP(w, r)
	})
	mux.HandleFunc("/_test/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		var hh http.Handler
		for prefix, x := range s.extra {
			if strings.HasPrefix(r.URL.Path, prefix) {
				hh = x
			}
		}
		s.mu.Unlock()
		if hh == nil {
			http.NotFound(w, r)
			return
		}
		hh.ServeHTTP(w, r)
	})
	mux.Handle("/", h)
	srv := httptest.NewServer(mux) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	s.base = srv.URL
}

func (s *browserSuite) startBrowser(t *testing.T, exe string) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	// The first Do starts the browser and binds it to bctx, so it gets no
	// deadline of its own; a watchdog bounds the start instead.
	if err := within(30*time.Second, func() error { return chromedp.Do(bctx) }); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	s.bctx = bctx
}

// ---------------------------------------------------------------------------
// Tabs

// tab is one tab of the pool, each in its own browser context (its own
// localStorage), lent to one subtest at a time with what it observed.
type tab struct {
	s    *browserSuite
	base context.Context // the tab's own context, for the whole suite

	// Set for the subtest that holds the tab.
	t       *testing.T
	ctx     context.Context // base with the subtest's deadline
	release func()          // gives the tab back (also when the subtest ends)

	mu       sync.Mutex
	errs     []string // console.error calls and uncaught exceptions
	requests []string // request URLs, in order
	failed   []string // subresources that failed or answered >= 400
	urls     map[network.RequestID]string
	loads    map[network.RequestID]*loadRecord // type and (last) priority of each request
	loadedAt float64                           // the page's load event (protocol monotonic time), 0 before it

	netMethods []string // network emulation methods tried and their answers (emulate2G)
}

// loadRecord is one request's resource type and priority (the last one the
// browser gave it).
type loadRecord struct {
	url, typ, priority string
	sent               float64 // when the request was sent (protocol monotonic time, as loadedAt)
}

type tabOptions struct {
	width, height int64
	noScript      bool
	reducedMotion bool
	// consent is stored as the consent choice before the test, so the
	// (fixed) consent banner does not cover what the test clicks.
	consent string
}

// hydrationRecorder runs before any page script: it snapshots every island
// the moment the loader marks it data-hydrated (a MutationObserver callback,
// a microtask after mount: before any effect of the island runs), so the DOM
// the hydration render left can be compared with the server render. It also
// records, as they happen, every fetch the page makes and every sg:consent
// event, so a test can wait for them (or check they did not happen) without
// sleeping. And it notes every element removed from inside an island
// (removed: "Island TAG.class"), so a test can check that hydrating kept
// the server-rendered elements it should keep.
const hydrationRecorder = `(() => {
  const rec = { hydrated: [], fetches: [], consent: [], removed: [] };
  Object.defineProperty(window, '__sgTest', { value: rec });
  const fetch0 = window.fetch;
  window.fetch = function (input, init) {
    rec.fetches.push(String(input && input.url ? input.url : input));
    return fetch0.apply(this, arguments);
  };
  window.addEventListener('sg:consent', (e) => rec.consent.push(e.detail || {}));
  const seen = new WeakSet();
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target;
      if (seen.has(el) || !el.matches || !el.matches('sg-island[data-hydrated]')) continue;
      seen.add(el);
      rec.hydrated.push({
        island: el.getAttribute('data-island') || '',
        index: Array.prototype.indexOf.call(document.querySelectorAll('sg-island'), el),
        text: el.textContent,
        children: el.childElementCount,
      });
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] });
  new MutationObserver((records) => {
    for (const r of records) {
      const island = r.target.closest && r.target.closest('sg-island');
      if (!island) continue;
      for (const n of r.removedNodes) {
        if (n.nodeType === 1) rec.removed.push((island.getAttribute('data-island') || '') + ' ' + n.nodeName + '.' + (n.getAttribute('class') || ''));
      }
    }
  }).observe(document, { subtree: true, childList: true });
})();`

// openTabs fills the pool.
func (s *browserSuite) openTabs(t *testing.T) {
	for range maxTabs {
		tctx, cancel := chromedp.NewContext(s.bctx, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		tb := &tab{s: s, base: tctx}
		// The first Do opens the tab and binds it to its context, so it gets
		// no deadline; a watchdog bounds it instead.
		if err := within(30*time.Second, func() error {
			return chromedp.Do(tctx, cdpDo(cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: hydrationRecorder}))
		}); err != nil {
			t.Fatalf("opening a tab: %v", err)
		}
		if err := chromedp.Listen(tctx, tb.onEvent); err != nil {
			t.Fatal(err)
		}
		s.tabs <- tb
	}
}

// newTab lends a tab of the pool to t until t ends, with a deadline, a
// blank page, no stored data for the site, and the emulation asked for. A
// subtest holds one tab at a time (release the first before taking another).
func (s *browserSuite) newTab(t *testing.T, o tabOptions) *tab {
	t.Helper()
	if o.width == 0 {
		o.width = desktopWidth
	}
	if o.height == 0 {
		o.height = viewHeight
	}
	var tb *tab
	select {
	case tb = <-s.tabs:
	case <-time.After(2 * time.Minute):
		t.Fatal("no free tab within 2m")
	}
	ctx, cancel := context.WithTimeout(tb.base, tabTimeout)
	released := false
	release := func() {
		if !released {
			released = true
			cancel()
			s.tabs <- tb
		}
	}
	t.Cleanup(release)
	tb.mu.Lock()
	tb.t, tb.ctx, tb.release = t, ctx, release
	tb.errs, tb.requests, tb.failed, tb.urls, tb.loads, tb.loadedAt = nil, nil, nil, nil, nil, 0
	tb.mu.Unlock()
	reduce := ""
	if o.reducedMotion {
		reduce = "reduce"
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate("about:blank"),
		cdpDo(storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: s.base, StorageTypes: "all"}),
		chromedp.EmulateViewport(o.width, o.height),
		cdpDo(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: o.noScript}),
		cdpDo(emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: reduce}},
		}),
	)
	if err != nil {
		t.Fatalf("setting up the tab: %v", err)
	}
	if o.consent != "" {
		err := chromedp.Do(ctx,
			chromedp.Navigate(s.base+"/robots.txt"),
			chromedp.Evaluate[chromedp.Void](`localStorage.setItem('sg-consent', `+jsStr(o.consent)+`)`),
			chromedp.Navigate("about:blank"))
		if err != nil {
			t.Fatalf("storing the consent choice: %v", err)
		}
	}
	tb.mu.Lock()
	tb.errs, tb.requests, tb.failed, tb.urls, tb.loads, tb.loadedAt = nil, nil, nil, nil, nil, 0
	tb.mu.Unlock()
	return tb
}

// within runs f and gives up waiting for it after d.
func within(d time.Duration, f func() error) error {
	errc := make(chan error, 1)
	go func() { errc <- f() }()
	select {
	case err := <-errc:
		return err
	case <-time.After(d):
		return fmt.Errorf("no answer within %v", d)
	}
}

// cdpDo makes a protocol command an action.
func cdpDo[P, R any](cmd cdp.Command[P, R], params P) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cmd, params)
		return err
	})
}

// onEvent runs in the tab's message loop: record only, return fast.
func (tb *tab) onEvent(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range e.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, string(a.Value))
				}
			}
			tb.errs = append(tb.errs, "console."+string(e.Type)+": "+strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		tb.errs = append(tb.errs, fmt.Sprintf("uncaught exception at %s:%d:%d: %s", d.URL, d.LineNumber+1, d.ColumnNumber+1, msg))
	case *network.EventRequestWillBeSent:
		if e.Request != nil {
			tb.requests = append(tb.requests, e.Request.URL)
			if tb.urls == nil {
				tb.urls = map[network.RequestID]string{}
			}
			tb.urls[e.RequestID] = e.Request.URL
			if tb.loads == nil {
				tb.loads = map[network.RequestID]*loadRecord{}
			}
			tb.loads[e.RequestID] = &loadRecord{url: e.Request.URL, typ: string(e.Type), priority: string(e.Request.InitialPriority), sent: e.Timestamp.Float64()}
		}
	case *cdppage.EventLoadEventFired:
		// The first load after a request (about:blank makes none).
		if tb.loadedAt == 0 && len(tb.loads) > 0 {
			tb.loadedAt = e.Timestamp.Float64()
		}
	case *network.EventResourceChangedPriority:
		if l := tb.loads[e.RequestID]; l != nil {
			l.priority = string(e.NewPriority)
		}
	case *network.EventResponseReceived:
		if e.Response != nil && e.Response.Status >= 400 && e.Type != network.ResourceTypeDocument {
			tb.failed = append(tb.failed, fmt.Sprintf("%s: HTTP %d", e.Response.URL, e.Response.Status))
		}
	case *network.EventLoadingFailed:
		if !e.Canceled && e.Type != network.ResourceTypeDocument {
			tb.failed = append(tb.failed, fmt.Sprintf("%s failed: %s", tb.urls[e.RequestID], e.ErrorText))
		}
	}
}

// navigate loads a site path and checks the document's HTTP status.
func (tb *tab) navigate(p string, wantStatus int64) {
	tb.t.Helper()
	resp, err := chromedp.Run(tb.ctx, chromedp.NavigateResponse(tb.s.base+p))
	if err != nil {
		tb.t.Fatalf("navigating to %s: %v", p, err)
	}
	if resp == nil {
		tb.t.Fatalf("navigating to %s: no response", p)
	}
	if resp.Status != wantStatus {
		tb.t.Fatalf("%s answered %d, want %d", p, resp.Status, wantStatus)
	}
}

// isVisibleJS is what the expressions given to jsEval and poll call as
// isVisible(el): the element is rendered, has a size and is neither
// visibility:hidden nor transparent (it works with scripts disabled too,
// where the page could not define it).
const isVisibleJS = `((e) => !!e && e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0 &&
  e.getBoundingClientRect().height > 0 && e.checkVisibility({ opacityProperty: true, visibilityProperty: true }))`

func withHelpers(expr string) string {
	return strings.ReplaceAll(expr, "isVisible(", isVisibleJS+"(")
}

// jsEval evaluates JavaScript (awaiting a promise) and decodes the result.
func jsEval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](withHelpers(expr), chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", brShort(expr), err)
	}
	return v
}

// waitJS waits until the expression is truthy, at most d.
func (tb *tab) waitJS(expr string, d time.Duration, what string, args ...any) {
	tb.t.Helper()
	if err := tb.poll(expr, d); err != nil {
		tb.t.Fatalf("waiting %v for %s: %v", d, fmt.Sprintf(what, args...), err)
	}
}

// poll evaluates the expression every 25ms until it is truthy or d has
// passed. Errors (a navigation replacing the page) count as not yet.
func (tb *tab) poll(expr string, d time.Duration) error {
	deadline := time.Now().Add(d)
	var last error
	for {
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool]("!!("+withHelpers(expr)+")"))
		if err == nil && ok {
			return nil
		}
		if err != nil {
			last = err
		}
		if tb.ctx.Err() != nil {
			return tb.ctx.Err()
		}
		if time.Now().After(deadline) {
			if last != nil {
				return fmt.Errorf("timeout (last error: %w)", last)
			}
			return errors.New("timeout")
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// afterEffects is a promise that resolves once the page has rendered two
// more frames and run the timers queued before them. Preact runs effects in a
// timeout queued at the frame after a render, so by then every effect of what
// has rendered so far has run (and logged, and re-rendered).
const afterEffects = `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() =>
  setTimeout(() => setTimeout(() => resolve(true))))))`

// afterEffects waits until the effects of everything rendered so far ran.
func (tb *tab) afterEffects() {
	tb.t.Helper()
	jsEval[bool](tb, afterEffects)
}

// stays reads the expression once pending effects have run, lets the page's
// own clock run d, and reads it again. The wait is a timer of the page,
// queued after the page's own timers: any timer of the page due within d
// (an interval that should have been cleared) fires, and its re-render and
// effects run, before the second read. No wall-clock race: on a slow machine
// the page's timers are late too, but still in order.
func (tb *tab) stays(expr string, d time.Duration) (before, after string) {
	tb.t.Helper()
	r := jsEval[[]string](tb, fmt.Sprintf(`(async () => {
  await %[1]s;
  const before = String(%[2]s);
  await new Promise((resolve) => setTimeout(resolve, %[3]d));
  await %[1]s;
  return [before, String(%[2]s)];
})()`, afterEffects, expr, d.Milliseconds()))
	return r[0], r[1]
}

// settleScroll resolves once the page has not scrolled for three frames (the
// site scrolls smoothly, so focus() and history navigation scroll in steps),
// or after 2s.
const settleScroll = `new Promise((resolve) => {
  let at = scrollX + ',' + scrollY, same = 0;
  const end = performance.now() + 2000;
  const tick = () => {
    const now = scrollX + ',' + scrollY;
    same = now === at ? same + 1 : 0;
    at = now;
    if (same >= 3 || performance.now() > end) resolve(true); else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`

// click clicks the center of the element with the mouse, as a user does,
// once it is scrolled into view and the page has stopped scrolling.
func (tb *tab) click(sel string) {
	tb.t.Helper()
	// An island may render again between the query and the click (the node
	// is then gone: "Could not find node with given id"): query again, a
	// bounded number of times.
	var err error
	for range 3 {
		err = chromedp.Do(tb.ctx, chromedp.ScrollIntoView(chromedp.CSS(sel)))
		if err == nil {
			jsEval[bool](tb, settleScroll)
			if err = chromedp.Do(tb.ctx, chromedp.Click(chromedp.CSS(sel))); err == nil {
				return
			}
		}
		if !strings.Contains(err.Error(), "Could not find node") {
			break
		}
	}
	tb.t.Fatalf("click %s: %v", sel, err)
}

func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		tb.t.Fatal(err)
	}
}

// checkNoErrors fails on any console error or uncaught exception so far.
func (tb *tab) checkNoErrors() {
	tb.t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, e := range tb.errs {
		tb.t.Errorf("browser error: %s", e)
	}
}

func (tb *tab) requested() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.requests...)
}

// scripts are the JavaScript URLs (site paths) the tab requested.
func (tb *tab) scripts() []string {
	var js []string
	for _, u := range tb.requested() {
		if pu, err := url.Parse(u); err == nil && strings.HasSuffix(pu.Path, ".js") {
			js = append(js, pu.Path)
		}
	}
	return js
}

func brShort(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// ---------------------------------------------------------------------------
// Server-rendered pages, read in Go

type ssrIsland struct {
	Name, Directive, Chunk, Media string
	Text                          string
	Children                      int
	Props                         json.RawMessage
}

type ssrPage struct {
	Islands  []ssrIsland
	Preloads []string // modulepreload hrefs
	Scripts  []string // script src
}

func (p *ssrPage) find(name string) (ssrIsland, bool) {
	for _, is := range p.Islands {
		if is.Name == name {
			return is, true
		}
	}
	return ssrIsland{}, false
}

func (p *ssrPage) island(t *testing.T, name string) ssrIsland {
	t.Helper()
	is, ok := p.find(name)
	if !ok {
		t.Fatalf("the page has no %s island", name)
	}
	return is
}

// fetchSSR gets a page from the test server (the bytes the browser gets) and
// reads its islands.
func (s *browserSuite) fetchSSR(t *testing.T, p string) *ssrPage {
	t.Helper()
	sp, err := s.readPage(p)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func (s *browserSuite) readPage(p string) (*ssrPage, error) {
	resp, err := http.Get(s.base + p)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	doc, err := html.Parse(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", p, err)
	}
	return readSSR(doc), nil
}

func readSSR(doc *html.Node) *ssrPage {
	sp := &ssrPage{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "sg-island":
				is := ssrIsland{Name: brAttr(n, "data-island"), Directive: brAttr(n, "data-directive"),
					Chunk: brAttr(n, "data-chunk"), Media: brAttr(n, "data-media"), Text: brText(n)}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode {
						is.Children++
					}
				}
				if sib := brNextElement(n); sib != nil && sib.Data == "script" && brHasAttr(sib, "data-sg-props") {
					is.Props = json.RawMessage(brText(sib))
				}
				sp.Islands = append(sp.Islands, is)
			case "link":
				if brAttr(n, "rel") == "modulepreload" {
					sp.Preloads = append(sp.Preloads, brAttr(n, "href"))
				}
			case "script":
				if src := brAttr(n, "src"); src != "" {
					sp.Scripts = append(sp.Scripts, src)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return sp
}

func brAttr(n *html.Node, key string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func brHasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func brNextElement(n *html.Node) *html.Node {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

func brText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func decodeProps[T any](t *testing.T, is ssrIsland) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(is.Props, &v); err != nil {
		t.Fatalf("props of %s: %v", is.Name, err)
	}
	return v
}

// firstPost returns the path of the first post under a listing directory of
// the output (e.g. pl/devblog), so the test follows the content.
func brFirstPost(t *testing.T, out, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(out, filepath.FromSlash(dir)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(dir), e.Name(), "index.html")); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	if len(names) == 0 {
		t.Fatalf("no post under /%s/", dir)
	}
	sort.Strings(names)
	return "/" + dir + "/" + names[0] + "/"
}

// ---------------------------------------------------------------------------
// 1. Every page type, both languages: no console error, no uncaught
// exception, no failed subresource, no hydration mismatch, no duplicated
// island; only the page's own island code is requested.

type browserPage struct {
	name   string
	path   string
	status int64
}

func (s *browserSuite) pageList(t *testing.T) []browserPage {
	return []browserPage{
		{"pl/home", "/pl/", 200},
		{"en/home", "/en/", 200},
		{"pl/solution", "/pl/rozwiazania/sprzedaz/", 200},
		{"en/solution", "/en/solutions/sales/", 200},
		{"pl/technology", "/pl/technologie/platforma/", 200},
		{"en/technology", "/en/technology/platform/", 200},
		{"pl/product", "/pl/produkty/hirebot/", 200},
		{"en/product", "/en/products/hirebot/", 200},
		{"pl/pricing", "/pl/hirebot/", 200},
		{"en/pricing", "/en/hirebot/", 200},
		{"pl/contact", "/pl/o-nas/kontakt/", 200},
		{"en/contact", "/en/about-us/contact/", 200},
		{"pl/jobs", "/pl/o-nas/praca/", 200},
		{"en/jobs", "/en/about-us/jobs/", 200},
		{"pl/team", "/pl/o-nas/zespol/", 200},
		{"en/team", "/en/about-us/team/", 200},
		{"pl/investors", "/pl/dla-inwestorow/informacje-ogolne/", 200},
		{"en/investors", "/en/for-investors/investors/", 200},
		{"pl/wza", "/pl/dla-inwestorow/wza/", 200},
		{"en/wza", "/en/for-investors/wza/", 200},
		{"pl/reports", "/pl/dla-inwestorow/raporty/", 200},
		{"en/reports", "/en/for-investors/raports/", 200},
		{"pl/blog", "/pl/blog/", 200},
		{"en/blog", "/en/blog/", 200},
		{"pl/devblog-post", brFirstPost(t, s.out, "pl/devblog"), 200},
		{"en/devblog-post", brFirstPost(t, s.out, "en/devblog"), 200},
		{"pl/thanks", "/pl/podziekowanie/", 200},
		{"en/thanks", "/en/thanks/", 200},
		{"pl/404", "/pl/nie-ma-takiej-strony/", 404},
		{"en/404", "/en/no-such-page/", 404},
	}
}

type hydrationSnap struct {
	Island   string `json:"island"`
	Index    int    `json:"index"`
	Text     string `json:"text"`
	Children int    `json:"children"`
}

type islandState struct {
	Island   string `json:"island"`
	Hydrated bool   `json:"hydrated"`
	Children int    `json:"children"`
	Matches  bool   `json:"matches"` // false for a media island whose query does not match
}

type pageState struct {
	Hydrated []hydrationSnap `json:"hydrated"`
	Islands  []islandState   `json:"islands"`
	DupIDs   []string        `json:"dupIds"`
}

// hydrateAll scrolls every not yet hydrated "visible" island into view, one
// by one, and waits (bounded) for it; it returns the ones that did not.
const hydrateAll = `(async () => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const missing = [];
  for (const el of document.querySelectorAll('sg-island[data-chunk][data-directive="visible"]')) {
    if (el.hasAttribute('data-hydrated')) continue;
    (el.firstElementChild || el).scrollIntoView({ block: 'center' });
    for (let i = 0; i < 80 && !el.hasAttribute('data-hydrated'); i++) await sleep(25);
    if (!el.hasAttribute('data-hydrated')) missing.push(el.getAttribute('data-island'));
  }
  window.scrollTo(0, 0);
  return missing;
})()`

// eagerHydrated is true once every island that hydrates without scrolling
// (load, idle, a matching media query) has.
const eagerHydrated = `[...document.querySelectorAll('sg-island[data-chunk]')].every((el) =>
  el.hasAttribute('data-hydrated') || el.dataset.directive === 'visible' ||
  (el.dataset.directive === 'media' && !matchMedia(el.dataset.media || 'all').matches))`

const readPageState = `(() => {
  const seen = new Set(), dup = [];
  for (const el of document.querySelectorAll('[id]')) { if (seen.has(el.id)) dup.push(el.id); seen.add(el.id); }
  return {
    hydrated: window.__sgTest ? window.__sgTest.hydrated : [],
    islands: [...document.querySelectorAll('sg-island')].map((el) => ({
      island: el.getAttribute('data-island') || '', hydrated: el.hasAttribute('data-hydrated'), children: el.childElementCount,
      matches: el.dataset.directive !== 'media' || matchMedia(el.dataset.media || 'all').matches })),
    dupIds: dup,
  };
})()`

func (s *browserSuite) testPages(t *testing.T) {
	var subs []subtest
	for _, bp := range s.pageList(t) {
		subs = append(subs, subtest{bp.name, func(t *testing.T) {
			ssr := s.fetchSSR(t, bp.path)
			// Mobile width: MobileMenu (media) hydrates too, so every island
			// of the page is exercised.
			tb := s.newTab(t, tabOptions{width: mobileWidth})
			tb.navigate(bp.path, bp.status)
			tb.waitJS(eagerHydrated, 6*time.Second, "the load/idle/media islands of %s to hydrate", bp.path)
			if missing := jsEval[[]string](tb, hydrateAll); len(missing) > 0 {
				t.Errorf("visible islands not hydrated after scrolling them into view: %v", missing)
			}
			tb.afterEffects() // effects, and anything they log
			st := jsEval[pageState](tb, readPageState)
			checkHydration(t, ssr, st)
			tb.checkNoErrors()
			tb.mu.Lock()
			for _, f := range tb.failed {
				t.Errorf("subresource: %s", f)
			}
			tb.mu.Unlock()
			// Island code: the loader, the chunks the page preloads (islands
			// that hydrate at once), the entry chunks of its own islands
			// (visible and media ones load theirs when they hydrate) and the
			// shared chunks those import; never another island's code.
			allowed := map[string]bool{}
			prefix := ""
			for _, u := range append(append([]string{}, ssr.Preloads...), ssr.Scripts...) {
				allowed[u] = true
				if i := strings.LastIndex(u, "/"); strings.Contains(u, "/islands/") {
					prefix = u[:i+1]
				}
			}
			for _, is := range ssr.Islands {
				if is.Chunk != "" {
					allowed[prefix+is.Chunk] = true
				}
			}
			for _, js := range tb.scripts() {
				shared := prefix != "" && strings.HasPrefix(js, prefix+"chunk-")
				if !allowed[js] && !shared {
					t.Errorf("requested %s, which is not the code of this page's islands %v", js, allowed)
				}
			}
		}})
	}
	s.concurrently(t, subs)
}

// checkHydration compares what the browser shows after hydration with the
// server render: each island hydrated once, its hydration render has exactly
// the server-rendered text and element count (no mismatch), and nothing was
// duplicated.
func checkHydration(t *testing.T, ssr *ssrPage, st pageState) {
	t.Helper()
	if len(st.Islands) != len(ssr.Islands) {
		t.Errorf("%d islands in the browser, %d server-rendered", len(st.Islands), len(ssr.Islands))
	}
	for i, is := range ssr.Islands {
		if i >= len(st.Islands) {
			break
		}
		b := st.Islands[i]
		if b.Island != is.Name {
			t.Errorf("island %d is %s in the browser, %s server-rendered", i, b.Island, is.Name)
		}
		if b.Children != is.Children {
			t.Errorf("island %s has %d root elements after hydration, %d server-rendered (duplicated markup?)", is.Name, b.Children, is.Children)
		}
		if is.Chunk == "" && b.Hydrated {
			t.Errorf("island %s has no chunk but was hydrated", is.Name)
		}
		if is.Chunk != "" && !b.Hydrated && b.Matches {
			t.Errorf("island %s (%s) was not hydrated", is.Name, is.Directive)
		}
	}
	count := map[int]int{}
	for _, h := range st.Hydrated {
		count[h.Index]++
		if count[h.Index] > 1 {
			t.Errorf("island %s (#%d) was hydrated %d times", h.Island, h.Index, count[h.Index])
			continue
		}
		if h.Index < 0 || h.Index >= len(ssr.Islands) {
			t.Errorf("hydrated island %s at index %d: no such server-rendered island", h.Island, h.Index)
			continue
		}
		is := ssr.Islands[h.Index]
		if h.Island != is.Name {
			t.Errorf("hydrated island #%d is %s, server-rendered %s", h.Index, h.Island, is.Name)
			continue
		}
		if h.Text != is.Text {
			t.Errorf("hydration mismatch in %s: text after hydration differs from the server render\n%s", is.Name, brDiffText(is.Text, h.Text))
		}
		if h.Children != is.Children {
			t.Errorf("hydration mismatch in %s: %d root elements after hydration, %d server-rendered", is.Name, h.Children, is.Children)
		}
	}
	if len(st.DupIDs) > 0 {
		t.Errorf("duplicate element ids after hydration: %v", st.DupIDs)
	}
}

// diffText shows where two texts start to differ.
func brDiffText(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-40)
	cut := func(s string) string {
		end := min(len(s), i+60)
		return strings.ToValidUTF8(s[from:end], "")
	}
	return fmt.Sprintf("  server: …%q…\n  client: …%q…", cut(want), cut(got))
}

// ---------------------------------------------------------------------------
// 2. Hydration per directive

func (s *browserSuite) testDirectives(t *testing.T) {
	var subs []subtest
	// load: ReportTabs hydrates right after load, with no scrolling, even
	// out of view (a short viewport puts it far below the fold).
	subs = append(subs, subtest{"load", func(t *testing.T) {
		tb := s.newTab(t, tabOptions{height: 300})
		tb.navigate("/pl/dla-inwestorow/raporty/", 200)
		if !jsEval[bool](tb, `document.querySelector('sg-island[data-island="ReportTabs"]').firstElementChild.getBoundingClientRect().top > innerHeight + 400`) {
			t.Fatal("precondition: ReportTabs is not far below the fold of /pl/dla-inwestorow/raporty/ at 1280x300")
		}
		tb.waitJS(`document.querySelector('sg-island[data-island="ReportTabs"][data-hydrated]')`, 3*time.Second, "ReportTabs (load) to hydrate")
		if y := jsEval[float64](tb, `window.scrollY`); y != 0 {
			t.Errorf("the page scrolled to %v", y)
		}
		tb.waitJS(`document.querySelector('.report-tabs--enhanced [role=tab]')`, 3*time.Second, "ReportTabs to render its tabs")
		tb.checkNoErrors()
	}})

	// visible: RotatingText, far below the fold of the contact page,
	// hydrates only once scrolled into view, while DemoForm (visible too),
	// in view at the top, hydrates at once. The observable marker is the
	// loader's data-hydrated.
	subs = append(subs, subtest{"visible", func(t *testing.T) {
		tb := s.newTab(t, tabOptions{})
		tb.navigate("/pl/o-nas/kontakt/", 200)
		rot := `sg-island[data-island="RotatingText"]`
		if !jsEval[bool](tb, `document.querySelector('.rotating-text').getBoundingClientRect().top > innerHeight + 400`) {
			t.Fatal("precondition: RotatingText is not far below the fold of /pl/o-nas/kontakt/ at 1280x800")
		}
		// DemoForm in view hydrates; by then the loader has also told
		// RotatingText's observer it is out of view.
		tb.waitJS(`document.querySelector('sg-island[data-island="DemoForm"][data-hydrated]')`, 10*time.Second, "DemoForm (visible, in view) to hydrate")
		tb.waitJS(`document.querySelector('`+rot+`[data-sg-waiting="visible"]') || document.querySelector('`+rot+`[data-hydrated]')`, 10*time.Second, "the loader to see RotatingText out of view")
		tb.waitJS(`document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]')`, 10*time.Second, "ConsentBanner (idle) to hydrate")
		tb.afterEffects()
		if jsEval[bool](tb, `document.querySelector('`+rot+`').hasAttribute('data-hydrated')`) {
			t.Fatal("RotatingText (visible) hydrated before it was scrolled into view")
		}
		tb.do(chromedp.ScrollIntoView(chromedp.CSS(".rotating-text")))
		tb.waitJS(`document.querySelector('`+rot+`[data-hydrated]')`, 10*time.Second, "RotatingText to hydrate once scrolled into view")
		tb.checkNoErrors()
	}})

	// media=(max-width: 960px): MobileMenu hydrates at 390 px, not at 1280 px
	// (until the viewport narrows).
	subs = append(subs, subtest{"media", func(t *testing.T) {
		menu := `sg-island[data-island="MobileMenu"]`
		mobile := s.newTab(t, tabOptions{width: mobileWidth})
		mobile.navigate("/pl/", 200)
		mobile.waitJS(`document.querySelector('`+menu+`[data-hydrated]')`, 3*time.Second, "MobileMenu to hydrate at 390px")
		mobile.waitJS(`document.querySelector('.mobile-menu__toggle').getAttribute('aria-expanded') === 'false'`, 2*time.Second, "MobileMenu to enhance at 390px (aria-expanded)")
		mobile.checkNoErrors()
		mobile.release()

		desk := s.newTab(t, tabOptions{width: desktopWidth})
		desk.navigate("/pl/", 200)
		// The moment a wrong loader would hydrate it: the loader has
		// evaluated the media query (data-sg-waiting="media") and the eager
		// islands have hydrated.
		desk.waitJS(`document.querySelector('`+menu+`[data-sg-waiting="media"]') || document.querySelector('`+menu+`[data-hydrated]')`, 4*time.Second, "the loader to evaluate MobileMenu's media query at 1280px")
		desk.waitJS(`document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]')`, 4*time.Second, "ConsentBanner (idle) to hydrate")
		desk.afterEffects()
		if jsEval[bool](desk, `document.querySelector('`+menu+`').hasAttribute('data-hydrated') || document.querySelector('.mobile-menu__toggle').hasAttribute('aria-expanded')`) {
			t.Error("MobileMenu hydrated at 1280px")
		}
		desk.do(chromedp.EmulateViewport(mobileWidth, viewHeight))
		desk.waitJS(`document.querySelector('`+menu+`[data-hydrated]')`, 3*time.Second, "MobileMenu to hydrate once the viewport narrows to 390px")
		desk.checkNoErrors()
	}})

	// idle: ConsentBanner hydrates and shows itself when no choice is stored.
	subs = append(subs, subtest{"idle", func(t *testing.T) {
		tb := s.newTab(t, tabOptions{})
		tb.navigate("/en/", 200)
		if jsEval[bool](tb, `localStorage.getItem('sg-consent') !== null`) {
			t.Fatal("precondition: a consent choice is stored in a fresh browser context")
		}
		tb.waitJS(`document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]')`, 4*time.Second, "ConsentBanner (idle) to hydrate")
		tb.waitJS(`(() => { const b = document.querySelector('.consent-banner'); return !b.hidden && isVisible(b); })()`,
			2*time.Second, "the consent banner to show")
		tb.checkNoErrors()
	}})

	// none: an island rendered with "none" has no chunk, no props and loads
	// no code (no island of the website uses it, so the website's islands
	// are rendered on a test page).
	subs = append(subs, subtest{"none", func(t *testing.T) {
		s.testNone(t)
	}})
	s.concurrently(t, subs)
}

// noneFixture renders the website's DemoForm with "none" (and, on the mixed
// page, its ConsentBanner with "load") through pkg/islands, as the build does.
type noneFixture struct {
	demoChunk string // the chunk DemoForm would load if it were hydrated
}

func (s *browserSuite) noneFixture(t *testing.T) noneFixture {
	t.Helper()
	s.noneOnce.Do(func() {
		contact, err := s.readPage("/pl/o-nas/kontakt/")
		if err != nil {
			s.noneErr = err
			return
		}
		demo, ok1 := contact.find("DemoForm")
		consent, ok2 := contact.find("ConsentBanner")
		if !ok1 || !ok2 {
			s.noneErr = errors.New("the contact page lacks its DemoForm or ConsentBanner island")
			return
		}
		ctx := context.Background()
		b, err := islands.Build(ctx, islands.Options{Root: "..", PublicPrefix: "/_test/none/islands/", Minify: true, Workers: 1})
		if err != nil {
			s.noneErr = err
			return
		}
		defer b.Close()
		render := func(name string, props json.RawMessage, directive string) (string, bool) {
			h, hyd, err := b.Render(ctx, name, props, directive, "")
			if err != nil && s.noneErr == nil {
				s.noneErr = fmt.Errorf("rendering %s (%s): %w", name, directive, err)
			}
			return h, hyd
		}
		demoNone, hyd := render("DemoForm", demo.Props, "none")
		if hyd {
			s.noneErr = errors.New(`Render("DemoForm", "none") reports the island as hydrated`)
		}
		demoLoad, _ := render("DemoForm", demo.Props, "load")
		consentLoad, _ := render("ConsentBanner", consent.Props, "load")
		if s.noneErr != nil {
			return
		}
		if doc, err := html.Parse(strings.NewReader(demoLoad)); err == nil {
			if is := readSSR(doc).Islands; len(is) == 1 {
				s.none.demoChunk = "/_test/none/islands/" + is[0].Chunk
			}
		}
		pageHTML := func(hydrated []string, body string) string {
			var head strings.Builder
			for _, u := range b.ModulePreloads(hydrated) {
				fmt.Fprintf(&head, `<link rel="modulepreload" href="%s">`, u)
			}
			for _, u := range b.Scripts(hydrated) {
				fmt.Fprintf(&head, `<script type="module" src="%s"></script>`, u)
			}
			return `<!doctype html><html lang="pl"><head><meta charset="utf-8"><title>none</title>` + head.String() +
				`</head><body><main>` + body + `</main></body></html>`
		}
		pages := map[string]string{
			"/_test/none/only/":  pageHTML(nil, demoNone),
			"/_test/none/mixed/": pageHTML([]string{"ConsentBanner"}, demoNone+consentLoad),
		}
		files := b.ClientFiles()
		s.mu.Lock()
		s.extra["/_test/none/"] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if p, ok := pages[r.URL.Path]; ok {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write([]byte(p))
				return
			}
			if data, ok := files[strings.TrimPrefix(r.URL.Path, "/")]; ok {
				w.Header().Set("Content-Type", "text/javascript")
				w.Write(data)
				return
			}
			http.NotFound(w, r)
		})
		s.mu.Unlock()
	})
	if s.noneErr != nil {
		t.Fatal(s.noneErr)
	}
	return s.none
}

func (s *browserSuite) testNone(t *testing.T) {
	fix := s.noneFixture(t)
	if fix.demoChunk == "" {
		t.Fatal("DemoForm rendered with load has no data-chunk")
	}
	// The none DemoForm next to a load ConsentBanner: the loader runs, yet
	// the none island has no chunk or props, is never hydrated and its code
	// is never requested. (A page with only a none island: NoIslandCode.)
	demo := `document.querySelector('sg-island[data-island="DemoForm"]')`
	tb := s.newTab(t, tabOptions{})
	tb.navigate("/_test/none/mixed/", 200)
	if got := jsEval[string](tb, demo+`.outerHTML.slice(0, 200)`); strings.Contains(got, "data-chunk") {
		t.Errorf("a none island has a data-chunk: %s", got)
	}
	if jsEval[bool](tb, demo+`.nextElementSibling !== null && `+demo+`.nextElementSibling.matches('script[data-sg-props]')`) {
		t.Error("a none island has a props script")
	}
	tb.waitJS(`window.__sgIslandScans >= 1 && document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]')`, 3*time.Second, "the loader to scan the page and the load island next to the none island to hydrate")
	tb.afterEffects()
	if jsEval[bool](tb, demo+`.hasAttribute('data-hydrated') || document.getElementById('demo-form').noValidate`) {
		t.Error("the none DemoForm was hydrated next to a load island")
	}
	for _, js := range tb.scripts() {
		if js == fix.demoChunk {
			t.Errorf("the none DemoForm's chunk %s was requested", js)
		}
	}
	tb.checkNoErrors()
}

// ---------------------------------------------------------------------------
// 3. Driving every island

func (s *browserSuite) testIslands(t *testing.T) {
	s.concurrently(t, []subtest{
		{"ReportTabs", s.testReportTabs},
		{"ReportTabs/link-to-report", s.testReportLink},
		{"RotatingText", func(t *testing.T) { s.testRotatingText(t, false) }},
		{"RotatingText/reduced-motion", func(t *testing.T) { s.testRotatingText(t, true) }},
		{"DemoForm/pl", func(t *testing.T) { s.testDemoForm(t, "/pl/o-nas/kontakt/", "pl") }},
		{"DemoForm/en", func(t *testing.T) { s.testDemoForm(t, "/en/about-us/contact/", "en") }},
		{"JobsList", s.testJobsList},
		{"MobileMenu", s.testMobileMenu},
		{"ConsentBanner/accept", func(t *testing.T) { s.testConsentBanner(t, "/pl/", ".consent-banner__button--accept", "accept") }},
		{"ConsentBanner/reject", func(t *testing.T) { s.testConsentBanner(t, "/en/", ".consent-banner__button--reject", "reject") }},
	})
}

type tabState struct {
	Tabs     []string `json:"tabs"`     // tab ids in order
	Selected []string `json:"selected"` // aria-selected per tab
	Visible  []bool   `json:"visible"`  // panel shown per tab
	Hidden   []bool   `json:"hidden"`   // panel.hidden per tab
	Focus    string   `json:"focus"`
	Hash     string   `json:"hash"`
}

const readTabs = `(() => {
  const tabs = [...document.querySelectorAll('.report-tabs [role=tab]')];
  const panels = tabs.map((b) => document.getElementById(b.getAttribute('aria-controls')));
  return {
    tabs: tabs.map((b) => b.id),
    selected: tabs.map((b) => b.getAttribute('aria-selected')),
    visible: panels.map((p) => isVisible(p)),
    hidden: panels.map((p) => !p || p.hidden),
    focus: document.activeElement ? document.activeElement.id : '',
    hash: location.hash,
  };
})()`

func (s *browserSuite) testReportTabs(t *testing.T) {
	const p = "/pl/dla-inwestorow/raporty/"
	ssr := s.fetchSSR(t, p)
	props := decodeProps[struct {
		Tabs []struct{ ID, Label string } `json:"tabs"`
	}](t, ssr.island(t, "ReportTabs"))
	if len(props.Tabs) < 2 {
		t.Fatalf("precondition: %s has %d report tabs, need 2", p, len(props.Tabs))
	}
	tb := s.newTab(t, tabOptions{consent: "accept"})
	tb.navigate(p, 200)
	tb.waitJS(`document.querySelectorAll('.report-tabs [role=tab]').length > 0`, 4*time.Second, "the report tabs")
	// Hydrating swaps each tab's link for a button and keeps every other
	// element: the list and the panels stay the server's nodes. (A list of
	// another element type once made the diff reuse the panels' <div> as
	// the list and parse the panels again: a 0.02-0.08 layout shift at
	// 390 px whenever hydration landed in view.)
	for _, r := range jsEval[[]string](tb, `window.__sgTest.removed`) {
		if r != "ReportTabs A.report-tabs__tab" {
			t.Errorf("hydrating ReportTabs removed a server-rendered element other than a tab link: %s", r)
		}
	}
	st := jsEval[tabState](tb, readTabs)
	if len(st.Tabs) != len(props.Tabs) {
		t.Fatalf("%d tabs, want %d", len(st.Tabs), len(props.Tabs))
	}
	expect := func(sel int, focus string, what string) {
		t.Helper()
		err := tb.poll(fmt.Sprintf(`(() => { const s = %s; return s.selected[%d] === 'true' && !s.hidden[%d] && s.visible[%d]; })()`, readTabs, sel, sel, sel), 2*time.Second)
		st := jsEval[tabState](tb, readTabs)
		if err != nil {
			t.Errorf("%s: tab %d not selected/shown: %+v", what, sel, st)
			return
		}
		for i := range st.Tabs {
			on := i == sel
			if (st.Selected[i] == "true") != on {
				t.Errorf("%s: tab %d aria-selected=%q", what, i, st.Selected[i])
			}
			if st.Visible[i] != on || st.Hidden[i] == on {
				t.Errorf("%s: panel %d visible=%v hidden=%v, want visible=%v", what, i, st.Visible[i], st.Hidden[i], on)
			}
		}
		if focus != "" && st.Focus != focus {
			t.Errorf("%s: focus on %q, want %q", what, st.Focus, focus)
		}
	}
	expect(0, "", "initially")
	tb.click(".report-tabs__item:nth-child(2) [role=tab]")
	expect(1, "", "after clicking the second tab")
	if h := jsEval[string](tb, `location.hash`); h != "#"+props.Tabs[1].ID {
		t.Errorf("after clicking the second tab the hash is %q, want #%s", h, props.Tabs[1].ID)
	}
	// Keyboard: the clicked tab has focus; arrows move focus and selection.
	tb.do(chromedp.Focus(chromedp.CSS(".report-tabs__item:nth-child(2) [role=tab]")))
	tb.do(chromedp.KeyEvent(kb.ArrowLeft))
	expect(0, st.Tabs[0], "after ArrowLeft")
	tb.do(chromedp.KeyEvent(kb.ArrowRight))
	expect(1, st.Tabs[1], "after ArrowRight")
	tb.do(chromedp.KeyEvent(kb.Home))
	expect(0, st.Tabs[0], "after Home")
	tb.do(chromedp.KeyEvent(kb.End))
	expect(len(st.Tabs)-1, st.Tabs[len(st.Tabs)-1], "after End")
	tb.checkNoErrors()
}

// testReportLink follows a link to one report (its id is in the URL hash)
// that sits in the second tab's panel: without JavaScript the browser shows
// it; hydrated, its tab must be selected so that it stays visible.
func (s *browserSuite) testReportLink(t *testing.T) {
	const p = "/pl/dla-inwestorow/raporty/"
	ssr := s.fetchSSR(t, p)
	props := decodeProps[struct {
		Tabs []struct{ ID string } `json:"tabs"`
	}](t, ssr.island(t, "ReportTabs"))
	if len(props.Tabs) < 2 {
		t.Fatalf("precondition: %s has %d report tabs, need 2", p, len(props.Tabs))
	}
	tb := s.newTab(t, tabOptions{consent: "accept"})
	tb.navigate(p, 200)
	item := jsEval[string](tb, `(document.querySelector('[id="`+props.Tabs[1].ID+`"] .report-item[id]') || {}).id || ''`)
	if item == "" {
		t.Fatalf("precondition: no report with an id in the panel %s", props.Tabs[1].ID)
	}
	tb.do(chromedp.Navigate("about:blank"))
	// The page's status was checked above; this load is waited for, not its
	// response: chromedp's NavigateResponse once found none for it (a
	// fresh clone's CI of 34a2a89: "no response") where the page loaded.
	tb.do(chromedp.Navigate(s.base + p + "#" + url.PathEscape(item)))
	tb.waitJS(`document.querySelector('.report-tabs--enhanced [role=tab]')`, 4*time.Second, "ReportTabs to hydrate")
	shown := `isVisible(document.getElementById(` + jsStr(item) + `)) &&
	  document.getElementById(` + jsStr(props.Tabs[1].ID+"-tab") + `).getAttribute('aria-selected') === 'true'`
	if err := tb.poll(shown, 2*time.Second); err != nil {
		t.Errorf("a link to a report (#%s) in the second tab's panel must select that tab and show the report", item)
	}
	tb.checkNoErrors()
}

func (s *browserSuite) testRotatingText(t *testing.T, reduced bool) {
	const p = "/pl/o-nas/kontakt/"
	ssr := s.fetchSSR(t, p)
	props := decodeProps[struct {
		Items      []string          `json:"items"`
		IntervalMs int               `json:"intervalMs"`
		Labels     map[string]string `json:"labels"`
	}](t, ssr.island(t, "RotatingText"))
	if len(props.Items) < 2 || props.Labels["pause"] == "" || props.Labels["play"] == "" {
		t.Fatalf("precondition: RotatingText on %s needs 2+ items and pause/play labels: %+v", p, props)
	}
	delay := time.Duration(max(1000, props.IntervalMs)) * time.Millisecond
	tb := s.newTab(t, tabOptions{reducedMotion: reduced, consent: "accept"})
	tb.navigate(p, 200)
	tb.do(chromedp.ScrollIntoView(chromedp.CSS(".rotating-text")))
	tb.waitJS(`document.querySelector('sg-island[data-island="RotatingText"][data-hydrated]')`, 4*time.Second, "RotatingText to hydrate")
	item := `document.querySelector('.rotating-text__item').textContent`
	if reduced {
		before, after := tb.stays(item, delay+700*time.Millisecond)
		if before != after {
			t.Errorf("with prefers-reduced-motion: reduce the text rotated from %q to %q", before, after)
		}
		if jsEval[bool](tb, `!!document.querySelector('.rotating-text--active, .rotating-text__toggle')`) {
			t.Error("with prefers-reduced-motion: reduce the rotation is active (class or pause button)")
		}
		tb.checkNoErrors()
		return
	}
	tb.waitJS(`document.querySelector('.rotating-text--active')`, 2*time.Second, "the rotation to start")
	first := jsEval[string](tb, item)
	if first != props.Items[0] {
		t.Errorf("rotating text starts at %q, want %q", first, props.Items[0])
	}
	tb.waitJS(item+` !== `+jsStr(first), delay+1500*time.Millisecond, "the rotating text to change within its interval (%v)", delay)
	if got := jsEval[string](tb, item); !brContains(props.Items, got) {
		t.Errorf("rotating text shows %q, not one of its items", got)
	}
	toggle := `document.querySelector('.rotating-text__toggle').textContent`
	if got := jsEval[string](tb, toggle); got != props.Labels["pause"] {
		t.Errorf("the toggle says %q, want %q", got, props.Labels["pause"])
	}
	tb.click(".rotating-text__toggle")
	tb.waitJS(toggle+` === `+jsStr(props.Labels["play"]), 5*time.Second, "the toggle to say %q", props.Labels["play"])
	before, after := tb.stays(item, delay+700*time.Millisecond)
	if before != after {
		t.Errorf("paused, the text still rotated from %q to %q", before, after)
	}
	tb.checkNoErrors()
}

type formProps struct {
	Endpoint  string `json:"endpoint"`
	Lang      string `json:"lang"`
	ThanksURL string `json:"thanksUrl"`
	Form      struct {
		Fields []struct {
			Name      string `json:"name"`
			Type      string `json:"type"`
			Required  bool   `json:"required"`
			MaxLength int    `json:"maxLength"`
		} `json:"fields"`
		Consents []struct {
			Name     string `json:"name"`
			Required bool   `json:"required"`
		} `json:"consents"`
		Submit string `json:"submit"`
	} `json:"form"`
	Messages map[string]string `json:"messages"`
}

func (s *browserSuite) testDemoForm(t *testing.T, p, lang string) {
	ssr := s.fetchSSR(t, p)
	props := decodeProps[formProps](t, ssr.island(t, "DemoForm"))
	if props.Endpoint != demoEndpoint || props.Lang != lang || props.ThanksURL == "" {
		t.Fatalf("DemoForm props: endpoint %q lang %q thanksUrl %q", props.Endpoint, props.Lang, props.ThanksURL)
	}
	tb := s.newTab(t, tabOptions{consent: "accept"})
	tb.navigate(p, 200)
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#demo-form")))
	tb.waitJS(`document.querySelector('sg-island[data-island="DemoForm"][data-hydrated]') && document.getElementById('demo-form').noValidate`,
		4*time.Second, "DemoForm to hydrate and enhance")
	// The page's other visible islands (the contact page's rotating line
	// right below the form) hydrate first: their data requests are not the
	// form's.
	if missing := jsEval[[]string](tb, hydrateAll); len(missing) > 0 {
		t.Fatalf("islands not hydrated in view: %v", missing)
	}
	tb.afterEffects()
	tb.do(chromedp.ScrollIntoView(chromedp.CSS("#demo-form")))
	postsBefore := s.postCount(lang)

	// Empty submit: localized errors, aria-invalid, focus on the first
	// invalid field, no request, no navigation.
	// A listener on window sees the submit event after the form's own
	// handler: whether the default (a POST navigation) was prevented is
	// settled then, and a fetch the handler makes has been recorded.
	jsEval[bool](tb, `(window.__sgStay = true, window.__sgSubmits = [], window.addEventListener('submit', (e) => window.__sgSubmits.push(e.defaultPrevented)), true)`)
	fetchesBefore := jsEval[int](tb, `window.__sgTest.fetches.length`)
	tb.click(".demo-form__submit")
	tb.waitJS(`window.__sgStay !== true || window.__sgSubmits.length > 0`, 2*time.Second, "the submit event")
	if !jsEval[bool](tb, `window.__sgStay === true && location.pathname === `+jsStr(p)) {
		t.Fatal("an empty submit navigated away")
	}
	if !jsEval[bool](tb, `window.__sgSubmits.length === 1 && window.__sgSubmits[0] === true`) {
		t.Fatal("an empty submit did not prevent the form's default submission (a POST navigation)")
	}
	tb.waitJS(`document.querySelector('.demo-form__error')`, 2*time.Second, "error messages after an empty submit")
	tb.afterEffects()
	if f := jsEval[[]string](tb, `window.__sgTest.fetches.slice(`+fmt.Sprint(fetchesBefore)+`)`); len(f) > 0 {
		t.Errorf("an empty submit fetched %v", f)
	}
	if n := s.postCount(lang); n != postsBefore {
		t.Errorf("an empty submit sent %d request(s) to %s", n-postsBefore, demoEndpoint)
	}
	var wantInvalid []string
	for _, f := range props.Form.Fields {
		if f.Required {
			wantInvalid = append(wantInvalid, f.Name)
		}
	}
	for _, c := range props.Form.Consents {
		if c.Required {
			wantInvalid = append(wantInvalid, c.Name)
		}
	}
	if len(wantInvalid) == 0 {
		t.Fatal("precondition: the form has no required field")
	}
	type fieldState struct {
		Invalid   string `json:"invalid"`
		Described string `json:"described"`
		Error     string `json:"error"`
	}
	for _, name := range wantInvalid {
		fs := jsEval[fieldState](tb, fmt.Sprintf(`(() => { const el = document.getElementById('demo-form-' + %s);
		  const d = el.getAttribute('aria-describedby'); const e = d && document.getElementById(d);
		  return { invalid: el.getAttribute('aria-invalid') || '', described: d || '', error: e ? e.textContent : '' }; })()`, jsStr(name)))
		want := props.Messages["required"]
		for _, c := range props.Form.Consents {
			if c.Name == name {
				want = props.Messages["consent"]
			}
		}
		if fs.Invalid != "true" {
			t.Errorf("field %s: aria-invalid=%q after an empty submit", name, fs.Invalid)
		}
		if want == "" || fs.Error != want {
			t.Errorf("field %s: error message %q, want %q", name, fs.Error, want)
		}
	}
	if focus := jsEval[string](tb, `document.activeElement ? document.activeElement.id : ''`); focus != "demo-form-"+wantInvalid[0] {
		t.Errorf("focus on %q after an empty submit, want demo-form-%s", focus, wantInvalid[0])
	}
	s.mu.Lock()
	s.required[lang] = props.Messages["required"]
	pl, en := s.required["pl"], s.required["en"]
	s.mu.Unlock()
	if pl != "" && en != "" && pl == en {
		t.Errorf("the required-field message is the same in pl and en (%q): not localized", pl)
	}

	// Valid values and consents: JSON to the endpoint, then the thank-you page.
	values := map[string]string{}
	for _, f := range props.Form.Fields {
		v := "Test " + f.Name
		switch f.Type {
		case "email":
			v = "anna.test@example.com"
		case "tel":
			v = "+48 600 100 200"
		}
		if f.Name == "name" {
			v = "Anna " + lang
		}
		if f.MaxLength > 0 && len(v) > f.MaxLength {
			v = v[:f.MaxLength]
		}
		values[f.Name] = v
		tb.do(chromedp.SendKeys(chromedp.ID("demo-form-"+f.Name), v))
	}
	for _, c := range props.Form.Consents {
		tb.click("#demo-form-" + c.Name)
	}
	tb.waitJS(`!document.querySelector('.demo-form__error')`, 2*time.Second, "the error messages to clear once the fields are valid")
	tb.click(".demo-form__submit")
	if err := tb.poll(`location.pathname === `+jsStr(props.ThanksURL)+` && document.readyState === 'complete'`, 5*time.Second); err != nil {
		t.Fatalf("after a valid submit the browser did not reach the thank-you page %s", props.ThanksURL)
	}
	// The Form group posts in the same language at the same time: count only
	// this test's posts (its name value is its own).
	var got []demoPost
	s.mu.Lock()
	for _, po := range s.posts {
		if po.Body["lang"] == lang && po.Body["name"] == values["name"] {
			got = append(got, po)
		}
	}
	s.mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("%d posts to %s for lang %s, want 1", len(got), demoEndpoint, lang)
	}
	po := got[0]
	if po.Method != http.MethodPost || !strings.HasPrefix(po.ContentType, "application/json") || !strings.Contains(po.Accept, "application/json") {
		t.Errorf("posted %s %s (Accept: %s), want POST application/json accepting JSON", po.Method, po.ContentType, po.Accept)
	}
	for k, v := range values {
		if po.Body[k] != v {
			t.Errorf("posted %s=%q, want %q", k, po.Body[k], v)
		}
	}
	for _, c := range props.Form.Consents {
		if po.Body[c.Name] != "yes" {
			t.Errorf("posted consent %s=%q, want yes", c.Name, po.Body[c.Name])
		}
	}
	if len(po.Body["idempotencyKey"]) < 16 || po.Body["website"] != "" || po.Body["page"] != p {
		t.Errorf("posted idempotencyKey=%q website=%q page=%q", po.Body["idempotencyKey"], po.Body["website"], po.Body["page"])
	}
	tb.checkNoErrors()
}

// postCount counts the posts of one language (the DemoForm tests run
// concurrently).
func (s *browserSuite) postCount(lang string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, p := range s.posts {
		if p.Body["lang"] == lang {
			n++
		}
	}
	return n
}

func (s *browserSuite) testJobsList(t *testing.T) {
	const p = "/pl/o-nas/praca/"
	ssr := s.fetchSSR(t, p)
	props := decodeProps[struct {
		Jobs []struct {
			ID, Title, ApplyEmail string
		} `json:"jobs"`
	}](t, ssr.island(t, "JobsList"))
	if len(props.Jobs) < 2 {
		t.Fatalf("precondition: %s lists %d jobs, need 2", p, len(props.Jobs))
	}
	tb := s.newTab(t, tabOptions{consent: "accept"})
	tb.navigate(p, 200)
	tb.do(chromedp.ScrollIntoView(chromedp.CSS(".jobs-list")))
	tb.waitJS(`document.querySelector('.jobs-list--list')`, 4*time.Second, "JobsList to hydrate into its list view")
	if n := jsEval[int](tb, `document.querySelectorAll('.jobs-list__item').length`); n != len(props.Jobs) {
		t.Errorf("the list shows %d jobs, want %d", n, len(props.Jobs))
	}
	job := props.Jobs[1]
	tb.click(".jobs-list__item:nth-child(2) .jobs-list__details")
	tb.waitJS(`document.querySelector('.jobs-list--detail')`, 2*time.Second, "the details of one job")
	type detail struct {
		Articles int    `json:"articles"`
		Items    int    `json:"items"`
		Title    string `json:"title"`
		Hash     string `json:"hash"`
		Apply    string `json:"apply"`
	}
	d := jsEval[detail](tb, `(() => ({
	  articles: document.querySelectorAll('.jobs-list__detail').length,
	  items: document.querySelectorAll('.jobs-list__item').length,
	  title: document.querySelector('.jobs-list__detail .jobs-list__title').textContent,
	  hash: location.hash,
	  apply: (document.querySelector('.jobs-list__detail .jobs-list__apply-link') || {}).href || '',
	}))()`)
	if d.Articles != 1 || d.Items != 0 {
		t.Errorf("details view shows %d job(s) and %d list item(s), want 1 and 0", d.Articles, d.Items)
	}
	if d.Title != job.Title {
		t.Errorf("details of %q, want %q", d.Title, job.Title)
	}
	if d.Hash != "#job-"+job.ID {
		t.Errorf("hash %q, want #job-%s", d.Hash, job.ID)
	}
	if err := tb.poll(`document.activeElement && document.activeElement.matches('.jobs-list__detail .jobs-list__title')`, time.Second); err != nil {
		t.Errorf("focus is on %s, want the job's heading", jsEval[string](tb, activeElement))
	}
	mu, err := url.Parse(d.Apply)
	if err != nil || mu.Scheme != "mailto" {
		t.Errorf("apply link %q is not a mailto link", d.Apply)
	} else {
		if mu.Opaque != job.ApplyEmail {
			t.Errorf("apply link to %q, want %q", mu.Opaque, job.ApplyEmail)
		}
		if subj := mu.Query().Get("subject"); subj != job.Title {
			t.Errorf("apply link subject %q, want the job title %q", subj, job.Title)
		}
	}
	// Back link: the list again, focus on the job's details link.
	tb.click(".jobs-list__back-link")
	tb.waitJS(`document.querySelector('.jobs-list--list')`, 2*time.Second, "the list after back")
	if n := jsEval[int](tb, `document.querySelectorAll('.jobs-list__item').length`); n != len(props.Jobs) {
		t.Errorf("back: the list shows %d jobs, want %d", n, len(props.Jobs))
	}
	if h := jsEval[string](tb, `location.hash`); h != "" {
		t.Errorf("back: hash %q, want none", h)
	}
	tb.waitJS(`document.activeElement && document.activeElement.matches('.jobs-list__item:nth-child(2) .jobs-list__details')`, busyBudget, "focus to return to the job's details link")
	// The browser's back button also returns to the list.
	tb.click(".jobs-list__item:nth-child(1) .jobs-list__details")
	tb.waitJS(`document.querySelector('.jobs-list--detail')`, 2*time.Second, "the details of the first job")
	jsEval[bool](tb, `(history.back(), true)`)
	tb.waitJS(`document.querySelector('.jobs-list--list') && location.hash === ''`, 2*time.Second, "the list after history.back()")
	tb.checkNoErrors()
}

func (s *browserSuite) testMobileMenu(t *testing.T) {
	tb := s.newTab(t, tabOptions{width: mobileWidth, consent: "accept"})
	tb.navigate("/pl/", 200)
	toggle := `document.querySelector('.mobile-menu__toggle')`
	tb.waitJS(toggle+`.getAttribute('aria-expanded') === 'false'`, 4*time.Second, "MobileMenu to hydrate at 390px")
	tb.click(".mobile-menu__toggle")
	tb.waitJS(`document.querySelector('details.mobile-menu').open && `+toggle+`.getAttribute('aria-expanded') === 'true'`, 2*time.Second, "the menu to open")
	if !jsEval[bool](tb, `[...document.querySelectorAll('.mobile-menu__nav a')].some((a) => isVisible(a))`) {
		t.Error("the open menu shows no link")
	}
	// Focus inside the menu, then Escape: closed, focus back on the toggle.
	tb.do(chromedp.Focus(chromedp.CSS(".mobile-menu__nav a")))
	if !jsEval[bool](tb, `document.activeElement && document.activeElement.matches('.mobile-menu__nav a')`) {
		t.Fatal("could not focus a link of the open menu")
	}
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.waitJS(`!document.querySelector('details.mobile-menu').open && `+toggle+`.getAttribute('aria-expanded') === 'false'`, 2*time.Second, "Escape to close the menu")
	if !jsEval[bool](tb, `document.activeElement === `+toggle) {
		t.Errorf("after Escape focus is on %s, want the menu toggle", jsEval[string](tb, activeElement))
	}
	tb.checkNoErrors()
}

func (s *browserSuite) testConsentBanner(t *testing.T, p, button, want string) {
	tb := s.newTab(t, tabOptions{})
	tb.navigate(p, 200)
	shown := `(() => { const b = document.querySelector('.consent-banner'); return !b.hidden && isVisible(b); })()`
	tb.waitJS(shown, 4*time.Second, "the consent banner to show")
	tb.click(button)
	tb.waitJS(`document.querySelector('.consent-banner').hidden`, 2*time.Second, "the banner to hide after the choice")
	if got := jsEval[string](tb, `String(localStorage.getItem('sg-consent'))`); got != want {
		t.Errorf("localStorage sg-consent = %q, want %q", got, want)
	}
	tb.do(chromedp.Reload())
	tb.waitJS(`document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]')`, 4*time.Second, "ConsentBanner to hydrate after the reload")
	// The banner's mount effect either shows it or announces the stored
	// choice (sg:consent with stored: true): wait for that decision.
	tb.waitJS(`window.__sgTest.consent.some((d) => d.stored === true) || !document.querySelector('.consent-banner').hidden`, 4*time.Second, "the banner to read the stored choice after the reload")
	tb.afterEffects()
	if jsEval[bool](tb, shown) {
		t.Error("the banner shows again after a reload although a choice is stored")
	}
	// The footer's "Cookie settings" button (hidden without JavaScript)
	// shows once the banner can open, reopens it with focus on "accept", and
	// the other choice replaces the stored one.
	tb.waitJS(`isVisible(document.querySelector('[data-consent-open]'))`, 2*time.Second, "the footer's cookie settings button to show")
	tb.click("[data-consent-open]")
	tb.waitJS(shown, 2*time.Second, "the cookie settings button to reopen the banner")
	tb.waitJS(`document.activeElement && document.activeElement.matches('.consent-banner__button--accept')`, 5*time.Second, "focus on the accept button of the reopened banner")
	other, otherButton := "reject", ".consent-banner__button--reject"
	if want == "reject" {
		other, otherButton = "accept", ".consent-banner__button--accept"
	}
	tb.click(otherButton)
	tb.waitJS(`document.querySelector('.consent-banner').hidden`, 2*time.Second, "the banner to hide after the second choice")
	if got := jsEval[string](tb, `String(localStorage.getItem('sg-consent'))`); got != other {
		t.Errorf("after changing the choice localStorage sg-consent = %q, want %q", got, other)
	}
	tb.checkNoErrors()
}

// ---------------------------------------------------------------------------
// 4. JavaScript disabled

func (s *browserSuite) testNoJavaScript(t *testing.T) {
	var subs []subtest
	subs = append(subs, subtest{"contact", func(t *testing.T) {
		const p = "/pl/o-nas/kontakt/"
		props := decodeProps[formProps](t, s.fetchSSR(t, p).island(t, "DemoForm"))
		tb := s.newTab(t, tabOptions{noScript: true})
		tb.navigate(p, 200)
		s.checkScriptsOff(t, tb)
		type formState struct {
			Method, Action string
			NoValidate     bool
			Fields         map[string]string // name -> type|required
			Hidden         map[string]string
			Submit         string
		}
		fs := jsEval[formState](tb, `(() => {
		  const f = document.getElementById('demo-form');
		  if (!f) return { Method: '', Action: '', NoValidate: false, Fields: {}, Hidden: {}, Submit: '' };
		  const fields = {}, hidden = {};
		  for (const el of f.querySelectorAll('input')) {
		    if (el.type === 'hidden') { hidden[el.name] = el.value; continue; }
		    fields[el.name] = el.type + '|' + el.required + '|' + (isVisible(el) || (el.type === 'checkbox' && isVisible(el.labels[0])));
		  }
		  const b = f.querySelector('[type=submit]');
		  return { Method: f.getAttribute('method') || '', Action: f.getAttribute('action') || '', NoValidate: f.noValidate,
		    Fields: fields, Hidden: hidden, Submit: b ? b.textContent : '' };
		})()`)
		if fs.Method != "post" || fs.Action != demoEndpoint {
			t.Errorf("form method=%q action=%q, want post %s", fs.Method, fs.Action, demoEndpoint)
		}
		if fs.NoValidate {
			t.Error("without JavaScript the form is novalidate (the browser's own validation is off)")
		}
		for _, f := range props.Form.Fields {
			want := fmt.Sprintf("%s|%v|true", f.Type, f.Required)
			if fs.Fields[f.Name] != want {
				t.Errorf("field %s: type|required|visible = %q, want %q", f.Name, fs.Fields[f.Name], want)
			}
		}
		for _, c := range props.Form.Consents {
			want := fmt.Sprintf("checkbox|%v|true", c.Required)
			if fs.Fields[c.Name] != want {
				t.Errorf("consent %s: type|required|visible = %q, want %q", c.Name, fs.Fields[c.Name], want)
			}
		}
		if _, ok := fs.Hidden["idempotencyKey"]; fs.Hidden["lang"] != "pl" || fs.Hidden["page"] != p || !ok {
			t.Errorf("hidden inputs %v, want lang=pl page=%s idempotencyKey", fs.Hidden, p)
		}
		if fs.Submit != props.Form.Submit {
			t.Errorf("submit button %q, want %q", fs.Submit, props.Form.Submit)
		}
		tb.checkNoErrors()
	}})

	subs = append(subs, subtest{"reports", func(t *testing.T) {
		const p = "/pl/dla-inwestorow/raporty/"
		ssr := s.fetchSSR(t, p)
		props := decodeProps[struct {
			Tabs []struct{ ID string } `json:"tabs"`
		}](t, ssr.island(t, "ReportTabs"))
		tb := s.newTab(t, tabOptions{noScript: true})
		tb.navigate(p, 200)
		s.checkScriptsOff(t, tb)
		type panel struct {
			ID      string `json:"id"`
			Visible bool   `json:"visible"`
			Titles  int    `json:"titles"`
			Shown   int    `json:"shown"`
		}
		panels := jsEval[[]panel](tb, `[...document.querySelectorAll('.report-panel')].map((p) => {
		  const titles = [...p.querySelectorAll('.report-item__title, .empty-state__title')];
		  return { id: p.id, visible: !p.hidden && isVisible(p), titles: titles.length,
		    shown: titles.filter((e) => isVisible(e)).length };
		})`)
		if len(panels) != len(props.Tabs) {
			t.Errorf("%d report panels, want %d", len(panels), len(props.Tabs))
		}
		total := 0
		for _, pn := range panels {
			total += pn.Titles
			if !pn.Visible || pn.Titles == 0 || pn.Shown != pn.Titles {
				t.Errorf("panel %s: visible=%v, %d of %d report titles shown", pn.ID, pn.Visible, pn.Shown, pn.Titles)
			}
		}
		if want := strings.Count(brFetch(t, s, p), `class="report-item__title"`); total < want {
			t.Errorf("%d report titles in the panels, the page has %d", total, want)
		}
		if n := jsEval[int](tb, `document.querySelectorAll('.report-tabs a.report-tabs__tab[href^="#"]').length`); n != len(props.Tabs) {
			t.Errorf("%d in-page tab links, want %d", n, len(props.Tabs))
		}
		tb.checkNoErrors()
	}})

	subs = append(subs, subtest{"jobs", func(t *testing.T) {
		const p = "/pl/o-nas/praca/"
		props := decodeProps[struct {
			Jobs []struct{ ID, Title string } `json:"jobs"`
		}](t, s.fetchSSR(t, p).island(t, "JobsList"))
		tb := s.newTab(t, tabOptions{noScript: true})
		tb.navigate(p, 200)
		s.checkScriptsOff(t, tb)
		type job struct {
			ID      string `json:"id"`
			Title   string `json:"title"`
			Visible bool   `json:"visible"`
			Apply   string `json:"apply"`
			Body    int    `json:"body"`
		}
		jobs := jsEval[[]job](tb, `[...document.querySelectorAll('details.jobs-list__job')].map((d) => {
		  const s = d.querySelector('summary .jobs-list__title');
		  const a = d.querySelector('.jobs-list__apply-link');
		  return { id: d.id, title: s ? s.textContent : '', visible: isVisible(s),
		    apply: a ? a.getAttribute('href') : '', body: (d.querySelector('.jobs-list__body') || {textContent: ''}).textContent.length };
		})`)
		if len(jobs) != len(props.Jobs) {
			t.Fatalf("%d job <details>, want %d", len(jobs), len(props.Jobs))
		}
		for i, j := range jobs {
			if j.ID != "job-"+props.Jobs[i].ID || j.Title != props.Jobs[i].Title || !j.Visible {
				t.Errorf("job %d: id %q title %q visible %v, want job-%s %q", i, j.ID, j.Title, j.Visible, props.Jobs[i].ID, props.Jobs[i].Title)
			}
			if !strings.HasPrefix(j.Apply, "mailto:") || j.Body == 0 {
				t.Errorf("job %s: apply %q, %d characters of details", j.ID, j.Apply, j.Body)
			}
		}
		// Native disclosure: clicking a summary opens the details.
		tb.do(chromedp.Click(chromedp.CSS("details.jobs-list__job summary")))
		if !jsEval[bool](tb, `(() => { const d = document.querySelector('details.jobs-list__job'); const b = d.querySelector('.jobs-list__body');
		  return d.open && isVisible(b); })()`) {
			t.Error("clicking a job's summary does not show its details")
		}
		tb.checkNoErrors()
	}})

	subs = append(subs, subtest{"menu", func(t *testing.T) {
		const p = "/pl/"
		// The mobile menu's top-level links (its list comes from the template, as
		// the island's children).
		type menuItem struct{ Href, Label string }
		var items []menuItem
		menu := first(doc(t, s.out, p), func(n *html.Node) bool { return n.Data == "sg-island" && brAttr(n, "data-island") == "MobileMenu" })
		if menu != nil {
			for _, li := range find(menu, func(n *html.Node) bool {
				return n.Data == "li" && n.Parent != nil && !hasClass(n.Parent, "mobile-menu__list--sub")
			}) {
				// A leaf's own link; a parent is a heading over its list
				// (on the desktop a button that opens it).
				for a := li.FirstChild; a != nil; a = a.NextSibling {
					if a.Type == html.ElementNode && a.Data == "a" {
						items = append(items, menuItem{brAttr(a, "href"), text(a)})
					}
				}
			}
		}
		if len(items) < 2 {
			t.Fatalf("precondition: the mobile menu has %d items", len(items))
		}
		desk := s.newTab(t, tabOptions{noScript: true})
		desk.navigate(p, 200)
		s.checkScriptsOff(t, desk)
		links := jsEval[map[string]bool](desk, `Object.fromEntries([...document.querySelectorAll('.main-nav a.main-nav__link')].map((a) =>
		  [a.getAttribute('href'), isVisible(a)]))`)
		// The last item of the mobile menu is the "book a demo" button.
		for _, it := range items[:len(items)-1] {
			if vis, ok := links[it.Href]; !ok || !vis {
				t.Errorf("main menu link %s (%s): present=%v visible=%v at 1280px", it.Href, it.Label, ok, vis)
			}
		}
		if jsEval[bool](desk, `!document.querySelector('[data-consent-open]') || isVisible(document.querySelector('[data-consent-open]'))`) {
			t.Error("the footer's cookie settings button is missing, or shown although it cannot work without JavaScript")
		}
		desk.checkNoErrors()
		desk.release()

		// At 390px the menu is a native <details>: it opens without JavaScript.
		mob := s.newTab(t, tabOptions{noScript: true, width: mobileWidth})
		mob.navigate(p, 200)
		mob.do(chromedp.Click(chromedp.CSS(".mobile-menu__toggle")))
		n := jsEval[int](mob, `[...document.querySelectorAll('details.mobile-menu[open] .mobile-menu__nav a')].filter((a) => isVisible(a)).length`)
		if n < len(items) {
			t.Errorf("the opened mobile menu shows %d links without JavaScript, want at least %d", n, len(items))
		}
		mob.checkNoErrors()
	}})
	s.concurrently(t, subs)
}

// checkScriptsOff makes sure the page's scripts really did not run.
func (s *browserSuite) checkScriptsOff(t *testing.T, tb *tab) {
	t.Helper()
	// The module scripts wait in a <template data-sg-late> until the inline
	// late loader copies them into the head after the load event; with
	// scripts disabled it never runs (nor would a frame or a task queued from
	// here: a promise awaiting one never settles), so nothing is copied.
	tb.waitJS(`document.readyState === 'complete'`, 5*time.Second, "the page to load")
	if !jsEval[bool](tb, `[...document.querySelectorAll('template[data-sg-late]')].some((t) => !!t.content.querySelector('script[type=module][src*="/islands/"]'))`) {
		t.Fatal("precondition: the page has no island loader or hydrated island whose scripts could run")
	}
	if n := jsEval[int](tb, `document.head.querySelectorAll(':scope > script[type=module]').length`); n != 0 {
		t.Fatalf("scripts ran although disabled: the late loader put %d module scripts in the head", n)
	}
	if jsEval[bool](tb, `window.__sgIslandScans !== undefined`) {
		t.Fatal("scripts ran although disabled: the island loader scanned the page")
	}
	if n := jsEval[int](tb, `document.querySelectorAll('sg-island[data-hydrated]').length`); n != 0 {
		t.Fatalf("scripts ran although disabled: %d islands hydrated", n)
	}
}

func brFetch(t *testing.T, s *browserSuite, p string) string {
	t.Helper()
	resp, err := http.Get(s.base + p)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ---------------------------------------------------------------------------
// 5. Pages without hydrated islands load no island code

func (s *browserSuite) testNoIslandCode(t *testing.T) {
	// The website's pages without a hydrated island (redirect pages left
	// out: they leave at once).
	var plain []string
	err := filepath.WalkDir(s.out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "data-chunk=") || strings.Contains(string(b), `http-equiv="refresh"`) {
			return nil
		}
		rel, _ := filepath.Rel(s.out, p)
		u := "/" + filepath.ToSlash(rel)
		if path.Base(u) == "index.html" {
			u = strings.TrimSuffix(u, "index.html")
		}
		plain = append(plain, u)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(plain)
	if len(plain) == 0 {
		t.Log("every page of the website has a hydrated island (ConsentBanner and MobileMenu are on every page): checking a page with only a none island")
	}
	if len(plain) > 4 {
		plain = plain[:4]
	}
	for _, p := range plain {
		t.Run(strings.Trim(p, "/"), func(t *testing.T) {
			tb := s.newTab(t, tabOptions{})
			resp, err := chromedp.Run(tb.ctx, chromedp.NavigateResponse(s.base+p))
			if err != nil || resp == nil {
				t.Fatalf("navigating to %s: %v", p, err)
			}
			// Scripts and modulepreloads in the document are requested while
			// it is parsed, before it is complete.
			tb.waitJS(`document.readyState === 'complete'`, 5*time.Second, "%s to load", p)
			if js := tb.scripts(); len(js) > 0 {
				t.Errorf("%s has no hydrated island but requested %v", p, js)
			}
			tb.checkNoErrors()
		})
	}
	// Always: a page whose only island is "none" (the website's DemoForm,
	// rendered through pkg/islands) has no script or modulepreload and
	// requests no JavaScript. That every page requests only its own
	// islands' code is checked in Pages.
	t.Run("none-only", func(t *testing.T) {
		s.noneFixture(t)
		tb := s.newTab(t, tabOptions{})
		tb.navigate("/_test/none/only/", 200)
		tb.waitJS(`document.readyState === 'complete'`, 5*time.Second, "the none-only page to load")
		if js := tb.scripts(); len(js) > 0 {
			t.Errorf("a page without hydrated islands requested JavaScript: %v", js)
		}
		if n := jsEval[int](tb, `document.querySelectorAll('script[src], link[rel=modulepreload]').length`); n != 0 {
			t.Errorf("a page without hydrated islands has %d script/modulepreload elements", n)
		}
		if jsEval[bool](tb, `!!document.querySelector('sg-island[data-hydrated]') || document.getElementById('demo-form').noValidate`) {
			t.Error("the none DemoForm was hydrated")
		}
		tb.checkNoErrors()
	})
}

// ---------------------------------------------------------------------------
// small helpers

// activeElement describes the focused element in a few words.
const activeElement = `(() => { const a = document.activeElement; if (!a) return 'nothing';
  return '<' + a.localName + (a.id ? ' id=' + a.id : '') + (a.className ? ' class=' + a.className : '') + '>'; })()`

func jsStr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func brContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
