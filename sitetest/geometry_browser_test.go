package sitetest

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// geometryCases are islands whose server render a browser with scripts
// lays out before the island's code arrives: the box must already be the
// one the hydrated island has, or hydrating shifts the page (ReportTabs
// once shifted /pl/dla-inwestorow/raporty/ by 0.053 at 390 px: its server
// render showed every panel, the hydrated tabs one).
// ready is true once the hydrated island has finished enhancing.
var geometryCases = []struct{ island, path, ready string }{
	{"ReportTabs", "/pl/dla-inwestorow/raporty/", reportTabsReady},
	{"ReportTabs", "/en/for-investors/raports/", reportTabsReady},
	{"ReportTabs", "/pl/dla-inwestorow/raporty/#raporty-biezace", reportTabsReady}, // the #hash names the second tab
	{"DemoForm", "/pl/o-nas/kontakt/", `document.querySelector('sg-island[data-island="DemoForm"][data-hydrated] form[novalidate]')`},
	{"RotatingText", "/pl/o-nas/kontakt/", `document.querySelector('sg-island[data-island="RotatingText"][data-hydrated]')`},
	// MobileMenu hydrates at 390 px only (media); its link list is the
	// template's children, which hydration keeps.
	{"MobileMenu", "/pl/o-nas/kontakt/", `document.querySelector('sg-island[data-island="MobileMenu"][data-hydrated] summary[aria-expanded], sg-island[data-island="MobileMenu"][data-sg-waiting="media"]')`},
}

// reportTabsReady: the tabs are rendered and the panels wired (the effect
// that hides the inactive ones has run).
const reportTabsReady = `document.querySelector('sg-island[data-island="ReportTabs"][data-hydrated] .report-tabs--enhanced [role=tabpanel]')`

// islandBoxJS measures the island's box in the document, the document's
// height, and whether the island has hydrated and enhanced.
const islandBoxJS = `(() => {
  const i = document.querySelector('sg-island[data-island=%q]');
  if (!i) return null;
  const r = i.getBoundingClientRect();
  return { top: r.top + scrollY, height: r.height, width: r.width, doc: document.documentElement.scrollHeight,
    hydrated: i.hasAttribute('data-hydrated'), enhanced: !!i.querySelector('[class*="--enhanced"]') };
})()`

type islandBox struct {
	Top, Height, Width, Doc float64
	Hydrated, Enhanced      bool
}

// testIslandGeometry: at 390 and 1280 px, each island's box and the
// document's height are the same before the island's code loads (its code
// blocked) and once it has hydrated and enhanced: hydration moves nothing.
func (s *browserSuite) testIslandGeometry(t *testing.T) {
	for _, w := range []int64{mobileWidth, desktopWidth} {
		for _, c := range geometryCases {
			t.Run(fmt.Sprintf("%d/%s%s", w, c.island, c.path), func(t *testing.T) {
				measure := func(blockIsland bool) islandBox {
					tb := s.newTab(t, tabOptions{width: w, consent: "accept"})
					defer tb.release()
					// Web fonts are blocked in both states: the fallback
					// fonts lay the page out once, whenever the fonts arrive.
					patterns := []*network.BlockPattern{{URLPattern: "*://*:*/*.woff2", Block: true}}
					if blockIsland {
						patterns = append(patterns, &network.BlockPattern{URLPattern: "*://*:*/_assets/islands/" + c.island + "-*.js", Block: true})
					}
					block := func(p []*network.BlockPattern) {
						if err := chromedp.Do(tb.ctx, cdpDo(network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: p})); err != nil {
							t.Fatalf("blocking URLs: %v", err)
						}
					}
					block(patterns)
					defer block(nil)
					tb.navigate(c.path, 200)
					// Islands that hydrate when visible: bring it into view.
					jsEval[bool](tb, fmt.Sprintf(`(() => { const i = document.querySelector('sg-island[data-island=%q]'); if (i) i.scrollIntoView({block: 'center'}); return true; })()`, c.island))
					if !blockIsland {
						tb.waitJS(c.ready, 5*time.Second, "%s to hydrate and enhance", c.island)
					}
					box := jsEval[*islandBox](tb, fmt.Sprintf(islandBoxJS, c.island))
					if box == nil {
						t.Fatalf("%s has no %s island", c.path, c.island)
					}
					return *box
				}
				before, after := measure(true), measure(false)
				if before.Hydrated || before.Enhanced {
					t.Fatalf("precondition: with its code blocked, %s hydrated anyway", c.island)
				}
				for _, d := range []struct {
					name       string
					got, hydra float64
				}{
					{"top", before.Top, after.Top}, {"height", before.Height, after.Height},
					{"width", before.Width, after.Width}, {"document height", before.Doc, after.Doc},
				} {
					if math.Abs(d.got-d.hydra) > 1 {
						t.Errorf("%s of %s before hydration %.1f px, hydrated %.1f px: hydrating shifts the page", d.name, c.island, d.got, d.hydra)
					}
				}
			})
		}
	}
}

// testRotatingTextHeight: the rotating word changing moves nothing. At 390
// and 1280 px, with each item put in the line in turn, the island's box
// keeps the height it had with the first item, the one the server rendered
// (a longer item wrapping to a second line shifted everything below it:
// 0.04 CLS on /pl/o-nas/kontakt/ in Lighthouse, no input involved).
func (s *browserSuite) testRotatingTextHeight(t *testing.T) {
	for _, w := range []int64{mobileWidth, desktopWidth} {
		for _, p := range []string{"/pl/o-nas/kontakt/", "/en/about-us/contact/"} {
			t.Run(fmt.Sprintf("%d%s", w, p), func(t *testing.T) {
				props := decodeProps[struct {
					Items []string `json:"items"`
				}](t, s.fetchSSR(t, p).island(t, "RotatingText"))
				if len(props.Items) < 2 {
					t.Fatalf("precondition: RotatingText on %s has %d items", p, len(props.Items))
				}
				tb := s.newTab(t, tabOptions{width: w, consent: "accept", reducedMotion: true})
				defer tb.release()
				tb.navigate(p, 200)
				tb.do(chromedp.ScrollIntoView(chromedp.CSS(".rotating-text")))
				tb.waitJS(`document.querySelector('sg-island[data-island="RotatingText"][data-hydrated]')`, 4*time.Second, "RotatingText to hydrate")
				heights := jsEval[[]float64](tb, fmt.Sprintf(`(() => {
  const island = document.querySelector('sg-island[data-island="RotatingText"] .rotating-text');
  const item = island.querySelector('.rotating-text__item');
  const first = item.textContent;
  const out = [];
  for (const text of %s) { item.textContent = text; out.push(island.getBoundingClientRect().height); }
  item.textContent = first;
  return out;
})()`, jsArray(props.Items)))
				for i, h := range heights {
					if math.Abs(h-heights[0]) > 1 {
						t.Errorf("with %q the rotating text is %.1f px high, with %q %.1f px: the rotation shifts the page", props.Items[i], h, props.Items[0], heights[0])
					}
				}
			})
		}
	}
}

// jsArray is a JavaScript array literal of the strings.
func jsArray(items []string) string {
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = jsStr(s)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
