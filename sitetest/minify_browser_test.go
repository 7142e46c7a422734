package sitetest

// TestMinifiedLooksTheSame runs only with SITEGEN_BROWSER=1:
//
//	SITEGEN_BROWSER=1 go test ./sitetest -run TestMinifiedLooksTheSame -v

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"sitegen/pkg/build"
)

// minifyPages are pages of the kinds minification touches most: home
// (icons, sections), a devblog post (Markdown, code blocks), contact
// (form), investors (tables, tabs), the 404 page.
var minifyPages = []string{
	"/en/", "/pl/devblog/blok-akcji-wywolujacy-rest-api/", "/en/about-us/contact/", "/en/for-investors/raports/", "/pl/404.html",
}

// TestMinifiedLooksTheSame: the site built with --minify and without it
// renders to the same pixels, full page, at 390 and 1280 px, without
// JavaScript (so only the HTML and CSS are compared, not timers or
// animations): minification changes bytes, never what a visitor sees.
func TestMinifiedLooksTheSame(t *testing.T) {
	if os.Getenv("SITEGEN_BROWSER") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run the browser test: install chromium (see .ci/run)")
		}
		t.Skip("set SITEGEN_BROWSER=1 to run the browser test")
	}
	exe := chromiumPath(t)
	plainOut := filepath.Join(t.TempDir(), "public")
	plainRep, err := build.Run(context.Background(), build.Options{Source: "..", Out: plainOut, Date: "2026-08-15"})
	if err != nil {
		t.Fatal(err)
	}
	plain := httptest.NewServer(siteHandler(t, plainOut, plainRep))
	defer plain.Close()
	site(t)
	min := httptest.NewServer(siteHandler(t, outDir, siteRep))
	defer min.Close()

	actx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"),
	)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := within(30*time.Second, func() error { return chromedp.Do(bctx) }); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	shot := func(base, path string, width int64) (image.Image, error) {
		ctx, cancel := chromedp.NewContext(bctx)
		defer cancel()
		ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		err := chromedp.Do(ctx,
			chromedp.EmulateViewport(width, 900),
			cdpDo(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}),
			// No web fonts: whether a face arrives before the first
			// screenshot is a matter of timing; the fallback faces lay both
			// pages out the same every time.
			cdpDo(network.Enable, network.EnableParams{}),
			cdpDo(network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/*.woff2", Block: true}}}),
			chromedp.Navigate(base+path),
		)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", base+path, err)
		}
		// Without scripts nothing on the page waits to be asked: the page
		// is still once two screenshots in a row are the same (late fonts).
		var last []byte
		for range 40 {
			b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				return nil, err
			}
			if bytes.Equal(b, last) {
				return png.Decode(bytes.NewReader(b))
			}
			last = b
			time.Sleep(100 * time.Millisecond)
		}
		return nil, fmt.Errorf("%s never stood still", base+path)
	}
	for _, p := range minifyPages {
		for _, w := range []int64{390, 1280} {
			want, err := shot(plain.URL, p, w)
			if err != nil {
				t.Fatal(err)
			}
			got, err := shot(min.URL, p, w)
			if err != nil {
				t.Fatal(err)
			}
			if n, at := differ(want, got); n > 0 {
				t.Errorf("%s at %d px: %d pixels differ between the minified and the plain page (first at %v; sizes %v, %v)",
					p, w, n, at, got.Bounds().Max, want.Bounds().Max)
			}
		}
	}
}

// differ counts the pixels that differ between two images (all of them
// when their sizes differ) and returns the first.
func differ(a, b image.Image) (int, image.Point) {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy(), image.Point{}
	}
	n, first := 0, image.Point{}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				if n == 0 {
					first = image.Pt(x, y)
				}
				n++
			}
		}
	}
	return n, first
}
