package sitetest

// The polyglot fixture (testdata/sites/polyglot: English, German and
// Japanese with Japanese slugs) in headless Chromium, with this repository's
// client runtime (assets/runtime, docs/runtime.md) copied in, built and
// served as a host serves it: swaps to Japanese pages with percent-encoded
// URLs and back, the Japanese 404, an alias, and the search island.
//
//	SITEGEN_BROWSER=1 go test -tags=nodynamic ./sitetest -run TestPolyglotBrowser -v
//
// SITEGEN_SCREENSHOTS=DIR keeps the screenshots of the search island open
// with results at 390 and 1280 px (search-390.png, search-1280.png).

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sitegen/pkg/build"
	"sitegen/pkg/hosting"
)

const polyglotDir = "../testdata/sites/polyglot"

// buildPolyglot builds the polyglot fixture with this repository's client
// runtime (the fixture has none of its own: without one every link is a
// full load) into a temporary folder.
func buildPolyglot(t *testing.T) (string, *build.Report) {
	t.Helper()
	src := filepath.Join(t.TempDir(), "polyglot")
	if err := os.CopyFS(src, os.DirFS(polyglotDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(src, "assets", "runtime"), os.DirFS("../assets/runtime")); err != nil {
		t.Fatal(err)
	}
	nm, err := filepath.Abs("../node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nm, filepath.Join(src, "node_modules")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	rep, err := build.Run(context.Background(), build.Options{Source: src, Out: out, Date: "2026-03-01", Minify: true})
	if err != nil {
		t.Fatalf("building the polyglot fixture: %v", err)
	}
	return out, rep
}

// enc percent-encodes a site path (upper-case escapes, as the build writes
// URLs; html/template's are lower-case, so pages compare paths decoded).
func enc(p string) string { return (&url.URL{Path: p}).EscapedPath() }

// TestPolyglotSearchIndexNotInPages: the search index is fetched, never
// written into a page: no HTML page, page data or slice names another
// page's summary from it, and the Search island's props are only the
// index's URL, the search page and labels.
func TestPolyglotSearchIndexNotInPages(t *testing.T) {
	out, _ := buildPolyglot(t)
	var index []struct{ Title, URL, Summary string }
	b, err := os.ReadFile(filepath.Join(out, "ja", "search.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &index); err != nil || len(index) < 5 {
		t.Fatalf("ja/search.json: %d pages, %v", len(index), err)
	}
	checked := 0
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".html") || strings.HasPrefix(filepath.ToSlash(p), filepath.ToSlash(filepath.Join(out, "page-data"))) ||
			strings.HasPrefix(filepath.ToSlash(p), filepath.ToSlash(filepath.Join(out, "slice-data")))) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		checked++
		s := string(b)
		// The index as JSON: an entry's url and summary side by side.
		for _, e := range index {
			entry, _ := json.Marshal(map[string]string{"summary": e.Summary, "url": e.URL})
			if strings.Contains(s, string(entry[1:len(entry)-1])) || strings.Contains(s, `"summary":`) {
				t.Errorf("%s holds the search index (%s)", p, entry)
				break
			}
		}
		for _, props := range strings.Split(s, `data-island="Search"`)[1:] {
			_, after, _ := strings.Cut(props, `data-sg-props>`)
			raw, _, _ := strings.Cut(after, `</script>`)
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(raw), &m); err != nil {
				t.Errorf("%s: the Search island's props: %v", p, err)
				continue
			}
			for k := range m {
				if k != "index" && k != "action" && k != "labels" {
					t.Errorf("%s: the Search island has the prop %q (%d bytes)", p, k, len(m[k]))
				}
			}
		}
		return nil
	})
	if err != nil || checked < 50 {
		t.Fatalf("checked %d files: %v", checked, err)
	}
}

func TestPolyglotBrowser(t *testing.T) {
	if os.Getenv("SITEGEN_BROWSER") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run the browser test: install chromium (see .ci/run)")
		}
		t.Skip("set SITEGEN_BROWSER=1 to run the browser test")
	}
	exe := chromiumPath(t)
	out, rep := buildPolyglot(t)
	h, err := hosting.NewHandler(out, []string{"/en", "/de", "/ja"}, rep.RedirectTable, rep.HeaderRules)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	s := &browserSuite{out: out, base: srv.URL, extra: map[string]http.Handler{}, required: map[string]string{}, tabs: make(chan *tab, maxTabs)}
	s.startBrowser(t, exe)
	s.openTabs(t)
	t.Run("Swaps", s.testPolyglotSwaps)
	t.Run("NotFound", s.testPolyglotNotFound)
	t.Run("Alias", s.testPolyglotAlias)
	t.Run("Search", s.testPolyglotSearch)
	t.Run("SearchGerman", s.testPolyglotSearchGerman)
	t.Run("SearchPage", s.testPolyglotSearchPage)
	t.Run("SearchNoJavaScript", s.testPolyglotSearchNoJS)
	t.Run("Screenshots", s.testPolyglotScreenshots)
}

// polyLoad opens a site path in a tab of polyTab and waits for the runtime
// to have started and the islands to have hydrated.
func (s *browserSuite) polyLoad(tb *tab, p string, status int64) {
	tb.t.Helper()
	tb.navigate(p, status)
	tb.waitJS(`document.documentElement.dataset.sgBuild && window.__rt && document.querySelectorAll('sg-island:not([data-hydrated])').length === 0`,
		busyBudget, "the runtime and the islands on %s", p)
}

// documentLoads counts the full page loads the tab has made.
func (tb *tab) documentLoads() int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	n := 0
	for _, l := range tb.loads {
		if l.typ == "Document" {
			n++
		}
	}
	return n
}

// polyPage checks what the page shows after a navigation: its decoded
// path, the language of <html>, the document title and the h1.
func (tb *tab) polyPage(path, lang, title string) {
	tb.t.Helper()
	want := fmt.Sprintf("%s|%s|%s | Polyglot Engineering|%s", path, lang, title, title)
	expr := `[decodeURIComponent(location.pathname), document.documentElement.lang, document.title, document.querySelector('main h1').textContent].join('|')`
	if err := tb.poll(expr+` === `+jsStr(want), busyBudget); err != nil {
		tb.t.Fatalf("the page shows %q, want %q", jsEval[string](tb, expr), want)
	}
}

// swapTo clicks the link to path in sel's scope and waits for the runtime's
// swap to end there.
func (tb *tab) swapTo(sel, path string) {
	tb.t.Helper()
	n := jsEval[int](tb, `window.__rt.navs.length`)
	tb.click(sel)
	tb.waitJS(fmt.Sprintf(`window.__rt.navs.length > %d && decodeURIComponent(window.__rt.navs.at(-1).path) === %s`, n, jsStr(path)), busyBudget,
		"the swap to %s (navigations: %s)", path, jsEval[string](tb, `JSON.stringify(window.__rt.navs)`))
}

// markLink gives the first link matching sel whose path is p the id
// poly-link.
func (tb *tab) markLink(sel, p string) {
	tb.t.Helper()
	if !jsEval[bool](tb, `(() => { const a = Array.from(document.querySelectorAll(`+jsStr(sel)+`)).find((a) => decodeURIComponent(new URL(a.href).pathname) === `+jsStr(p)+`);
  if (a) a.id = 'poly-link'; return !!a; })()`) {
		tb.t.Fatalf("no link %s to %s", sel, p)
	}
}

// polyTab lends a tab with the runtime's navigation recorder.
func (s *browserSuite) polyTab(t *testing.T, o tabOptions) *tab {
	tb := s.newTab(t, o)
	tb.addScript(navRecorder)
	return tb
}

// testPolyglotSwaps: English blog → (language switch) Japanese blog →
// Japanese post, then back twice (history), all swaps: no document is loaded after
// the first, the page data of the Japanese pages is fetched at their
// percent-encoded paths, and the language and title follow each swap.
func (s *browserSuite) testPolyglotSwaps(t *testing.T) {
	tb := s.polyTab(t, tabOptions{})
	s.polyLoad(tb, "/en/blog/", 200)
	tb.polyPage("/en/blog/", "en", "Blog")
	loads := tb.documentLoads()

	tb.swapTo(`header .lang-switch a[hreflang=ja]`, "/ja/ブログ/")
	tb.polyPage("/ja/ブログ/", "ja", "ブログ")
	tb.markLink("main a", "/ja/ブログ/フィード/")
	tb.swapTo(`#poly-link`, "/ja/ブログ/フィード/")
	tb.polyPage("/ja/ブログ/フィード/", "ja", "すべての一覧にフィードを")
	if got := jsEval[string](tb, `window.__sgTest.fetches.map(decodeURIComponent).filter((u) => u.startsWith('/page-data/ja/')).join(' ')`); !strings.Contains(got, "/page-data/ja/ブログ/フィード/page-data.json") {
		t.Errorf("the post's page data was not fetched at its path: %s", got)
	}

	tb.do(chromedp.NavigateBack())
	tb.polyPage("/ja/ブログ/", "ja", "ブログ")
	tb.do(chromedp.NavigateBack())
	tb.polyPage("/en/blog/", "en", "Blog")
	if n := tb.documentLoads(); n != loads {
		t.Errorf("%d full page loads during the swaps, want none: %v", n-loads, tb.requested())
	}
	if navs := jsEval[int](tb, `window.__rt.navs.length`); navs != 4 {
		t.Errorf("%d runtime navigations, want 4", navs)
	}
	tb.checkNoErrors()
}

// testPolyglotNotFound: a missing Japanese URL answers the Japanese 404
// page with status 404, on a full load and on a swap.
func (s *browserSuite) testPolyglotNotFound(t *testing.T) {
	tb := s.polyTab(t, tabOptions{})
	missing := "/ja/ブログ/存在しない/"
	s.polyLoad(tb, "/ja/", 200)
	jsEval[bool](tb, `(() => { const a = document.createElement('a'); a.id = 'missing'; a.href = `+jsStr(enc(missing))+`; a.textContent = 'missing';
  document.querySelector('main').prepend(a); return true; })()`)
	tb.swapTo(`#missing`, missing)
	tb.waitJS(`document.title === 'ページが見つかりません | Polyglot Engineering' && document.querySelector('main h1').textContent === 'ページが見つかりません' && document.documentElement.lang === 'ja'`,
		busyBudget, "the ja 404 page after a swap")
	tb.dropErrors("404")
	tb.checkNoErrors()
	tb.release()

	// A full load: the host answers the ja 404 page with status 404.
	tb = s.polyTab(t, tabOptions{})
	tb.navigate(enc(missing), 404)
	tb.waitJS(`document.documentElement.lang === 'ja' && document.title === 'ページが見つかりません | Polyglot Engineering'`, busyBudget,
		"the ja 404 page (shows %q)", jsEval[string](tb, `document.documentElement.lang + ' ' + document.title`))
}

// testPolyglotAlias: the alias /ja/日記 (content/ja/blog/index.md) leads
// to the Japanese blog: a 301 to its percent-encoded path (escapes compare
// without case, RFC 3986 2.1), and the browser shows it.
func (s *browserSuite) testPolyglotAlias(t *testing.T) {
	tb := s.polyTab(t, tabOptions{})
	s.polyLoad(tb, enc("/ja/日記"), 200)
	tb.polyPage("/ja/ブログ/", "ja", "ブログ")
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(s.base + enc("/ja/日記"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || !strings.EqualFold(resp.Header.Get("Location"), enc("/ja/ブログ/")) {
		t.Errorf("/ja/日記 answers %d to %q, want 301 to %s", resp.StatusCode, resp.Header.Get("Location"), enc("/ja/ブログ/"))
	}
	tb.checkNoErrors()
}

// searchJSON lists the search indexes the tab has fetched.
func (tb *tab) searchJSON() []string {
	var out []string
	for _, u := range tb.requested() {
		if strings.HasSuffix(u, "/search.json") {
			out = append(out, strings.TrimPrefix(u, tb.s.base))
		}
	}
	return out
}

// typeText types text into the focused element as an input method commits
// it (Japanese is not typed key by key).
func (tb *tab) typeText(text string) {
	tb.t.Helper()
	tb.do(cdpDo(input.InsertText, input.InsertTextParams{Text: text}))
}

const searchStatus = `document.getElementById('search-status').textContent`

// testPolyglotSearch: the island fetches its locale's index only when the
// box gets focus, finds a Japanese post by a Japanese word of its title,
// by words of its summary (separated by an ideographic space) and by
// half-width katakana, says the count in its live region, is driven by the
// keyboard, and its result navigates to the post (a swap).
func (s *browserSuite) testPolyglotSearch(t *testing.T) {
	tb := s.polyTab(t, tabOptions{})
	s.polyLoad(tb, "/ja/", 200)
	tb.afterEffects()
	if got := tb.searchJSON(); len(got) != 0 {
		t.Errorf("the index was fetched before the box had focus: %v", got)
	}
	tb.click(`#search-q`)
	tb.waitJS(`document.activeElement.id === 'search-q'`, busyBudget, "focus in the box")
	deadline := time.Now().Add(8 * time.Second)
	for len(tb.searchJSON()) == 0 && time.Now().Before(deadline) {
		time.Sleep(25 * time.Millisecond)
	}
	if got := tb.searchJSON(); len(got) != 1 || got[0] != "/ja/search.json" {
		t.Errorf("indexes fetched on focus: %v, want only /ja/search.json", got)
	}

	post := enc("/ja/ブログ/ウォームビルド/")
	results := `Array.from(document.querySelectorAll('#search-results a')).map((a) => new URL(a.href).pathname + ' ' + a.querySelector('.search__title').textContent).join(', ')`
	for _, q := range []string{"ウォーム", "変わって　省きます", "ｳｫｰﾑ"} {
		jsEval[bool](tb, `(() => { const i = document.getElementById('search-q'); i.select(); return true; })()`)
		tb.typeText(q)
		if err := tb.poll(results+` === `+jsStr(post+" ウォームビルド")+` && `+searchStatus+` === '1 件のページが見つかりました。'`, busyBudget); err != nil {
			t.Fatalf("%q finds %q (%q), want only the post", q, jsEval[string](tb, results), jsEval[string](tb, searchStatus))
		}
	}
	jsEval[bool](tb, `(() => { document.getElementById('search-q').select(); return true; })()`)
	tb.typeText("チーム")
	tb.waitJS(searchStatus+` === '2 件のページが見つかりました。'`, busyBudget, "two pages for チーム (%q: %q)", jsEval[string](tb, searchStatus), jsEval[string](tb, results))
	if live := jsEval[string](tb, `(() => { const s = document.getElementById('search-status'); return s.getAttribute('role') + ' ' + s.getAttribute('aria-live') + ' ' + document.getElementById('search-q').getAttribute('aria-describedby'); })()`); live != "status polite search-status" {
		t.Errorf("the count is not a polite live region that describes the box: %q", live)
	}
	// A match in the title comes before matches in the summary only.
	jsEval[bool](tb, `(() => { document.getElementById('search-q').select(); return true; })()`)
	tb.typeText("の")
	titles := `Array.from(document.querySelectorAll('#search-results .search__title')).map((e) => e.textContent).join(',')`
	tb.waitJS(searchStatus+` === '4 件のページが見つかりました。'`, busyBudget, "four pages for の (%q)", jsEval[string](tb, titles))
	if got := jsEval[string](tb, titles); !strings.HasPrefix(got, "すべての一覧にフィードを,") {
		t.Errorf("results for の: %s, want the page with の in its title first", got)
	}
	jsEval[bool](tb, `(() => { document.getElementById('search-q').select(); return true; })()`)
	tb.typeText("存在しない言葉")
	tb.waitJS(searchStatus+` === 'ページが見つかりません。' && !document.getElementById('search-results')`, busyBudget, "no results")

	// Escape closes the results; the keyboard reaches them and goes back.
	jsEval[bool](tb, `(() => { document.getElementById('search-q').select(); return true; })()`)
	tb.typeText("ウォーム")
	tb.waitJS(`document.getElementById('search-results')`, busyBudget, "the results")
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.waitJS(`!document.getElementById('search-results') && document.activeElement.id === 'search-q'`, busyBudget, "Escape to close")
	tb.typeText("ビルド")
	tb.waitJS(`document.getElementById('search-results')`, busyBudget, "the results again")
	tb.do(chromedp.KeyEvent(kb.ArrowDown))
	tb.waitJS(`document.activeElement.matches('#search-results a')`, busyBudget, "ArrowDown to the first result")
	tb.do(chromedp.KeyEvent(kb.ArrowUp))
	tb.waitJS(`document.activeElement.id === 'search-q'`, busyBudget, "ArrowUp back to the box")
	// Tab out of the results closes them (they would cover what gets focus:
	// a link at the top of the content, under them).
	jsEval[bool](tb, `(() => { const a = document.createElement('a'); a.id = 'under'; a.href = '#under'; a.textContent = 'under';
  document.querySelector('main').prepend(a); return true; })()`)
	tb.do(chromedp.KeyEvent(kb.ArrowDown))
	tb.waitJS(`document.activeElement.matches('#search-results a')`, busyBudget, "ArrowDown to the first result")
	tb.do(chromedp.KeyEvent(kb.Tab))
	tb.waitJS(`!document.getElementById('search-results') && document.activeElement.id === 'under'`, busyBudget, "Tab out of the form to close the results")
	tb.click(`#search-q`)
	tb.waitJS(`document.getElementById('search-results')`, busyBudget, "the results again on focus")
	tb.do(chromedp.KeyEvent(kb.ArrowDown))
	tb.waitJS(`document.activeElement.matches('#search-results a') && new URL(document.activeElement.href).pathname === `+jsStr(post), busyBudget, "the post first")

	// Enter on the result swaps to the post and closes the results.
	n := jsEval[int](tb, `window.__rt.navs.length`)
	loads := tb.documentLoads()
	tb.do(chromedp.KeyEvent(kb.Enter))
	tb.waitJS(fmt.Sprintf(`window.__rt.navs.length > %d`, n), busyBudget, "the swap to the post")
	tb.polyPage("/ja/ブログ/ウォームビルド/", "ja", "ウォームビルド")
	tb.waitJS(`!document.getElementById('search-results')`, busyBudget, "the results to close after the swap")
	if tb.documentLoads() != loads {
		t.Errorf("the result made a full load, not a swap")
	}
	if got := tb.searchJSON(); len(got) != 1 {
		t.Errorf("the index was fetched %d times: %v", len(got), got)
	}
	tb.checkNoErrors()
}

// testPolyglotSearchGerman: on a German page the island fetches the German
// index, and compares without case (Ü finds ü) and with full-width Latin
// folded (ＢＵＩＬＤ finds Build).
func (s *browserSuite) testPolyglotSearchGerman(t *testing.T) {
	tb := s.polyTab(t, tabOptions{})
	s.polyLoad(tb, "/de/", 200)
	tb.click(`#search-q`)
	for _, q := range []string{"ÜBERSPRINGT", "ＢＵＩＬＤ"} {
		jsEval[bool](tb, `(() => { document.getElementById('search-q').select(); return true; })()`)
		tb.typeText(q)
		tb.waitJS(searchStatus+` === '1 Seite gefunden.' && document.querySelector('#search-results .search__title').textContent === 'Warme Builds'`,
			busyBudget, "%s to find Warme Builds (%q)", q, jsEval[string](tb, searchStatus))
	}
	if got := tb.searchJSON(); len(got) != 1 || got[0] != "/de/search.json" {
		t.Errorf("indexes fetched: %v, want only /de/search.json", got)
	}
	tb.checkNoErrors()
}

// testPolyglotSearchPage: the search page with ?q= (the form sent before
// the island hydrated, or a shared link) shows the query's results.
func (s *browserSuite) testPolyglotSearchPage(t *testing.T) {
	tb := s.polyTab(t, tabOptions{})
	s.polyLoad(tb, enc("/ja/検索/")+"?q="+url.QueryEscape("ウォーム"), 200)
	tb.waitJS(`document.getElementById('search-q').value === 'ウォーム' && `+searchStatus+` === '1 件のページが見つかりました。' && document.querySelector('#search-results a')`,
		busyBudget, "the results of ?q= on the search page (%q)", jsEval[string](tb, searchStatus))
	if got := tb.searchJSON(); len(got) != 1 || got[0] != "/ja/search.json" {
		t.Errorf("indexes fetched: %v, want /ja/search.json", got)
	}
	tb.checkNoErrors()
}

// testPolyglotSearchNoJS: without JavaScript the box is a GET form to the
// locale's search page, which lists every page of the locale.
func (s *browserSuite) testPolyglotSearchNoJS(t *testing.T) {
	tb := s.newTab(t, tabOptions{noScript: true})
	tb.navigate("/ja/", 200)
	tb.do(chromedp.Click(chromedp.CSS(`#search-q`)))
	tb.typeText("ウォーム")
	tb.do(chromedp.KeyEvent(kb.Enter))
	want := enc("/ja/検索/") + "?q=" + url.QueryEscape("ウォーム")
	tb.waitJS(`location.pathname + location.search === `+jsStr(want)+` && document.readyState === 'complete'`, busyBudget,
		"the search page (at %s)", jsEval[string](tb, `location.href`))
	if got := jsEval[string](tb, `document.querySelector('main h1').textContent + ' ' + Array.from(document.querySelectorAll('main .all-pages a')).map((a) => a.textContent).join(',')`); !strings.Contains(got, "ウォームビルド") || !strings.HasPrefix(got, "検索 ") {
		t.Errorf("the search page without JavaScript shows %q, want every page, the post among them", got)
	}
	if got := tb.searchJSON(); len(got) != 0 {
		t.Errorf("an index was fetched without JavaScript: %v", got)
	}
}

// testPolyglotScreenshots: the island open with results at both widths.
func (s *browserSuite) testPolyglotScreenshots(t *testing.T) {
	dir := os.Getenv("SITEGEN_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, w := range []int64{mobileWidth, desktopWidth} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			tb := s.polyTab(t, tabOptions{width: w})
			s.polyLoad(tb, "/ja/", 200)
			tb.click(`#search-q`)
			tb.typeText("の")
			tb.waitJS(searchStatus+` === '4 件のページが見つかりました。'`, busyBudget, "four results (%q)", jsEval[string](tb, searchStatus))
			// The results lie over the page, inside the viewport.
			if r := jsEval[[]float64](tb, `(() => { const r = document.getElementById('search-results').getBoundingClientRect(); return [r.left, r.right, innerWidth]; })()`); r[0] < 0 || r[1] > r[2] {
				t.Errorf("the results overflow the viewport: %v", r)
			}
			b, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, fmt.Sprintf("search-%d.png", w))
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot %s", f)
			tb.checkNoErrors()
		})
	}
}

// TestFirefoxPolyglot runs firefox/polyglot.test.mjs (a swap to a Japanese
// page and back, the Japanese 404, the search island) in firefox-esr
// against the polyglot fixture with the repository's runtime.
//
//	SITEGEN_BROWSER=1 go test -tags=nodynamic ./sitetest -run TestFirefoxPolyglot -v
func TestFirefoxPolyglot(t *testing.T) {
	firefoxPath(t) // skip before building when there is no Firefox
	puppeteerPath(t)
	out, rep := buildPolyglot(t)
	h, err := hosting.NewHandler(out, []string{"/en", "/de", "/ja"}, rep.RedirectTable, rep.HeaderRules)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	runFirefoxJourneys(t, "polyglot.test.mjs", srv.URL, 5*time.Minute)
}
