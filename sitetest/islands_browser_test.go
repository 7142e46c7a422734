package sitetest

// Hydration smoke test of the website's islands, rendered side by side on
// one bare page, in headless Chromium (chromedp). It needs a browser, so it
// runs only with SITEGEN_BROWSER=1:
//
//	SITEGEN_BROWSER=1 go test ./sitetest -run TestIslandsBrowserHydration -v

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"sitegen/pkg/islands"
)

func TestIslandsBrowserHydration(t *testing.T) {
	if os.Getenv("SITEGEN_BROWSER") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run the browser test: install chromium (see .ci/run)")
		}
		t.Skip("set SITEGEN_BROWSER=1 to run the browser test")
	}
	t.Run("preact", func(t *testing.T) { islandsHydration(t, siteIslands(t)) })
	t.Run("react", func(t *testing.T) {
		b, err := islands.Build(context.Background(), islands.Options{Root: "..", Library: "react", Minify: true, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		islandsHydration(t, b)
	})
}

func islandsHydration(t *testing.T, b *islands.Bundle) {
	ctx := context.Background()
	var body strings.Builder
	var hydrated []string
	add := func(name, fixture, children string) {
		html, h, err := b.Render(ctx, name, islandProps(t, fixture), "load", children)
		if err != nil {
			t.Fatal(err)
		}
		if h {
			hydrated = append(hydrated, name)
		}
		body.WriteString("<section>" + html + "</section>\n")
	}
	children := islandChildren(t, "ReportTabs.pl.children.html")
	add("MobileMenu", "MobileMenu.pl.json", islandChildren(t, "MobileMenu.pl.children.html"))
	add("RotatingText", "RotatingText.pl.json", "")
	add("ReportTabs", "ReportTabs.pl.json", children)
	add("JobsList", "JobsList.pl.json", "")
	add("DemoForm", "DemoForm.pl.json", islandChildren(t, "DemoForm.pl.children.html"))
	add("ConsentBanner", "ConsentBanner.pl.json", "")
	var head strings.Builder
	for _, u := range b.ModulePreloads(hydrated) {
		fmt.Fprintf(&head, "<link rel=\"modulepreload\" href=\"%s\">\n", u)
	}
	for _, u := range b.Scripts(hydrated) {
		fmt.Fprintf(&head, "<script type=\"module\" src=\"%s\"></script>\n", u)
	}
	page := "<!doctype html><html lang=pl><head><meta charset=utf-8><title>t</title>" +
		"<style>.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}</style>" +
		head.String() + "</head><body>" + body.String() + "</body></html>"
	files := b.ClientFiles()
	var mu sync.Mutex
	var posted []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/":
			w.Header().Set("Content-Security-Policy", "script-src 'self'")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(page))
		case r.URL.Path == "/api/demo":
			mu.Lock()
			posted = append(posted, r.Header.Get("Accept"))
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"ok":true}`))
		case r.URL.Path == "/pl/podziekowanie/":
			w.Write([]byte("<!doctype html><title>thanks</title>"))
		default:
			data, ok := files[strings.TrimPrefix(r.URL.Path, "/")]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(data)
		}
	}))
	defer srv.Close()

	actx, cancel := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath(t)), chromedp.NoSandbox, chromedp.Headless, chromedp.Flag("disable-dev-shm-usage", true))...)
	defer cancel()
	cctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	cctx, cancel = context.WithTimeout(cctx, 60*time.Second)
	defer cancel()
	var errs []string
	thanks := make(chan struct{})
	var thanksOnce sync.Once
	if err := chromedp.Listen(cctx, func(ev any) {
		switch e := ev.(type) {
		case *cdppage.EventFrameNavigated:
			if e.Frame != nil && e.Frame.ParentID == "" && strings.HasSuffix(e.Frame.URL, "/pl/podziekowanie/") {
				thanksOnce.Do(func() { close(thanks) })
			}
		case *runtime.EventExceptionThrown:
			mu.Lock()
			errs = append(errs, e.ExceptionDetails.Text)
			mu.Unlock()
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				mu.Lock()
				errs = append(errs, strings.Join(parts, " "))
				mu.Unlock()
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(cctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	report, err := chromedp.Run(cctx, chromedp.Evaluate[map[string]any](islandsScenario, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"hydrated":      float64(6),
		"tabs":          float64(3),
		"panel2Hidden":  true,
		"afterArrow":    "raporty-espi-tab|false",
		"bannerShown":   true,
		"consent":       "accept",
		"consentEvent":  "accept",
		"jobHash":       "#job-frontend-dev",
		"jobFocus":      "Frontend Developer",
		"jobBack":       "#raporty-espi|2", // back to the entry ReportTabs left
		"invalid":       "true|demo-form-name-error",
		"focused":       "demo-form-name",
		"status":        "To pole jest wymagane.",
		"menuEscape":    "false|toggle",
		"menuLinkClick": "false|/",
		"rotatingPause": true,
	}
	for k, v := range want {
		if report[k] != v {
			t.Errorf("%s = %#v, want %#v", k, report[k], v)
		}
	}
	// A valid submit posts JSON and navigates to the thanks page.
	if _, err := chromedp.Run(cctx, chromedp.Evaluate[bool](islandsSubmitScenario)); err != nil {
		t.Fatal(err)
	}
	// Wait for the navigation the submit should cause (bounded by cctx).
	select {
	case <-thanks:
	case <-cctx.Done():
		path, _ := chromedp.Run(context.WithoutCancel(cctx), chromedp.Evaluate[string](`location.pathname`))
		t.Errorf("after submit at %q, want the thanks page", path)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(posted) != 1 || posted[0] != "application/json" {
		t.Errorf("posts: %v", posted)
	}
	if len(errs) > 0 {
		t.Errorf("browser errors:\n%s", strings.Join(errs, "\n"))
	}
}

// islandsScenario drives every island and reports what it saw. It never
// sleeps for a fixed time: after each step it waits for the condition the
// step should bring about (until), or for the effects of what rendered to
// have run (settle: two frames and the timers queued before them; preact
// runs effects in a timeout after the next frame). A condition that never
// comes leaves its value wrong in the report, so the test fails on it.
const islandsScenario = `(async () => {
  const settle = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => setTimeout(res)))));
  const until = async (cond) => { for (let i = 0; i < 300 && !cond(); i++) await settle(); };
  const r = {};
  // Hydrated, then enhanced: each island's sign that its mount effects ran
  // (React schedules them later than Preact).
  await until(() => document.querySelectorAll('sg-island[data-hydrated]').length >= 6 &&
    document.querySelector('.report-tabs--enhanced') && document.querySelector('.jobs-list__details') &&
    document.getElementById('demo-form').noValidate && document.querySelector('.rotating-text__toggle') &&
    document.querySelector('.mobile-menu__toggle[aria-expanded]') && !document.querySelector('.consent-banner').hidden);
  await settle();
  r.hydrated = document.querySelectorAll('sg-island[data-hydrated]').length;
  r.tabs = document.querySelectorAll('.report-tabs [role=tab]').length;
  const espi = document.getElementById('raporty-espi');
  r.panel2Hidden = espi.hidden && espi.getAttribute('role') === 'tabpanel';
  const first = document.getElementById('raporty-ebi-tab');
  first.focus();
  first.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  await settle();
  r.afterArrow = document.activeElement.id + '|' + espi.hidden;
  r.bannerShown = !document.querySelector('.consent-banner').hidden;
  window.addEventListener('sg:consent', (e) => { r.consentEvent = e.detail.choice; });
  document.querySelector('.consent-banner__button--accept').click();
  await until(() => r.consentEvent !== undefined);
  r.consent = localStorage.getItem('sg-consent');
  const hashBefore = location.hash;
  document.querySelector('.jobs-list__details').click();
  await until(() => location.hash !== hashBefore);
  await settle();
  r.jobHash = location.hash;
  r.jobFocus = document.activeElement.textContent;
  const jobHash = location.hash;
  document.querySelector('.jobs-list__back-link').click();
  await until(() => location.hash !== jobHash);
  await settle();
  r.jobBack = location.hash + '|' + document.querySelectorAll('.jobs-list__item').length;
  document.querySelector('.demo-form__submit').click();
  await until(() => document.getElementById('demo-form-name').getAttribute('aria-invalid') !== null);
  await settle();
  const name = document.getElementById('demo-form-name');
  r.invalid = name.getAttribute('aria-invalid') + '|' + name.getAttribute('aria-describedby');
  r.focused = document.activeElement.id;
  r.status = document.querySelector('.demo-form__status').textContent;
  const menu = document.querySelector('details.mobile-menu');
  menu.open = true;
  await until(() => menu.open);
  await settle();
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  await until(() => !menu.open);
  await settle();
  r.menuEscape = menu.open + '|' + (document.activeElement.classList.contains('mobile-menu__toggle') ? 'toggle' : document.activeElement.id);
  // A click on a link of the list (the island's children) closes the menu;
  // the test keeps the page from following it.
  menu.open = true;
  await until(() => menu.open);
  await settle();
  const stay = (e) => e.preventDefault();
  window.addEventListener('click', stay, true);
  menu.querySelector('.mobile-menu__nav a[aria-current="page"]').click();
  await until(() => !menu.open);
  window.removeEventListener('click', stay, true);
  r.menuLinkClick = menu.open + '|' + location.pathname;
  const pause = document.querySelector('.rotating-text__toggle');
  r.rotatingPause = !!pause && pause.textContent === 'Zatrzymaj animację';
  return r;
})()`

const islandsSubmitScenario = `(() => {
  const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event('input', { bubbles: true })); };
  set('demo-form-name', 'Anna');
  set('demo-form-email', 'anna@example.com');
  set('demo-form-phone', '+48 600 100 200');
  document.getElementById('demo-form-consentContact').click();
  document.getElementById('demo-form-consentPrivacy').click();
  document.querySelector('.demo-form__submit').click();
  return true;
})()`
