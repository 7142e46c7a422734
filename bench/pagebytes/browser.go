package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// viewport is a window size in CSS pixels and a device pixel ratio.
type viewport struct {
	w, h int64
	dpr  float64
}

func (v viewport) String() string {
	return fmt.Sprintf("%dx%d@%s", v.w, v.h, strconv.FormatFloat(v.dpr, 'f', -1, 64))
}

// parseViewports reads "390x844@3,1280x800@1" (the @ratio is optional: 1).
func parseViewports(s string) ([]viewport, error) {
	var out []viewport
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		v := viewport{dpr: 1}
		size, ratio, ok := strings.Cut(f, "@")
		if ok {
			r, err := strconv.ParseFloat(ratio, 64)
			if err != nil || r <= 0 {
				return nil, fmt.Errorf("viewport %q: bad pixel ratio", f)
			}
			v.dpr = r
		}
		ws, hs, ok := strings.Cut(size, "x")
		w, err1 := strconv.ParseInt(ws, 10, 64)
		h, err2 := strconv.ParseInt(hs, 10, 64)
		if !ok || err1 != nil || err2 != nil || w <= 0 || h <= 0 {
			return nil, fmt.Errorf("viewport %q: want WIDTHxHEIGHT[@RATIO]", f)
		}
		v.w, v.h = w, h
		out = append(out, v)
	}
	return out, nil
}

// serve serves dir from 127.0.0.1 (a plain file server: the bytes are the
// files'; nothing is compressed) and returns its base URL.
func serve(dir string) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	fs := http.FileServer(http.Dir(dir))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		fs.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// startBrowser starts headless Chromium with the team's flags.
func startBrowser(exe string) (context.Context, func(), error) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	stop := func() { bcancel(); acancel() }
	// The first Do starts the browser and binds it to bctx (no deadline of
	// its own); a watchdog bounds the start.
	errc := make(chan error, 1)
	go func() { errc <- chromedp.Do(bctx) }()
	select {
	case err := <-errc:
		if err != nil {
			stop()
			return nil, nil, fmt.Errorf("starting %s: %v", exe, err)
		}
	case <-time.After(60 * time.Second):
		stop()
		return nil, nil, fmt.Errorf("starting %s: no answer in 60 s", exe)
	}
	return bctx, stop, nil
}

// aboveFold is what the browser fetched for the images in the first
// viewport.
type aboveFold struct {
	Bytes   int      `json:"bytes"`
	Images  []string `json:"images"`  // the URLs counted
	Missing []string `json:"missing"` // shown but with no resource timing entry
	// Scripts are the paths of the JavaScript files fetched by then, to
	// check the static count against.
	Scripts []string `json:"scripts"`
}

// aboveFoldScript waits until every image whose box meets the first
// viewport has loaded (lazy ones included), then sums the encoded body size
// of what the browser fetched for them (Resource Timing: the candidate the
// page picked from srcset, not a guess) and for CSS background images of
// elements in the viewport. data: URLs are part of the HTML or CSS.
const aboveFoldScript = `(async () => {
  const vw = innerWidth, vh = innerHeight;
  const inView = (r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
  const visible = () => [...document.images].filter((i) => inView(i.getBoundingClientRect()));
  const until = Date.now() + 15000;
  while (Date.now() < until && visible().some((i) => !i.complete)) await new Promise((r) => setTimeout(r, 50));
  // Then a quiet moment: islands hydrated on load or on visibility fetch
  // their code now (reported next to the table, not counted).
  for (let n = -1, quiet = until + 5000; Date.now() < quiet;) {
    const m = performance.getEntriesByType('resource').length;
    if (m === n) break;
    n = m;
    await new Promise((r) => setTimeout(r, 500));
  }
  const urls = new Set();
  for (const i of visible()) if (i.currentSrc) urls.add(i.currentSrc);
  for (const el of document.querySelectorAll('*')) {
    const bg = getComputedStyle(el).backgroundImage;
    if (!bg || !bg.includes('url(') || !inView(el.getBoundingClientRect())) continue;
    for (const m of bg.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) urls.add(new URL(m[1], location.href).href);
  }
  const entries = performance.getEntriesByType('resource');
  const out = { bytes: 0, images: [], missing: [], scripts: [] };
  for (const e of entries) {
    const u = new URL(e.name);
    if (u.origin === location.origin && /\.m?js$/.test(u.pathname)) out.scripts.push(u.pathname);
  }
  for (const u of urls) {
    if (u.startsWith('data:')) continue;
    const e = entries.find((e) => e.name === u);
    if (!e) { out.missing.push(u); continue; }
    out.bytes += e.encodedBodySize;
    out.images.push(new URL(u).pathname + ' ' + e.encodedBodySize);
  }
  return out;
})()`

// measureFold loads pageURL in a fresh browser context (empty cache, no
// service worker) at v and returns the images above the fold.
func measureFold(bctx context.Context, pageURL string, v viewport) (aboveFold, error) {
	tctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancel2 := context.WithTimeout(tctx, 60*time.Second)
	defer cancel2()
	err := chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
				return err
			}
			if _, err := chromedp.Call(ctx, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
				return err
			}
			// Room for every resource of a long page (the default is 250).
			_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument,
				cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: "performance.setResourceTimingBufferSize(100000)"})
			return err
		}),
		chromedp.EmulateViewport(v.w, v.h, chromedp.EmulateScale(v.dpr)),
		chromedp.Navigate(pageURL),
	)
	if err != nil {
		return aboveFold{}, fmt.Errorf("loading %s at %s: %v", pageURL, v, err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[aboveFold](aboveFoldScript, chromedp.EvalAwaitPromise))
	if err != nil {
		return aboveFold{}, fmt.Errorf("measuring %s at %s: %v", pageURL, v, err)
	}
	if len(res.Missing) > 0 {
		return res, fmt.Errorf("%s at %s: no resource timing for %s", pageURL, v, strings.Join(res.Missing, ", "))
	}
	return res, nil
}
