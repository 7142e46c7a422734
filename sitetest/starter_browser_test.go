package sitetest

import (
	"context"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"sitegen/pkg/build"
	"sitegen/pkg/hosting"
	"sitegen/pkg/starter"
)

// TestStarterBrowser: the site `sitegen init` writes follows its own
// advice in a browser. Every page it builds, and a missing page in each
// locale (404), loads in headless Chromium, served as a host would serve it
// (the build's headers, its CSP among them), with an empty console: no
// error or warning, no CSP violation, no failed request, no uncaught
// exception; its island hydrates; the favicon it names answers 200.
//
//	go test ./sitetest -run TestStarterBrowser -v
func TestStarterBrowser(t *testing.T) {
	exe := chromiumPath(t)
	dir := filepath.Join(t.TempDir(), "my-site")
	if _, err := starter.Write(dir, starter.Options{}); err != nil {
		t.Fatal(err)
	}
	nm, err := filepath.Abs("../node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	rep, err := build.Run(context.Background(), build.Options{Source: dir, Out: out, Date: "2026-01-15", Minify: true, CacheDir: t.TempDir(), ImageCache: t.TempDir()})
	if err != nil {
		t.Fatalf("building the starter: %v", err)
	}
	h, err := hosting.NewHandler(out, []string{"/en", "/pl"}, rep.RedirectTable, rep.HeaderRules)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	pages := map[string]int64{"/en/no-such-page/": 404, "/pl/nie-ma/": 404}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "index.html" {
			return err
		}
		rel, _ := filepath.Rel(out, filepath.Dir(p))
		u := "/" + filepath.ToSlash(rel) + "/"
		if rel == "." {
			u = "/"
		}
		pages[u] = 200
		return nil
	})
	if err != nil || len(pages) < 10 {
		t.Fatalf("pages %v: %v", pages, err)
	}
	var paths []string
	for p := range pages {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	actx, acancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Flag("headless", "new"), chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("no-first-run", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"))
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := within(30*time.Second, func() error { return chromedp.Do(bctx, cdpDo(cdplog.Enable, cdp.Empty{})) }); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	var mu sync.Mutex
	var console []string
	err = chromedp.Listen(bctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *cdplog.EventEntryAdded: // CSP violations, failed loads, browser warnings
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				console = append(console, fmt.Sprintf("%s %s: %s (%s)", e.Entry.Source, e.Entry.Level, e.Entry.Text, e.Entry.URL))
			}
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, a.Description+string(a.Value))
				}
				console = append(console, "console."+string(e.Type)+": "+strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			console = append(console, "uncaught: "+e.ExceptionDetails.Text)
		case *network.EventLoadingFailed:
			if !e.Canceled {
				console = append(console, "failed request: "+e.ErrorText)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	for _, p := range paths {
		ctx, cancel := context.WithTimeout(bctx, 60*time.Second)
		mu.Lock()
		console = nil
		mu.Unlock()
		resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(srv.URL+p))
		if err != nil {
			cancel()
			t.Fatalf("%s: %v", p, err)
		}
		if resp == nil || resp.Status != pages[p] {
			t.Errorf("%s answered %v, want %d", p, resp, pages[p])
		}
		// Every island hydrated (the loader marks it), and the favicon the
		// page names is there.
		hydrated := false
		for deadline := time.Now().Add(30 * time.Second); !hydrated && time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
			hydrated, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelectorAll('sg-island:not([data-hydrated])').length === 0`))
		}
		if !hydrated {
			t.Errorf("%s: an island did not hydrate (%v)", p, err)
		}
		icon, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(async () => { const l = document.querySelector('link[rel=icon]'); return l ? (await fetch(l.href)).status : 0 })()`, chromedp.EvalAwaitPromise))
		cancel()
		if err != nil || icon != 200 {
			t.Errorf("%s: the favicon answers %d (%v)", p, icon, err)
		}
		mu.Lock()
		for _, c := range console {
			if pages[p] == 404 && strings.Contains(c, "status of 404") {
				continue // the page's own status, which the test asked for
			}
			t.Errorf("%s: %s", p, c)
		}
		mu.Unlock()
	}
}
