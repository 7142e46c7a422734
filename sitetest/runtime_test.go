package sitetest

// Browser tests of the client runtime (assets/runtime, RUNTIME.md): one
// subtest per behaviour of issue 9 points 1–8, against the built site served
// by rtServer, which records every request and injects failures. They reuse
// the tabs of browser_test.go; the browser is started here with host rules
// mapping the tag manager's host to a local stand-in and insecure.test to
// the site (an origin that is not a secure context).
//
//	go test ./sitetest -run Runtime -v

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"sitegen/pkg/assets"
	"sitegen/pkg/config"
)

type runtimeSuite struct {
	*browserSuite
	srv       *rtServer
	port      string
	untracked string // http://localhost:port: the build without analytics, judged on 2026-07-01
	insecure  string // http://insecure.test:port: not a secure context
	hash      string // build hash of the main site
	tags      *tagStandIn
	tagIDs    config.Analytics // site.yaml's analytics block
}

func TestRuntime(t *testing.T) {
	exe := chromiumPath(t)
	out := site(t)
	// The main site has the company's analytics IDs (site.yaml); the variant
	// has none and is judged before the announcement's window.
	aout, arep := buildVariantFrom(t, withoutAnalytics(t), "2026-07-01")
	rs := &runtimeSuite{browserSuite: &browserSuite{out: out, extra: map[string]http.Handler{}, required: map[string]string{}, tabs: make(chan *tab, maxTabs)}}
	rs.hash = readHash(t, out)
	rs.srv = &rtServer{
		sites: map[string]http.Handler{"127.0.0.1": siteHandler(t, out, siteRep), "insecure.test": siteHandler(t, out, siteRep),
			"localhost": siteHandler(t, aout, arep)},
		hash: map[string]string{"127.0.0.1": rs.hash, "insecure.test": rs.hash, "localhost": readHash(t, aout)},
	}
	hs := httptest.NewServer(rs.srv)
	t.Cleanup(hs.Close)
	u, _ := url.Parse(hs.URL)
	rs.port = u.Port()
	rs.base = hs.URL
	rs.untracked = "http://localhost:" + rs.port
	rs.insecure = "http://insecure.test:" + rs.port
	rs.tags = newTagStandIn(t)
	rs.tagIDs = siteAnalytics(t)
	rs.startRuntimeBrowser(t, exe)
	rs.openTabs(t)

	for _, st := range []subtest{
		{"Swap", rs.testSwap},
		{"Loading", rs.testLoading},
		{"BuildIdentity", rs.testBuildIdentity},
		{"Prefetch", rs.testPrefetch},
		{"PrefetchOff", rs.testPrefetchOff},
		{"AfterNavigation", rs.testAfterNavigation},
		{"ServiceWorker", rs.testServiceWorker},
		{"Consent", rs.testConsent},
		{"Topbar", rs.testTopbar},
		{"TopbarFirstPaint", rs.testTopbarFirstPaint},
		{"StartTasks", rs.testStartTasks},
		{"RuntimeFailing", rs.testRuntimeFailing},
		{"LoaderRetry", rs.testLoaderRetry},
		{"LoaderRetryBounded", rs.testLoaderRetryBounded},
		{"ChunkRetry", rs.testChunkRetry},
		{"ChunkFailedAfterSwap", rs.testChunkFailedAfterSwap},
		{"HashLinksSwap", rs.testHashLinksSwap},
		{"ResourcesMissing", rs.testResourcesMissing},
		{"Screenshots", rs.testScreenshots},
	} {
		t.Run(st.name, st.fn)
	}
}

func (rs *runtimeSuite) startRuntimeBrowser(t *testing.T, exe string) {
	// The vendor's script host of site.yaml is answered by the stand-in.
	u, err := url.Parse(rs.tagIDs.Scripts[0])
	if err != nil || u.Hostname() == "" {
		t.Fatalf("analytics.scripts[0] %q: %v", rs.tagIDs.Scripts[0], err)
	}
	rules := "MAP " + u.Hostname() + " 127.0.0.1:" + rs.tags.port() + ", MAP insecure.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"
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
		// The stand-in's certificate is self-signed.
		chromedp.Flag("ignore-certificate-errors", true),
		chromedp.Flag("host-resolver-rules", rules),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := within(30*time.Second, func() error { return chromedp.Do(bctx) }); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	rs.bctx = bctx
}

// addScript runs src before the page's own scripts in every document the
// tab loads until the subtest ends.
func (tb *tab) addScript(src string) {
	tb.t.Helper()
	var id cdppage.ScriptIdentifier
	err := chromedp.Do(tb.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		r, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		if err == nil {
			id = r.Identifier
		}
		return err
	}))
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Cleanup(func() {
		within(10*time.Second, func() error {
			return chromedp.Do(tb.base, cdpDo(cdppage.RemoveScriptToEvaluateOnNewDocument, cdppage.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: id}))
		})
	})
}

// open lends a tab with nothing stored for any of the test origins and a
// recorder of runtime navigations; scripts given run before the page's own.
func (rs *runtimeSuite) open(t *testing.T, o tabOptions, scripts ...string) *tab {
	t.Helper()
	tb := rs.newTab(t, o)
	for _, origin := range []string{rs.untracked, rs.insecure} {
		tb.do(cdpDo(storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: origin, StorageTypes: "all"}))
	}
	scripts = append([]string{navRecorder}, scripts...)
	for _, src := range scripts {
		tb.addScript(src)
	}
	t.Cleanup(func() {
		// Leave no worker, override or storage for the next test. Bounded:
		// a browser that stopped answering fails the test that broke it
		// instead of hanging the whole suite.
		err := within(20*time.Second, func() error {
			for _, origin := range []string{rs.base, rs.untracked, rs.insecure} {
				chromedp.Do(tb.base, cdpDo(storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: origin, StorageTypes: "all"}))
			}
			return chromedp.Do(tb.base,
				cdpDo(emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ""}),
				cdpDo(emulation.SetDataSaverOverride, emulation.SetDataSaverOverrideParams{}))
		})
		if err != nil {
			t.Errorf("cleaning up the tab: %v", err)
		}
	})
	return tb
}

// navRecorder records the runtime's sg:navigated events and every text the
// route announcer gets (before any page script runs).
const navRecorder = `(() => {
  if (window.__rt) return; // a tab lent twice in one test has it twice
  const rec = { navs: [], announced: [], last: '' };
  performance.setResourceTimingBufferSize(5000);
  Object.defineProperty(window, '__rt', { value: rec });
  addEventListener('sg:navigated', (e) => rec.navs.push({ path: e.detail.path, at: performance.now() }));
  new MutationObserver(() => {
    const a = document.getElementById('sg-announcer');
    // Every change, the clearing included.
    if (a && a.textContent !== rec.last) rec.announced.push((rec.last = a.textContent));
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`

// load opens a site path (of origin, default the main site) and waits for
// the runtime to have checked the build.
func (rs *runtimeSuite) load(tb *tab, origin, p string) {
	tb.t.Helper()
	if origin == "" {
		origin = rs.base
	}
	if _, err := chromedp.Run(tb.ctx, chromedp.NavigateResponse(origin+p)); err != nil {
		tb.t.Fatalf("navigating to %s: %v", p, err)
	}
	tb.waitJS(`document.documentElement.dataset.sgBuild`, 5*time.Second, "the runtime to check the build on %s", p)
}

// link puts a link to href at the top of <main> and clicks it as a user
// does; attrs are extra attributes, wrap an attribute of a container.
func (rs *runtimeSuite) clickTo(tb *tab, href, attrs, wrap string) {
	tb.t.Helper()
	rs.putLink(tb, href, attrs, wrap)
	// Click where the link is (a node-based click races the swap that
	// removes the node).
	tb.do(chromedp.MouseClickXY(40, 135))
}

// putLink puts the link #rt-link to href at the top of the viewport.
func (rs *runtimeSuite) putLink(tb *tab, href, attrs, wrap string) {
	tb.t.Helper()
	jsEval[bool](tb, fmt.Sprintf(`(() => {
  document.getElementById('rt-link-box')?.remove();
  const box = document.createElement('div');
  box.id = 'rt-link-box';
  box.innerHTML = '<a id="rt-link" href=%s %s style="display:inline-block;padding:8px">test link</a>';
  %s
  const m = document.querySelector('main');
  m.prepend(box);
  box.style.cssText = 'position:fixed;top:120px;left:20px;z-index:9999;background:#fff';
  return true;
})()`, jsStr(href), attrs, map[bool]string{true: "box.setAttribute(" + jsStr(wrap) + ", '');", false: ""}[wrap != ""]))
}

// waitNav waits for the runtime's n-th navigation (1-based) to end at path.
func (rs *runtimeSuite) waitNav(tb *tab, n int, path string) {
	tb.t.Helper()
	tb.waitJS(fmt.Sprintf(`window.__rt.navs.length >= %d && window.__rt.navs[%d].path === %s`, n, n-1, jsStr(path)), 8*time.Second,
		"navigation %d to %s (navigations so far: %s)", n, path, jsEval[string](tb, `JSON.stringify(window.__rt ? window.__rt.navs : null)`))
}

// dropErrors forgets the console errors containing s (the test caused them).
func (tb *tab) dropErrors(s string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var keep []string
	for _, e := range tb.errs {
		if !strings.Contains(e, s) {
			keep = append(keep, e)
		}
	}
	tb.errs = keep
}

// waitReq waits until the server has had n requests containing sub.
func (rs *runtimeSuite) waitReq(t *testing.T, m int, sub string, n int) {
	t.Helper()
	deadline := time.Now().Add(8 * time.Second)
	for len(rs.srv.since(m, sub)) < n {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %d requests of %s: got %v", n, sub, paths(rs.srv.since(m, sub)))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func paths(rs []rtReq) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Method + " " + r.URL()
	}
	return out
}

// documents are the HTML requests (full loads) after mark m.
func (rs *runtimeSuite) documents(m int) []string {
	var out []string
	for _, r := range rs.srv.since(m, "/") {
		if r.Method == "GET" && !strings.HasPrefix(r.Path, "/page-data/") && !strings.HasPrefix(r.Path, "/slice-data/") &&
			!strings.HasPrefix(r.Path, "/_assets/") && !strings.Contains(r.Path, ".") &&
			!strings.HasSuffix(r.Path, "/offline/") { // the service worker's install
			out = append(out, r.URL())
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// 1. Page swaps

func (rs *runtimeSuite) testSwap(t *testing.T) {
	tb := rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", "/pl/")
	m := rs.srv.mark()
	// A page with islands: page data and the -rsc manifest, no HTML.
	rs.clickTo(tb, "/pl/o-nas/kontakt/", "", "")
	rs.waitNav(tb, 1, "/pl/o-nas/kontakt/")
	if docs := rs.documents(m); len(docs) != 0 {
		t.Errorf("a swap loaded HTML: %v", docs)
	}
	got := paths(rs.srv.since(m, "/page-data/pl/o-nas/kontakt/"))
	want := []string{"GET /page-data/pl/o-nas/kontakt/page-data.json", "GET /page-data/pl/o-nas/kontakt/page-data-rsc.json"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests for the contact page: %v, want %v", got, want)
	}
	if n := len(rs.srv.since(m, "/slice-data/")); n != 0 {
		t.Errorf("a swap within one locale fetched %d slices", n)
	}
	tb.waitJS(`location.pathname === '/pl/o-nas/kontakt/' && document.querySelector('main #demo-form')`, 2*time.Second, "the contact page's content")
	// The form leads the contact page: its island (visible) is in view.
	tb.waitJS(`document.querySelector('main sg-island[data-island="DemoForm"][data-hydrated]')`, 5*time.Second, "the swapped-in DemoForm island to hydrate")
	head := jsEval[map[string]string](tb, `({title: document.title, canonical: document.querySelector('link[rel=canonical]').href,
	  lang: document.documentElement.lang, en: document.querySelector('link[rel=alternate][hreflang=en]').href,
	  sw: document.querySelector('.lang-switch a[hreflang=en]').getAttribute('href'), body: document.body.className,
	  current: document.querySelector('header a[aria-current=page]')?.getAttribute('href') || ''})`)
	ssr := parse(t, filepath.Join(rs.out, "pl/o-nas/kontakt/index.html"))
	if head["title"] != ssr.title || head["canonical"] != ssr.canonical || head["lang"] != "pl" {
		t.Errorf("head after the swap %v; the page's own: title %q canonical %q", head, ssr.title, ssr.canonical)
	}
	if head["sw"] != "/en/about-us/contact/" || !strings.HasSuffix(head["en"], "/en/about-us/contact/") {
		t.Errorf("language switcher %q, hreflang en %q: not the contact page's English variant", head["sw"], head["en"])
	}
	raw, err := os.ReadFile(filepath.Join(rs.out, "pl/o-nas/kontakt/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`<body class="([^"]*)"`).FindSubmatch(raw); m == nil || head["body"] != string(m[1]) {
		t.Errorf("body class after the swap %q, the page's own %q", head["body"], m)
	}
	// The mobile menu's marks (classes as well as aria-current) are the
	// page's own, not those of the page swapped out.
	menu := jsEval[string](tb, `[...document.querySelectorAll('.mobile-menu__link--current')].map(a => a.getAttribute('href')).join(' ') +
	  ' active:' + document.querySelectorAll('.mobile-menu__item--active').length`)
	var wantMenu []string
	for _, m := range regexp.MustCompile(`<a href="([^"]*)"[^>]*class="mobile-menu__link mobile-menu__link--current"`).FindAllSubmatch(raw, -1) {
		wantMenu = append(wantMenu, string(m[1]))
	}
	if want := strings.Join(wantMenu, " ") + fmt.Sprintf(" active:%d", strings.Count(string(raw), "mobile-menu__item--active")); menu != want || len(wantMenu) == 0 {
		t.Errorf("mobile menu marks after the swap %q, the page's own %q", menu, want)
	}
	// Polish -> English through the language switcher: the header and
	// footer come as the English slices, html[lang] changes.
	m = rs.srv.mark()
	tb.click(`header .lang-switch a[hreflang=en]`)
	rs.waitNav(tb, 2, "/en/about-us/contact/")
	tb.waitJS(`document.documentElement.lang === 'en' && document.querySelector('.skip-link').textContent.includes('Skip')`, 2*time.Second, "the English header")
	slices := paths(rs.srv.since(m, "/slice-data/"))
	sort.Strings(slices)
	if strings.Join(slices, "|") != "GET /slice-data/footer-en.json|GET /slice-data/header-en.json" {
		t.Errorf("slices fetched for pl -> en: %v", slices)
	}
	if cur := jsEval[string](tb, `document.querySelector('header .lang-switch a[aria-current]').hreflang`); cur != "en" {
		t.Errorf("language switcher marks %q as current", cur)
	}
	if n := jsEval[int](tb, `document.querySelectorAll('main').length + document.querySelectorAll('header.site-header').length + document.querySelectorAll('footer.site-footer').length`); n != 3 {
		t.Errorf("after the locale swap there are %d main/header/footer elements, want one each", n)
	}
	tb.waitJS(`document.querySelector('header sg-island[data-island="MobileMenu"]') && document.querySelector('#sg-announcer').dataset.navigated.startsWith('Navigated')`, 2*time.Second, "the English footer with its announcer")

	// A fresh tab (and time budget) for the next part.
	tb.release()
	tb = rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", "/en/")
	// Opt-outs: a link with data-no-swap, in a container with it, with
	// download, with another target, to a file: the browser handles them.
	for i, c := range []struct{ href, attrs, wrap string }{
		{"/en/thanks/", "data-no-swap", ""},
		{"/en/thanks/", "", "data-no-swap"},
	} {
		m = rs.srv.mark()
		rs.clickTo(tb, c.href, c.attrs, c.wrap)
		tb.waitJS(`location.pathname === '/en/thanks/' && document.readyState === 'complete'`, 5*time.Second, "opt-out %d to load the page", i)
		// The loaded page then checks its own resources (page data): only
		// page data asked before the HTML would mean a swap.
		if docs := rs.documents(m); len(docs) != 1 || len(pageDataBeforeHTML(rs.srv.since(m, "/"), "/en/thanks/")) != 0 {
			t.Errorf("opt-out %+v: HTML requests %v, page data %v; want one full load", c, docs, paths(rs.srv.since(m, "/page-data/")))
		}
		rs.load(tb, "", "/en/")
	}
	if !jsEval[bool](tb, `(() => { const a = document.createElement('a'); a.href = '/investor-docs/x.pdf'; document.body.append(a);
	  const b = document.createElement('a'); b.href = '/en/'; b.download = ''; const c = document.createElement('a'); c.href = '/en/'; c.target = '_blank';
	  let n = 0; for (const x of [a, b, c]) x.addEventListener('click', (e) => { if (!e.defaultPrevented) n++; e.preventDefault(); });
	  for (const x of [a, b, c]) x.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
	  return n === 3; })()`) {
		t.Error("the runtime took over a click on a file, a download or another target")
	}

	// A fresh tab (and time budget) for the next part.
	tb.release()
	tb = rs.open(t, tabOptions{consent: "reject"})
	// A double click is one navigation and one request.
	rs.load(tb, "", "/en/")
	m = rs.srv.mark()
	rs.putLink(tb, "/en/grants/", "", "")
	tb.do(chromedp.MouseClickXY(40, 135, chromedp.ClickCount(2)))
	rs.waitNav(tb, 1, "/en/grants/")
	if got := paths(rs.srv.since(m, "/page-data/en/grants/")); len(got) != 1 {
		t.Errorf("a double click requested %v, want one page data", got)
	}
	if n := jsEval[int](tb, `window.__rt.navs.length`); n != 1 {
		t.Errorf("a double click made %d navigations", n)
	}

	// Rapid navigations end on the last: the first target's data is slow.
	rs.load(tb, "", "/en/")
	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/grants/page-data.json"), delay: 800 * time.Millisecond})
	rs.clickTo(tb, "/en/grants/", "", "")
	rs.clickTo(tb, "/en/blog/", "", "")
	rs.waitNav(tb, 1, "/en/blog/")
	rs.waitReq(t, 0, "/page-data/en/grants/", 1)
	tb.waitJS(`performance.getEntriesByType('resource').some((e) => e.name.includes('/page-data/en/grants/') && e.responseEnd > 0)`, 3*time.Second, "the slow page data to arrive")
	tb.waitJS(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, 5*time.Second, "two frames")
	if p := jsEval[string](tb, `location.pathname + ' ' + window.__rt.navs.length + ' ' + document.querySelector('main h1').textContent.trim()`); !strings.HasPrefix(p, "/en/blog/ 1 ") {
		t.Errorf("after two rapid clicks: %q, want the blog page and one navigation", p)
	}
	// A fresh tab (and time budget) for the next part.
	tb.release()
	tb = rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", "/en/")
	// Back while a load is in flight: the load hangs, back wins.
	rs.clickTo(tb, "/en/blog/", "", "")
	rs.waitNav(tb, 1, "/en/blog/")
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/media/page-data.json"), hang: hang})
	rs.clickTo(tb, "/en/media/", "", "")
	rs.waitReq(t, 0, "/page-data/en/media/", 1)
	tb.do(chromedp.NavigateBack())
	rs.waitNav(tb, 2, "/en/")
	if p := jsEval[string](tb, `location.pathname`); p != "/en/" {
		t.Errorf("back during a hung load ends on %q, want /en/", p)
	}
	tb.checkNoErrors()
}

// ---------------------------------------------------------------------------
// 2. Page loading

func (rs *runtimeSuite) testLoading(t *testing.T) {
	tb := rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", "/en/")
	n := 0
	nav := func(href, want string) int {
		t.Helper()
		m := rs.srv.mark()
		rs.clickTo(tb, href, "", "")
		n++
		rs.waitNav(tb, n, want)
		return m
	}
	h1 := func() string { return jsEval[string](tb, `document.querySelector('main h1').textContent.trim()`) }

	// The query is kept on the page-data URL; app data was fetched once.
	m := nav("/en/blog/?page=2", "/en/blog/?page=2")
	if got := paths(rs.srv.since(m, "/page-data/en/blog/")); len(got) != 1 || got[0] != "GET /page-data/en/blog/page-data.json?page=2" {
		t.Errorf("page data for /en/blog/?page=2: %v", got)
	}

	// 404: the 404 page's data, then HEAD on the path; 404 shows the page.
	m = nav("/en/no-such-page/", "/en/no-such-page/")
	want := []string{"GET /page-data/en/no-such-page/page-data.json", "GET /page-data/en/404/page-data.json", "HEAD /en/no-such-page/"}
	var got []string
	for _, p := range paths(rs.srv.since(m, "/")) {
		if strings.Contains(p, "no-such-page") || strings.Contains(p, "/404/") {
			got = append(got, p)
		}
	}
	sort.Strings(got[1:])
	sort.Strings(want[1:])
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests for a missing page: %v, want %v", got, want)
	}
	if h := h1(); h != "There seems to be nothing here..." {
		t.Errorf("missing page shows h1 %q", h)
	}
	// 404 whose HTML exists (a redirect page): a full load.
	m = rs.srv.mark()
	rs.clickTo(tb, "/contact/", "", "")
	tb.waitJS(`location.pathname === '/en/about-us/contact/' || location.pathname === '/pl/o-nas/kontakt/'`, 5*time.Second, "the redirect page to load in full")
	// Only /contact/'s own requests: the 404 page's links (its contact
	// page among them) may be prefetched meanwhile.
	var redirect []string
	for _, p := range paths(rs.srv.since(m, "/contact")) {
		if _, pth, _ := strings.Cut(p, " "); strings.HasPrefix(pth, "/contact/") || strings.HasPrefix(pth, "/page-data/contact/") {
			redirect = append(redirect, p)
		}
	}
	if got := redirect; len(got) < 2 || got[0] != "GET /page-data/contact/page-data.json" || !brContains(got, "HEAD /contact/") {
		t.Errorf("requests for a redirect page: %v", got)
	}
	rs.load(tb, "", "/en/")
	n = 0

	// A fresh tab (and time budget) for the next part.
	tb.release()
	tb = rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", "/en/")
	// 500: the 500 page's data.
	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/grants/page-data.json"), status: 500, times: 1})
	m = nav("/en/grants/", "/en/grants/")
	var on500 []string
	for _, p := range paths(rs.srv.since(m, "/page-data/")) {
		if strings.Contains(p, "/grants/") || strings.Contains(p, "/500/") { // not the prefetches running meanwhile
			on500 = append(on500, p)
		}
	}
	if got := on500; strings.Join(got, "|") != "GET /page-data/en/grants/page-data.json|GET /page-data/en/500/page-data.json" {
		t.Errorf("requests on a 500: %v", got)
	}
	if !strings.Contains(jsEval[string](tb, `document.body.className`), "page-500") {
		t.Errorf("a 500 answer shows %q, not the 500 page", h1())
	}

	// 503 twice, then 200: three requests with a growing backoff between.
	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/events/page-data.json"), status: 503, times: 2})
	m = nav("/en/events/", "/en/events/")
	reqs := rs.srv.since(m, "/page-data/en/events/")
	if len(reqs) != 3 {
		t.Fatalf("a page data answering 503 twice was asked %d times, want 3: %v", len(reqs), paths(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		// backoff(n) waits 100·2ⁿ ms × 0.5–1.5.
		if gap, min := reqs[i].At.Sub(reqs[i-1].At), time.Duration(50<<(i-1))*time.Millisecond; gap < min {
			t.Errorf("retry %d came %v after the previous request, want at least %v", i, gap, min)
		}
	}
	// Always 503: four requests, then a full load of the target.
	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/media/page-data.json"), status: 503})
	m = rs.srv.mark()
	rs.clickTo(tb, "/en/media/", "", "")
	tb.waitJS(`location.pathname === '/en/media/' && !window.__rt.navs.length`, 8*time.Second, "a full load after the retries")
	if got := len(rs.srv.since(m, "/page-data/en/media/")); got != 4 {
		t.Errorf("a failing page data was asked %d times, want 4 (3 retries)", got)
	}
	if docs := rs.documents(m); len(docs) != 1 || docs[0] != "/en/media/" {
		t.Errorf("after the retries the HTML requests were %v, want one of /en/media/", docs)
	}
	rs.srv.clear()
	rs.load(tb, "", "/en/")
	n = 0

	// Page data without path is invalid: treated as 404 -> HEAD 200 -> full load.
	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/ebooks/page-data.json"), body: `{"result":{}}`})
	m = rs.srv.mark()
	rs.clickTo(tb, "/en/ebooks/", "", "")
	tb.waitJS(`location.pathname === '/en/ebooks/' && !window.__rt.navs.length && document.readyState === 'complete'`, 8*time.Second, "a full load of a page whose data has no path")
	if got := paths(rs.srv.since(m, "/")); !brContains(got, "HEAD /en/ebooks/") || !brContains(got, "GET /page-data/en/404/page-data.json") {
		t.Errorf("page data without path: requests %v, want the 404 data and a HEAD", got)
	}
	// A static query that fails to load: an error naming its JSON file,
	// and the navigation becomes a full load.
	rs.srv.clear()
	rs.load(tb, "", "/en/")
	n = 0
	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/grants/page-data.json"), edit: func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"staticQueryHashes":[]`), []byte(`"staticQueryHashes":["1234567890"]`), 1)
	}})
	m = rs.srv.mark()
	rs.clickTo(tb, "/en/grants/", "", "")
	tb.waitJS(`location.pathname === '/en/grants/' && !window.__rt.navs.length && document.readyState === 'complete'`, 8*time.Second, "a full load after a failed static query")
	if got := len(rs.srv.since(m, "/page-data/sq/d/1234567890.json")); got != 1 {
		t.Errorf("the static query was asked %d times, want once (a 404 is not retried)", got)
	}
	tb.mu.Lock()
	sqErr := strings.Join(tb.errs, "\n")
	tb.mu.Unlock()
	if !strings.Contains(sqErr, "/page-data/sq/d/1234567890.json") {
		t.Errorf("console errors %q do not name the static query's JSON file", sqErr)
	}
	tb.dropErrors("static query")
	rs.srv.clear()
	rs.load(tb, "", "/en/")
	n = 0

	// A dropped connection counts as a failure like any other.
	rs.srv.inject(t, &fault{match: pathIs("/page-data/en/whitepaper/page-data.json"), drop: true, times: 1})
	m = nav("/en/whitepaper/", "/en/whitepaper/")
	if got := len(rs.srv.since(m, "/page-data/en/whitepaper/")); got != 2 {
		t.Errorf("a dropped page-data request was asked %d times, want 2", got)
	}

	// A fresh tab (and time budget) for the next part.
	tb.release()
	tb = rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", "/en/")
	n = 0
	// App data: once per page view session, not per navigation.
	m = rs.srv.mark()
	nav("/en/grants/", "/en/grants/")
	nav("/en/events/", "/en/events/")
	if got := len(rs.srv.since(m, "/page-data/app-data.json")); got != 0 {
		t.Errorf("app data fetched %d times for two navigations, want 0 (cached)", got)
	}
	// App data answering 500: retried 3 times, then the build is unknown.
	rs.srv.inject(t, &fault{match: pathIs("/page-data/app-data.json"), status: 500})
	m = rs.srv.mark()
	rs.load(tb, "", "/en/")
	if got := jsEval[string](tb, `document.documentElement.dataset.sgBuild`); got != "unknown" {
		t.Errorf("with app data failing the build check says %q", got)
	}
	if got := len(rs.srv.since(m, "/page-data/app-data.json")); got != 4 {
		t.Errorf("failing app data was asked %d times, want 4", got)
	}
	rs.srv.clear()

	// A chunk that fails to load sends the browser to a full load, once.
	rs.load(tb, "", "/en/grants/?x=1#top")
	m = rs.srv.mark()
	jsEval[bool](tb, `(window.__old = 1, Promise.reject(new Error('Loading chunk 7 failed.')), true)`)
	rs.waitReq(t, m, "/en/grants/?x=1", 1)
	tb.waitJS(`!window.__old && location.hash === '#top' && document.documentElement.dataset.sgBuild`, 5*time.Second, "the reload after a chunk failure, with search and hash")
	m = rs.srv.mark()
	jsEval[bool](tb, `(Promise.reject(new Error('Loading chunk 8 failed.')), true)`)
	// The handler runs in the task that reports the rejection: a task later
	// it has decided.
	tb.waitJS(`new Promise((r) => setTimeout(() => setTimeout(() => r(true))))`, 5*time.Second, "two tasks")
	if docs := rs.documents(m); len(docs) != 0 || jsEval[string](tb, `sessionStorage.getItem('sg-reload')`) != "chunk" {
		t.Errorf("a second chunk failure in the session loaded %v again: the guard is one-shot", docs)
	}
	tb.dropErrors("Loading chunk")
	tb.checkNoErrors()
}

// ---------------------------------------------------------------------------
// 3. Build identity

func (rs *runtimeSuite) testBuildIdentity(t *testing.T) {
	t.Run("reload once", func(t *testing.T) {
		tb := rs.open(t, tabOptions{consent: "reject"})
		changed := rs.srv.inject(t, &fault{match: pathIs("/page-data/app-data.json"), hash: "0000000000changed00"})
		m := rs.srv.mark()
		if _, err := chromedp.Run(tb.ctx, chromedp.Navigate(rs.base+"/en/grants/")); err != nil {
			t.Fatal(err)
		}
		// The first load reloads; the reloaded page sees the flag and stays.
		tb.waitJS(`document.documentElement.dataset.sgBuild === 'stale'`, 8*time.Second, "the reloaded page to give up on the other build")
		if docs := rs.documents(m); strings.Join(docs, " ") != "/en/grants/ /en/grants/" {
			t.Errorf("HTML requests %v, want exactly two (one reload)", docs)
		}
		if f := jsEval[string](tb, `sessionStorage.getItem('sg-reload')`); f != "build" {
			t.Errorf("reload flag %q", f)
		}
		// A navigation while the server has another build: a full load.
		m = rs.srv.mark()
		rs.clickTo(tb, "/en/events/", "", "")
		tb.waitJS(`location.pathname === '/en/events/' && document.documentElement.dataset.sgBuild === 'stale'`, 8*time.Second, "a full load to the other build")
		if docs := rs.documents(m); len(docs) != 1 {
			t.Errorf("navigation with a changed build: HTML requests %v, want one full load", docs)
		}
		// The next load that passes clears the flag.
		rs.srv.remove(changed)
		rs.load(tb, "", "/en/")
		if got := jsEval[string](tb, `document.documentElement.dataset.sgBuild + ' ' + sessionStorage.getItem('sg-reload')`); got != "current null" {
			t.Errorf("after a passing load: %q, want the flag cleared", got)
		}
		tb.checkNoErrors()
	})
	t.Run("page data of another build", func(t *testing.T) {
		tb := rs.open(t, tabOptions{consent: "reject"})
		rs.load(tb, "", "/en/")
		rs.srv.inject(t, &fault{match: pathIs("/page-data/en/grants/page-data.json"), hash: "0000000000changed00"})
		m := rs.srv.mark()
		rs.clickTo(tb, "/en/grants/", "", "")
		tb.waitJS(`location.pathname === '/en/grants/' && !window.__rt.navs.length && document.documentElement.dataset.sgBuild`, 8*time.Second, "a full load")
		if docs := rs.documents(m); len(docs) != 1 {
			t.Errorf("page data of another build: HTML requests %v, want one full load", docs)
		}
	})
	t.Run("no storage no reload", func(t *testing.T) {
		noStorage := `Object.defineProperty(window, 'sessionStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });`
		tb := rs.open(t, tabOptions{}, noStorage)
		rs.srv.inject(t, &fault{match: pathIs("/page-data/app-data.json"), hash: "0000000000changed00"})
		m := rs.srv.mark()
		rs.load(tb, "", "/en/grants/")
		if got := jsEval[string](tb, `document.documentElement.dataset.sgBuild`); got != "stale" {
			t.Errorf("without session storage the build check says %q, want stale (no reload)", got)
		}
		if docs := rs.documents(m); len(docs) != 1 {
			t.Errorf("without session storage: HTML requests %v, want one (a reload could loop)", docs)
		}
	})
}

// ---------------------------------------------------------------------------
// 4. Prefetch

// prefetchTimes reads the page-data fetches (resource timing, ms since the
// navigation start) and the moment the first link was queued.
const prefetchTimes = `(() => ({
  queued: (performance.getEntriesByName('sg-prefetch-queued')[0] || {}).startTime || -1,
  fetches: performance.getEntriesByType('resource').filter((e) => e.name.includes('/page-data/') && !e.name.includes('app-data') && !e.name.includes('-rsc')
      && new URL(e.name).pathname !== '/page-data/' + (location.pathname.replace(/^\/+|\/+$/g, '') || 'index') + '/page-data.json') // the page's own (the resources check)
    .map((e) => ({ url: new URL(e.name).pathname, at: e.startTime })),
}))()`

type prefetchState struct {
	Queued  float64 `json:"queued"`
	Fetches []struct {
		URL string  `json:"url"`
		At  float64 `json:"at"`
	} `json:"fetches"`
}

func (rs *runtimeSuite) testPrefetch(t *testing.T) {
	// A tall window: the header's menus are buttons (their lists hidden), so
	// the home page's first 800 px show only five links to other pages.
	tb := rs.open(t, tabOptions{consent: "reject", height: 1600})
	rs.load(tb, "", "/en/")
	// The production schedule, as the runtime reports it.
	if got := jsEval[string](tb, `document.documentElement.dataset.sgPrefetch`); got != "3000,4,3000" {
		t.Errorf("prefetch schedule %q, want first batch after 3000 ms, 4 per batch, 3000 ms apart", got)
	}
	// The home page has more than 8 visible links at 1280x1600: two batches of 4.
	if err := tb.poll(`(`+prefetchTimes+`).fetches.length >= 8`, 12*time.Second); err != nil {
		t.Fatalf("waiting for two batches of prefetches: %v; got %s; server: %v", err, jsEval[string](tb, `JSON.stringify(`+prefetchTimes+`)`), paths(rs.srv.since(0, "/page-data/")))
	}
	st := jsEval[prefetchState](tb, prefetchTimes)
	if st.Queued < 0 {
		t.Fatal("no link was queued")
	}
	// Batches: fetches less than 1 s apart belong to one.
	var batches [][]float64
	for i, f := range st.Fetches {
		if i == 0 || f.At-st.Fetches[i-1].At > 1000 {
			batches = append(batches, nil)
		}
		batches[len(batches)-1] = append(batches[len(batches)-1], f.At)
	}
	const tolerance = 1500.0
	if d := batches[0][0] - st.Queued; d < 3000 || d > 3000+tolerance {
		t.Errorf("first batch %.0f ms after the first link was queued, want 3000 (+%v)", d, tolerance)
	}
	for i, b := range batches {
		if len(b) > 4 {
			t.Errorf("batch %d has %d fetches, want at most 4", i, len(b))
		}
		if i > 0 {
			// A batch runs when the browser is idle (at most 1 s later).
			if d := b[0] - batches[i-1][0]; d < 3000 || d > 4000+tolerance {
				t.Errorf("batch %d came %.0f ms after the one before, want 3000 (+ idle wait)", i, d)
			}
		}
	}
	if len(batches) < 2 {
		t.Errorf("prefetches %v: want two batches", batches)
	}
	seen := map[string]bool{}
	for _, f := range st.Fetches {
		if seen[f.URL] {
			t.Errorf("%s prefetched twice", f.URL)
		}
		seen[f.URL] = true
	}
	// A click on a prefetched link makes no new request.
	target := strings.TrimSuffix(strings.TrimPrefix(st.Fetches[0].URL, "/page-data"), "page-data.json")
	m := rs.srv.mark()
	rs.clickTo(tb, target, "", "")
	rs.waitNav(tb, 1, target)
	if got := paths(rs.srv.since(m, "/page-data"+target)); len(got) != 0 {
		t.Errorf("click on prefetched %s requested %v", target, got)
	}
	// A fresh tab (and time budget) for the next part.
	tb.release()
	tb = rs.open(t, tabOptions{consent: "reject"})
	// Hover loads at once, before any batch; focus too.
	rs.load(tb, "", "/en/grants/")
	m = rs.srv.mark()
	jsEval[bool](tb, `(() => { const a = document.createElement('a'); a.id = 'rt-hover'; a.href = '/en/ebooks/'; a.textContent = 'hover me';
	  a.style.cssText = 'position:fixed;top:200px;left:200px;z-index:9999;background:#fff;padding:8px'; document.body.append(a); return true; })()`)
	tb.do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: 230, Y: 215})
		return err
	}))
	rs.waitReq(t, m, "/page-data/en/ebooks/", 1)
	tb.waitJS(`performance.getEntriesByType('resource').some((e) => e.name.includes('/page-data/en/ebooks/'))`, 3*time.Second, "the hover prefetch to end")
	if q := jsEval[float64](tb, `(performance.getEntriesByName('sg-prefetch-queued')[0] || {}).startTime || 0`); q > 0 {
		at := jsEval[float64](tb, `performance.getEntriesByType('resource').find((e) => e.name.includes('/page-data/en/ebooks/')).startTime`)
		if at > q+3000 {
			t.Errorf("hover prefetch came %.0f ms after the queue started: it waited for a batch", at-q)
		}
	}
	// Links that appear with a swap are observed: the blog list's posts.
	rs.clickTo(tb, "/en/blog/", "", "")
	rs.waitNav(tb, 1, "/en/blog/")
	fresh := jsEval[[]string](tb, `[...document.querySelectorAll('main a[href^="/en/blog/"]')].filter((a) => {
	  const r = a.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight && r.width > 0; })
	  .map((a) => new URL(a.href).pathname).filter((p) => p !== '/en/blog/' &&
	  !performance.getEntriesByType('resource').some((e) => e.name.includes('/page-data' + p)))`)
	if len(fresh) == 0 {
		t.Fatal("the blog list shows no post link in the viewport")
	}
	m = rs.srv.mark()
	if err := tb.poll(`performance.getEntriesByType('resource').some((e) => e.name.includes('/page-data' + `+jsStr(fresh[0])+`))`, 15*time.Second); err != nil {
		t.Errorf("a post link that came with the swap (%s) was not prefetched: %v; page data since: %v", fresh[0], err, paths(rs.srv.since(m, "/page-data/")))
	}
	tb.checkNoErrors()
}

func (rs *runtimeSuite) testPrefetchOff(t *testing.T) {
	cases := []struct {
		name  string
		setup func(tb *tab)
	}{
		{"saveData", func(tb *tab) {
			on := true
			tb.do(cdpDo(emulation.SetDataSaverOverride, emulation.SetDataSaverOverrideParams{DataSaverEnabled: &on}))
		}},
		{"2g", func(tb *tab) { emulate2G(tb) }},
		{"bot", func(tb *tab) {
			tb.do(cdpDo(emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := rs.open(t, tabOptions{consent: "reject"})
			c.setup(tb)
			if c.name == "2g" {
				// Every request waits out a 2G round trip: load with a
				// budget for it, then lift the emulation (the runtime
				// decided at start; what follows must not wait for it).
				if _, err := chromedp.Run(tb.ctx, chromedp.NavigateResponse(rs.base+"/en/")); err != nil {
					t.Fatal(err)
				}
				tb.waitJS(`document.documentElement.dataset.sgPrefetch`, 60*time.Second, "the runtime to start prefetch on a 2G network")
				clearNetworkEmulation(tb)
				if !hasEffectiveType(tb, "2g") {
					// The browser applied neither method: the page is told
					// of a 2G network by a stand-in for navigator.connection.
					connectionStandIn(tb, "2g")
					if _, err := chromedp.Run(tb.ctx, chromedp.NavigateResponse(rs.base+"/en/")); err != nil {
						t.Fatal(err)
					}
					if !hasEffectiveType(tb, "2g") {
						t.Fatal("precondition: the stand-in for navigator.connection does not say 2g")
					}
				}
				tb.waitJS(`document.documentElement.dataset.sgBuild`, 10*time.Second, "the runtime to check the build")
			} else {
				rs.load(tb, "", "/en/")
			}
			if got := jsEval[string](tb, `document.documentElement.dataset.sgPrefetch`); got != "off" {
				t.Fatalf("prefetch is %q, want off", got)
			}
			// Hover does not load either: the click is the first request.
			m := rs.srv.mark()
			rs.clickTo(tb, "/en/grants/", "", "")
			rs.waitNav(tb, 1, "/en/grants/")
			if got := paths(rs.srv.since(m, "/page-data/")); len(got) != 1 {
				t.Errorf("with prefetch off, hovering and clicking a link requested %v, want only the click's page data", got)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// 5. After navigation

func (rs *runtimeSuite) testAfterNavigation(t *testing.T) {
	tb := rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", "/en/")
	scrollTo := func(y int) {
		jsEval[bool](tb, fmt.Sprintf(`(scrollTo(0, %d), true)`, y))
		tb.waitJS(fmt.Sprintf(`Math.abs(scrollY - %d) < 2`, y), 2*time.Second, "scroll to %d", y)
		// The position is saved on the next animation frame.
		jsEval[bool](tb, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	}
	scrollY := func() int { return jsEval[int](tb, `Math.round(scrollY)`) }
	announced := func() string { return jsEval[string](tb, `window.__rt.announced.at(-1) || ''`) }

	// A: /en/ at 900; B: grants at 0; A again at 400 (a separate entry); B.
	scrollTo(900)
	rs.clickTo(tb, "/en/grants/", "", "")
	rs.waitNav(tb, 1, "/en/grants/")
	if y := scrollY(); y != 0 {
		t.Errorf("a new navigation starts at %d, want the top", y)
	}
	h1 := jsEval[string](tb, `document.querySelector('main h1').textContent.trim()`)
	tb.waitJS(`window.__rt.announced.at(-1)`, 5*time.Second, "the announcement")
	if a := announced(); a != "Navigated to "+h1 {
		t.Errorf("announcer says %q, want %q", a, "Navigated to "+h1)
	}
	if f := jsEval[string](tb, `document.activeElement.tagName`); f != "MAIN" {
		t.Errorf("focus after navigation is on %s, want <main>", f)
	}
	if attrs := jsEval[string](tb, `(() => { const a = document.getElementById('sg-announcer'); return a.getAttribute('aria-live') + ' ' + a.getAttribute('aria-atomic'); })()`); attrs != "assertive true" {
		t.Errorf("announcer aria-live aria-atomic: %s", attrs)
	}
	rs.clickTo(tb, "/en/", "", "")
	rs.waitNav(tb, 2, "/en/")
	scrollTo(400)
	rs.clickTo(tb, "/en/grants/", "", "")
	rs.waitNav(tb, 3, "/en/grants/")
	// The same text again is announced again: cleared, then set.
	tb.waitJS(`window.__rt.announced.at(-1) === `+jsStr("Navigated to "+h1), 5*time.Second, "the repeated announcement")
	if seq := jsEval[[]string](tb, `window.__rt.announced`); len(seq) < 2 || seq[len(seq)-2] != "" {
		t.Errorf("announcer texts %q: a repeated text must follow an empty one to be announced again", seq)
	}
	tb.do(chromedp.NavigateBack())
	rs.waitNav(tb, 4, "/en/")
	if y := scrollY(); y < 395 || y > 405 {
		t.Errorf("back to the second visit of /en/ restores %d, want 400", y)
	}
	tb.do(chromedp.NavigateBack())
	rs.waitNav(tb, 5, "/en/grants/")
	tb.do(chromedp.NavigateBack())
	rs.waitNav(tb, 6, "/en/")
	if y := scrollY(); y < 895 || y > 905 {
		t.Errorf("back to the first visit of /en/ restores %d, want 900", y)
	}
	tb.do(chromedp.NavigateForward())
	rs.waitNav(tb, 7, "/en/grants/")
	if y := scrollY(); y != 0 {
		t.Errorf("forward to grants restores %d, want 0", y)
	}

	// A fresh tab (and time budget) for the next part.
	tb.release()
	tb = rs.open(t, tabOptions{consent: "reject"})
	rs.load(tb, "", "/en/")
	// A #hash scrolls to its element; a same-page hash link loads nothing.
	rs.clickTo(tb, "/en/about-us/contact/#demo-form", "", "")
	rs.waitNav(tb, 1, "/en/about-us/contact/")
	tb.waitJS(`Math.abs(document.getElementById('demo-form').getBoundingClientRect().top) < 150`, 2*time.Second, "#demo-form at the top of the viewport")
	m := rs.srv.mark()
	jsEval[bool](tb, `(scrollTo(0, 0), true)`)
	rs.clickTo(tb, "#demo-form", "", "")
	tb.waitJS(`location.hash === '#demo-form' && Math.abs(document.getElementById('demo-form').getBoundingClientRect().top) < 150`, 5*time.Second, "the same-page hash link to scroll")
	// No full load and no swap: no document, no page data of this page and
	// no runtime navigation. (Scrolling may load lazy images and island
	// code, and prefetch the page data of links that come into view: not a
	// page load.)
	if got := append(rs.documents(m), paths(rs.srv.since(m, "/page-data/en/about-us/contact/"))...); len(got) != 0 {
		t.Errorf("a same-page hash link requested %v", got)
	}
	if n := jsEval[int](tb, `window.__rt.navs.length`); n != 1 {
		t.Errorf("a same-page hash link made a runtime navigation: %d navigations, want 1", n)
	}

	// Polish pages announce in Polish.
	rs.clickTo(tb, "/pl/o-nas/kontakt/", "", "")
	rs.waitNav(tb, 2, "/pl/o-nas/kontakt/")
	plH1 := jsEval[string](tb, `document.querySelector('main h1').textContent.trim()`)
	tb.waitJS(`window.__rt.announced.at(-1) === `+jsStr("Przeniesiono na stronę "+plH1), 2*time.Second, "the Polish announcement (got %q)", announced())

	// A slow load shows the progress bar after 1 s, and removes it.
	rs.srv.inject(t, &fault{match: pathIs("/page-data/pl/blog/page-data.json"), delay: 1800 * time.Millisecond})
	jsEval[bool](tb, `(() => { window.__rtBar = 0; new MutationObserver(() => { if (document.getElementById('sg-progress') && !window.__rtBar) window.__rtBar = performance.now(); }).observe(document.body, { childList: true }); window.__rtClick = performance.now(); return true; })()`)
	rs.clickTo(tb, "/pl/blog/", "", "")
	rs.waitNav(tb, 3, "/pl/blog/")
	delay := jsEval[float64](tb, `window.__rtBar ? window.__rtBar - window.__rtClick : -1`)
	if delay < 1000 || delay > 1700 {
		t.Errorf("progress bar shown %.0f ms after the click, want after 1000 ms (and before the 1800 ms load ends)", delay)
	}
	if jsEval[bool](tb, `!!document.getElementById('sg-progress')`) {
		t.Error("the progress bar stays after the load")
	}
	// A fast load shows none.
	jsEval[bool](tb, `(window.__rtBar = 0, true)`)
	rs.clickTo(tb, "/pl/", "", "")
	rs.waitNav(tb, 4, "/pl/")
	if jsEval[float64](tb, `window.__rtBar`) != 0 {
		t.Error("a fast load showed the progress bar")
	}
	tb.checkNoErrors()
}

// ---------------------------------------------------------------------------
// 6. Service worker

func (rs *runtimeSuite) testServiceWorker(t *testing.T) {
	controlled := `navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'`
	t.Run("offline", func(t *testing.T) {
		tb := rs.open(t, tabOptions{consent: "reject"})
		rs.load(tb, "", "/pl/")
		tb.waitJS(controlled, 10*time.Second, "the service worker to control the page")
		caches := jsEval[[]string](tb, `caches.open('sg-pages').then((c) => c.keys()).then((ks) => ks.map((k) => new URL(k.url).pathname))`)
		if !brContains(caches, "/pl/offline/") || !brContains(caches, "/en/offline/") {
			t.Errorf("offline pages cached at install: %v", caches)
		}
		// Visit a page (network first: cached), then the network drops.
		rs.load(tb, "", "/pl/hirebot/")
		rs.srv.inject(t, &fault{match: func(*http.Request) bool { return true }, drop: true})
		m := rs.srv.mark()
		// A visited page comes from the cache, with its fingerprinted CSS.
		rs.load(tb, "", "/pl/hirebot/")
		if !jsEval[bool](tb, `[...document.styleSheets].some((s) => { try { return s.cssRules.length > 10; } catch (e) { return false; } })`) {
			t.Error("offline, the cached page has no stylesheet (assets are not cache-first)")
		}
		for _, r := range rs.srv.since(m, "/_assets/") {
			t.Errorf("offline, an asset went to the network: %s", r.URL())
		}
		// A page never visited: the locale's offline page.
		for _, c := range []struct{ path, h1 string }{{"/pl/regulamin/", "Jesteś offline"}, {"/en/terms/", "You are offline"}} {
			if _, err := chromedp.Run(tb.ctx, chromedp.Navigate(rs.base+c.path)); err != nil {
				t.Fatal(err)
			}
			tb.waitJS(`document.querySelector('h1') && document.querySelector('h1').textContent.trim() === `+jsStr(c.h1), 5*time.Second, "the offline page for %s", c.path)
		}
		// A swap while offline falls back to a full load, which the worker
		// answers with the offline page.
		rs.srv.clear()
		rs.load(tb, "", "/en/")
		tb.waitJS(controlled, 5*time.Second, "control")
		rs.srv.inject(t, &fault{match: func(*http.Request) bool { return true }, drop: true})
		rs.clickTo(tb, "/en/grants/", "", "")
		tb.waitJS(`location.pathname === '/en/grants/' && document.querySelector('h1') && document.querySelector('h1').textContent.trim() === 'You are offline'`, 10*time.Second, "the offline page after a failed swap")
	})
	t.Run("update makes the next navigation a full load", func(t *testing.T) {
		tb := rs.open(t, tabOptions{consent: "reject"})
		rs.load(tb, "", "/en/")
		tb.waitJS(controlled, 10*time.Second, "the service worker to control the page")
		sw, err := os.ReadFile(filepath.Join(rs.out, "sw.js"))
		if err != nil {
			t.Fatal(err)
		}
		rs.srv.inject(t, &fault{match: pathIs("/sw.js"), body: string(sw) + "\n// a new build\n"})
		jsEval[bool](tb, `navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`)
		tb.waitJS(`'sgUpdated' in document.documentElement.dataset`, 10*time.Second, "the runtime to see the update installed")
		m := rs.srv.mark()
		rs.clickTo(tb, "/en/grants/", "", "")
		tb.waitJS(`location.pathname === '/en/grants/' && !window.__rt.navs.length && document.readyState === 'complete'`, 8*time.Second, "a full load after the update")
		if docs := rs.documents(m); len(docs) != 1 {
			t.Errorf("after a worker update the navigation made HTML requests %v, want one full load", docs)
		}
		tb.checkNoErrors()
	})
	t.Run("retire", func(t *testing.T) {
		tb := rs.open(t, tabOptions{consent: "reject"})
		rs.load(tb, "", "/en/")
		tb.waitJS(controlled, 10*time.Second, "the service worker to control the page")
		jsEval[bool](tb, `window.__beforeRetire = true`) // gone once the page is reloaded
		retire, err := assets.Worker("..", assets.WorkerOptions{Minify: true, Retire: true})
		if err != nil {
			t.Fatal(err)
		}
		rs.srv.inject(t, &fault{match: pathIs("/sw.js"), body: string(retire)})
		// The pages of a retiring build say so (serviceWorker.retire): their
		// runtime registers no worker.
		rs.srv.inject(t, &fault{match: func(r *http.Request) bool { return !strings.Contains(r.URL.Path, ".") }, edit: func(b []byte) []byte {
			return bytes.Replace(b, []byte(`<meta name="sitegen-build"`), []byte(`<meta name="sitegen-sw" content="retire"><meta name="sitegen-build"`), 1)
		}})
		jsEval[bool](tb, `navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true, () => true)`)
		tb.waitJS(`navigator.serviceWorker.getRegistrations().then((rs) => rs.length === 0)`, 10*time.Second, "the retiring worker to unregister")
		tb.waitJS(`caches.keys().then((ks) => ks.filter((k) => k.startsWith('sg-')).length === 0)`, 5*time.Second, "the caches to be deleted")
		// It then reloads the page it controlled (sw-retire.js): wait for
		// that reload, which would otherwise cut into the next navigation.
		tb.waitJS(`!window.__beforeRetire && document.readyState === 'complete' && !navigator.serviceWorker.controller`, 10*time.Second, "the retiring worker to reload the page it controlled")
		// The next load has no worker and comes from the network.
		rs.load(tb, "", "/en/grants/")
		m := rs.srv.mark()
		rs.load(tb, "", "/en/events/")
		if jsEval[bool](tb, `!!navigator.serviceWorker.controller`) {
			t.Error("after retiring, a page load is still controlled by a worker")
		}
		if docs := rs.documents(m); len(docs) != 1 {
			t.Errorf("after retiring, a page load made HTML requests %v, want one from the network", docs)
		}
	})
	t.Run("insecure context", func(t *testing.T) {
		tb := rs.open(t, tabOptions{consent: "reject"})
		rs.load(tb, rs.insecure, "/en/")
		tb.waitJS(`!window.isSecureContext`, 5*time.Second, "an insecure context")
		tb.mu.Lock()
		errs := append([]string(nil), tb.errs...)
		tb.errs = nil
		tb.mu.Unlock()
		want := `console.error: "Service workers can only be used over HTTPS, or on localhost for development"`
		if len(errs) != 1 || errs[0] != want {
			t.Errorf("console errors over http: %q, want %q", errs, want)
		}
		if n := jsEval[int](tb, `navigator.serviceWorker ? navigator.serviceWorker.getRegistrations().then((r) => r.length) : 0`); n != 0 {
			t.Errorf("%d workers registered over http", n)
		}
	})
}

// ---------------------------------------------------------------------------
// 7. Consent and analytics

func (rs *runtimeSuite) testConsent(t *testing.T) {
	tagReqs := func(since int) []string { return rs.tags.requests()[since:] }
	t.Run("no ids configured", func(t *testing.T) {
		tb := rs.open(t, tabOptions{})
		before := len(rs.tags.requests())
		rs.load(tb, rs.untracked, "/en/")
		tb.waitJS(`document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]') && !document.querySelector('.consent-banner').hidden`, 5*time.Second, "the banner")
		tb.click(".consent-banner__button--accept")
		tb.waitJS(`localStorage.getItem('sg-consent') === 'accept'`, 2*time.Second, "the choice")
		rs.clickTo(tb, "/en/grants/", "", "")
		rs.waitNav(tb, 1, "/en/grants/")
		if got := tagReqs(before); len(got) != 0 {
			t.Errorf("with no IDs configured the tag host was asked %v", got)
		}
		if jsEval[bool](tb, `'dataLayer' in window || !!document.querySelector('script[src*="googletagmanager"]') || document.cookie !== ''`) {
			t.Error("with no IDs configured a data layer, a tag script or a cookie exists")
		}
		if jsEval[bool](tb, `!!document.querySelector('meta[name=sitegen-analytics]')`) {
			t.Error("the page names analytics IDs although none is configured")
		}
		tb.checkNoErrors()
	})
	t.Run("accept, remember, withdraw", func(t *testing.T) {
		tb := rs.open(t, tabOptions{})
		before := len(rs.tags.requests())
		// The main site, with the company's IDs from site.yaml.
		rs.load(tb, rs.base, "/en/")
		tb.waitJS(`document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]') && !document.querySelector('.consent-banner').hidden`, 5*time.Second, "the banner")
		if got := tagReqs(before); len(got) != 0 || jsEval[bool](tb, `'dataLayer' in window`) {
			t.Fatalf("before consent: tag requests %v, dataLayer %v", got, jsEval[bool](tb, `'dataLayer' in window`))
		}
		tb.click(".consent-banner__button--accept")
		tb.waitJS(`(window.__tagStandIn || []).length === 2`, 5*time.Second, "both tags to load after accept")
		got := tagReqs(before)
		sort.Strings(got)
		if want := "/gtag/js?id=" + url.QueryEscape(rs.tagIDs.Params["ga"]) + " /gtm.js?id=" + url.QueryEscape(rs.tagIDs.Params["gtm"]); strings.Join(got, " ") != want {
			t.Errorf("tag requests after accept: %v", got)
		}
		// Route-change events: the first render, then 50 ms after each swap.
		tb.waitJS(`dataLayer.filter((e) => e.event === 'gatsby-route-change').length === 1`, 2*time.Second, "the first route-change event")
		jsEval[bool](tb, `(() => { const p = dataLayer.push.bind(dataLayer); window.__rtPush = []; dataLayer.push = (...a) => { a.forEach((e) => e && e.event && window.__rtPush.push({ event: e.event, at: performance.now() })); return p(...a); };
		  window.__rtInputs = []; for (const k of ['keydown', 'pointerdown', 'click']) addEventListener(k, () => window.__rtInputs.push(performance.now()), true); return true; })()`)
		rs.clickTo(tb, "/en/grants/", "", "")
		rs.waitNav(tb, 1, "/en/grants/")
		tb.waitJS(`window.__rtPush.some((e) => e.event === 'gatsby-route-change')`, 2*time.Second, "the route-change event after a swap")
		d := jsEval[float64](tb, `window.__rtPush.find((e) => e.event === 'gatsby-route-change').at - window.__rt.navs[0].at`)
		if d < 45 || d > 500 {
			t.Errorf("route-change event %.0f ms after the route change, want 50", d)
		}
		// Web vitals: LCP once an input ends it, debounced 3 s, once.
		tb.do(chromedp.KeyEvent("a"))
		tb.waitJS(`dataLayer.some((e) => e.event === 'core-web-vitals' && e.webVitalsMeasurement.name === 'LCP')`, 8*time.Second, "the LCP measurement in the data layer")
		// The first input since the swap (its pointerdown, or the key if web-vitals was
		// not listening yet) ends LCP and web-vitals reports it then or later; the push
		// comes 3 s after the report, so at least 3 s after that first input. (The last
		// input is not the mark: the key comes after the swap's click ended LCP, and
		// under load more than 100 ms after it.)
		if d := jsEval[float64](tb, `(() => { const at = window.__rtPush.find((e) => e.event === 'core-web-vitals').at;
		  return at - Math.min(...window.__rtInputs.filter((i) => i < at)); })()`); d < 2990 {
			t.Errorf("the first web-vitals event came %.0f ms after the first input that could end LCP, want it debounced 3 s", d)
		}
		v := jsEval[map[string]any](tb, `(() => { const e = dataLayer.filter((e) => e.event === 'core-web-vitals' && e.webVitalsMeasurement.name === 'LCP'); return { n: e.length, v: e[0].webVitalsMeasurement.value, id: e[0].webVitalsMeasurement.id }; })()`)
		if v["n"].(float64) != 1 || v["id"] == "" || v["v"].(float64) != float64(int(v["v"].(float64))) {
			t.Errorf("LCP pushes %v: want one, with an id and a rounded value", v)
		}
		// Remembered: the next page load loads the tags without a click.
		before = len(rs.tags.requests())
		rs.load(tb, rs.base, "/en/grants/")
		tb.waitJS(`(window.__tagStandIn || []).length === 2`, 5*time.Second, "the tags on the next load")
		// Withdrawn from the footer: the page reloads without tags.
		tb.waitJS(`isVisible(document.querySelector('[data-consent-open]'))`, 4*time.Second, "the footer's cookie settings button")
		tb.click("[data-consent-open]")
		tb.waitJS(`!document.querySelector('.consent-banner').hidden`, 2*time.Second, "the banner to reopen")
		jsEval[bool](tb, `(window.__old = 1, true)`)
		before = len(rs.tags.requests())
		tb.click(".consent-banner__button--reject")
		tb.waitJS(`!window.__old && document.documentElement.dataset.sgBuild && localStorage.getItem('sg-consent') === 'reject'`, 5*time.Second, "the reload after withdrawing")
		if got := tagReqs(before); len(got) != 0 || jsEval[bool](tb, `!!window.__tagStandIn || 'dataLayer' in window`) {
			t.Errorf("after withdrawing consent: tag requests %v", got)
		}
		tb.checkNoErrors()
	})
}

// TestCookiePolicyKeys: the cookie policy in both languages lists exactly
// the storage keys and caches the runtime uses (assets/runtime/keys.js).
func TestCookiePolicyKeys(t *testing.T) {
	src, err := os.ReadFile("../assets/runtime/keys.js")
	if err != nil {
		t.Fatal(err)
	}
	keyRE := regexp.MustCompile(`'(sg-[a-z-]+)'`)
	var keys []string
	for _, m := range keyRE.FindAllStringSubmatch(string(src), -1) {
		keys = append(keys, m[1])
	}
	sort.Strings(keys)
	if len(keys) < 4 {
		t.Fatalf("keys.js lists %v", keys)
	}
	for _, f := range []string{"../content/en/cookies-policy.md", "../content/pl/polityka-cookies.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		set := map[string]bool{}
		for _, m := range regexp.MustCompile("`(sg-[a-z-]+)`").FindAllStringSubmatch(string(b), -1) {
			set[m[1]] = true
		}
		var listed []string
		for k := range set {
			listed = append(listed, k)
		}
		sort.Strings(listed)
		if strings.Join(listed, " ") != strings.Join(keys, " ") {
			t.Errorf("%s lists %v; the runtime stores %v", f, listed, keys)
		}
	}
}

// storedKeys is every name the page's origin stores: local and session
// storage keys, cache names and cookie names.
const storedKeys = `(async () => [...Object.keys(localStorage), ...Object.keys(sessionStorage), ...(await caches.keys()),
  ...document.cookie.split(';').map((c) => c.split('=')[0].trim()).filter(Boolean)])()`

// ---------------------------------------------------------------------------
// 8. Top bar

// startRecorder records the runtime's performance.mark('sg:start:NAME')
// marks, each with the number of the task it ran in: a mark opens a new one
// unless one is open, and the microtask it queues closes it. Microtasks run
// only when the script stack is empty, at the end of a task (or of a
// callback): two marks in one synchronous run share a number.
const startRecorder = `(() => {
  const rec = { marks: [], tasks: 0 };
  Object.defineProperty(window, '__starts', { value: rec });
  let open = false;
  const mark = performance.mark;
  performance.mark = function (name, ...rest) {
    if (typeof name === 'string' && name.startsWith('sg:start:')) {
      if (!open) {
        open = true;
        rec.tasks++;
        queueMicrotask(() => (open = false));
      }
      rec.marks.push({ name: name.slice(9), task: rec.tasks });
    }
    return mark.call(this, name, ...rest);
  };
})();`

// testStartTasks checks that the runtime starts its parts (issue 11) in
// separate tasks, in order: one task for all was a long task counted into
// Total Blocking Time. No timing: microtask checkpoints between marks.
func (rs *runtimeSuite) testStartTasks(t *testing.T) {
	tb := rs.open(t, tabOptions{consent: "reject"}, startRecorder)
	rs.load(tb, "", "/en/")
	type mark struct {
		Name string `json:"name"`
		Task int    `json:"task"`
	}
	// load waited for the build check, the last part to start.
	marks := jsEval[[]mark](tb, `window.__starts.marks`)
	var names []string
	for _, m := range marks {
		names = append(names, m.Name)
	}
	if want := "navigation prefetch analytics worker build resources"; strings.Join(names, " ") != want {
		t.Fatalf("start marks %q, want %q in that order", names, want)
	}
	for i := 1; i < len(marks); i++ {
		if marks[i].Task == marks[i-1].Task {
			t.Errorf("%s started in the same task as %s (marks %+v)", marks[i].Name, marks[i-1].Name, marks)
		}
	}
}

func (rs *runtimeSuite) testTopbar(t *testing.T) {
	visible := `(() => { const b = document.querySelector('.topbar'); return !!b && !b.hidden && isVisible(b); })()`
	fakeDate := func(day string) string {
		return `(() => { const off = new Date('` + day + `T12:00:00').getTime() - Date.now(); const D = Date;
		  window.Date = class extends D { constructor(...a) { super(...(a.length ? a : [D.now() + off])); } static now() { return D.now() + off; } }; })();`
	}
	for _, c := range []struct {
		name, origin, day string
		noJS, js          bool
	}{
		// The main site is built on 2026-08-15, inside 2026-08-10..09-21.
		{"built inside, visitor after", rs.base, "2026-09-22", true, false},
		{"built inside, visitor inside", rs.base, "2026-09-21", true, true},
		// The untracked variant is built on 2026-07-01, before the window.
		{"built before, visitor inside", rs.untracked, "2026-08-10", false, true},
		{"built before, visitor before", rs.untracked, "2026-08-09", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := rs.open(t, tabOptions{noScript: true, consent: "reject"})
			if _, err := chromedp.Run(tb.ctx, chromedp.Navigate(c.origin+"/en/")); err != nil {
				t.Fatal(err)
			}
			if got := jsEval[bool](tb, visible); got != c.noJS {
				t.Errorf("without JavaScript the top bar shows: %v, want %v", got, c.noJS)
			}
			tb.release()
			tb = rs.open(t, tabOptions{consent: "reject"}, fakeDate(c.day))
			rs.load(tb, c.origin, "/en/")
			if got := jsEval[bool](tb, visible); got != c.js {
				t.Errorf("on %s the top bar shows: %v, want %v", c.day, got, c.js)
			}
			// After a swap to the other locale (a new header slice) too.
			tb.click(`header .lang-switch a[hreflang=pl]`)
			rs.waitNav(tb, 1, "/pl/")
			if got := jsEval[bool](tb, visible); got != c.js {
				t.Errorf("on %s after a locale swap the top bar shows: %v, want %v", c.day, got, c.js)
			}
			tb.checkNoErrors()
		})
	}
}

// ---------------------------------------------------------------------------
// Every page without the runtime: it fails to load, pages still work and
// links are plain full loads.

func (rs *runtimeSuite) testRuntimeFailing(t *testing.T) {
	rs.srv.inject(t, &fault{match: func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/_assets/runtime-") }, status: 500})
	tb := rs.open(t, tabOptions{consent: "reject"})
	// The runtime is cached forever (fingerprinted): ask the network.
	tb.do(cdpDo(network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}))
	t.Cleanup(func() {
		chromedp.Do(tb.base, cdpDo(network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: false}))
	})
	for _, bp := range rs.pageList(t) {
		if _, err := chromedp.Run(tb.ctx, chromedp.Navigate(rs.base+bp.path)); err != nil {
			t.Fatal(err)
		}
		tb.waitJS(`document.readyState === 'complete' && isVisible(document.querySelector('main h1'))`, 5*time.Second, "%s to show without the runtime", bp.path)
		if jsEval[bool](tb, `!!document.documentElement.dataset.sgBuild`) {
			t.Fatalf("%s: the runtime ran although it failed to load", bp.path)
		}
	}
	m := rs.srv.mark()
	rs.clickTo(tb, "/en/grants/", "", "")
	tb.waitJS(`location.pathname === '/en/grants/' && document.readyState === 'complete'`, 5*time.Second, "a plain link to load")
	if docs := rs.documents(m); len(docs) != 1 {
		t.Errorf("without the runtime a link made HTML requests %v", docs)
	}
	tb.checkNoErrors()
}

// ---------------------------------------------------------------------------
// Screenshots of a swap at both widths (open the PNGs to look).

func (rs *runtimeSuite) testScreenshots(t *testing.T) {
	dir := os.Getenv("SITEGEN_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, w := range []int64{mobileWidth, desktopWidth} {
		// A subtest per width: its cleanup removes the first tab's service
		// worker and storage, which would otherwise answer the second tab's
		// page data from cache (no delay, so no progress bar).
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			tb := rs.open(t, tabOptions{width: w, consent: "reject"})
			rs.load(tb, "", "/pl/")
			rs.srv.inject(t, &fault{match: pathIs("/page-data/en/page-data.json"), delay: 2500 * time.Millisecond, times: 1})
			tb.click(`header .lang-switch a[hreflang=en]`)
			tb.waitJS(`document.getElementById('sg-progress')`, 5*time.Second, "the progress bar")
			during, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			rs.waitNav(tb, 1, "/en/")
			after, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			for name, b := range map[string][]byte{"during": during, "after": after} {
				f := filepath.Join(dir, fmt.Sprintf("swap-%s-%d.png", name, w))
				if err := os.WriteFile(f, b, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("screenshot %s", f)
			}
			if keys := jsEval[[]string](tb, storedKeys); true {
				for _, k := range keys {
					if !regexp.MustCompile(`^sg-(consent|fonts|scroll|reload|pages|assets)$`).MatchString(k) {
						t.Errorf("the site stored %q, which the cookie policy does not list", k)
					}
				}
			}
			tb.checkNoErrors()
			tb.release()
		})
	}
}

// pageDataBeforeHTML lists the requests of p's page data made before the
// first request of p's HTML.
func pageDataBeforeHTML(reqs []rtReq, p string) []rtReq {
	var out []rtReq
	for _, r := range reqs {
		if r.Method == "GET" && r.Path == p {
			break
		}
		if strings.HasPrefix(r.Path, "/page-data"+p) {
			out = append(out, r)
		}
	}
	return out
}
