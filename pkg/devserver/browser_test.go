package devserver

// The authoring loop in headless Chromium: a stylesheet edit swaps the
// stylesheet without a reload, a page edit reloads and keeps the scroll
// position, a build error shows the overlay and the fix clears it, all under
// the site's CSP (no inline script). It needs a browser, so it runs only with
// SITEGEN_BROWSER=1:
//
//	SITEGEN_BROWSER=1 go test ./pkg/devserver -run TestBrowser -v
//
// SITEGEN_SHOTS=dir also saves a screenshot of the overlay there.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"sitegen/pkg/build"
)

func TestBrowserLoop(t *testing.T) {
	if os.Getenv("SITEGEN_BROWSER") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run the browser test: install chromium (see .ci/run)")
		}
		t.Skip("set SITEGEN_BROWSER=1 to run the browser test")
	}
	dir := t.TempDir()
	copyTree(t, fixture, dir)
	long := strings.Repeat("\n\nAkapit, żeby było co przewijać.", 200)
	replace(t, dir, "content/pl/kontakt.md", "</span>", "</span>"+long)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := New(ctx, Options{Build: build.Options{Source: dir, Date: "2026-01-01"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The production CSP: scripts only from the site itself.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'")
		s.ServeHTTP(w, r)
	}))
	defer srv.Close()
	defer func() { cancel(); s.events.close() }()
	go s.Watch(ctx)
	receive(t, s.watching, "watcher")

	actx, acancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.NoSandbox, chromedp.Headless, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"), chromedp.WindowSize(1280, 800))...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	bctx, bcancel = context.WithTimeout(bctx, 90*time.Second)
	defer bcancel()
	var mu sync.Mutex
	var consoleErrs []string
	if err := chromedp.Listen(bctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			mu.Lock()
			consoleErrs = append(consoleErrs, e.ExceptionDetails.Text)
			mu.Unlock()
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				mu.Lock()
				consoleErrs = append(consoleErrs, strings.Join(parts, " "))
				mu.Unlock()
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL+"/pl/o-nas/kontakt/")); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string) any {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[any](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	waitFor := func(expr, what string) {
		t.Helper()
		for {
			ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool]("!!("+expr+")"))
			if err == nil && ok {
				return
			}
			if bctx.Err() != nil {
				t.Fatalf("waiting for %s: %v", what, errors.Join(err, bctx.Err()))
			}
			time.Sleep(25 * time.Millisecond)
		}
	}
	waitFor(`document.documentElement.dataset.sitegenDev === 'connected'`, "the dev script to connect")
	// A client runtime that restores scroll itself (RUNTIME.md) sets manual
	// restoration: the browser's own restoration cannot be relied on.
	eval(`history.scrollRestoration = 'manual'; window.__stayed = 1; window.scrollTo(0, 900); true`)

	replace(t, dir, "assets/css/main.css", "color: var(--ink)", "color: rgb(18, 52, 86)")
	waitFor(`getComputedStyle(document.body).color === 'rgb(18, 52, 86)'`, "the new stylesheet")
	if eval(`window.__stayed`) != float64(1) {
		t.Errorf("a stylesheet edit reloaded the page")
	}

	replace(t, dir, "content/pl/kontakt.md", "Pisz na", "Napisz na")
	waitFor(`document.body.textContent.includes('Napisz na') && document.documentElement.dataset.sitegenDev === 'connected'`, "the reload")
	if eval(`window.__stayed`) != nil {
		t.Errorf("the page edit did not reload the page")
	}
	if y := eval(`window.scrollY`); y != float64(900) {
		t.Errorf("scrollY after the reload = %v, want 900", y)
	}

	replace(t, dir, "content/pl/kontakt.md", "title: Kontakt", "title: [Kontakt")
	overlay := `(document.querySelector('sitegen-error-overlay')?.shadowRoot?.textContent || '')`
	waitFor(overlay+`.includes('content/pl/kontakt.md:4')`, "the error overlay")
	text := eval(overlay).(string)
	// Every error the build reports, as sitegen build lists them: the
	// page that no longer parses, and what its missing id breaks.
	// The note of the pages not rendered is shown as a note, not counted.
	for _, want := range []string{"Build failed: 4 errors", "did not find expected", "4 | title: [Kontakt", `link to unknown page id "contact"`, "note: 2 page(s) were not rendered"} {
		if !strings.Contains(text, want) {
			t.Errorf("overlay lacks %q:\n%s", want, text)
		}
	}
	if role := eval(`document.querySelector('sitegen-error-overlay').shadowRoot.querySelector('[role=alertdialog]') !== null`); role != true {
		t.Errorf("the overlay is not an alertdialog")
	}
	if shots := os.Getenv("SITEGEN_SHOTS"); shots != "" {
		png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		if err == nil {
			os.WriteFile(filepath.Join(shots, "overlay.png"), png, 0o644)
		}
	}
	replace(t, dir, "content/pl/kontakt.md", "title: [Kontakt", "title: Kontakt")
	waitFor(`!document.querySelector('sitegen-error-overlay') && document.documentElement.dataset.sitegenDev === 'connected'`, "the overlay to clear")

	mu.Lock()
	defer mu.Unlock()
	if len(consoleErrs) > 0 {
		t.Errorf("console errors: %s", fmt.Sprint(consoleErrs))
	}
}
