package sitetest

// The top bar at the first paint (issue 40, item 4): on a page built inside
// the announcement's window the bar's first-paint script (topbar-now.js, in
// the <head>) decides by the visitor's date before anything is painted, so a
// visitor inside the window sees the bar in the first frame and one outside
// it never sees it, and neither page shifts.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// topbarFrames records, before any page script runs, whether the top bar
// is drawn at every animation frame (a frame's callbacks run just before it
// is painted) and the layout shifts.
const topbarFrames = `(() => {
  const rec = { frames: [], shift: 0 };
  Object.defineProperty(window, '__bar', { value: rec });
  const state = () => {
    const b = document.querySelector('.topbar');
    return b ? getComputedStyle(b).display !== 'none' && b.getBoundingClientRect().height > 0 : null;
  };
  const frame = () => {
    rec.frames.push({ at: performance.now(), shown: state() });
    if (rec.frames.length < 120) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) rec.shift += e.value; }).observe({ type: 'layout-shift', buffered: true });
})();`

// visitorOn makes the page's clock read day (before any page script).
func visitorOn(day string) string {
	return `(() => { const off = new Date('` + day + `T12:00:00').getTime() - Date.now(); const D = Date;
	  window.Date = class extends D { constructor(...a) { super(...(a.length ? a : [D.now() + off])); } static now() { return D.now() + off; } }; })();`
}

func (rs *runtimeSuite) testTopbarFirstPaint(t *testing.T) {
	// The main site is built with --date 2026-08-15 (site_test.go), inside
	// the announcement's window 2026-08-10..2026-09-21: its pages carry the
	// bar unhidden and the first-paint script.
	html, err := os.ReadFile(filepath.Join(rs.out, "pl", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), "topbar-now") {
		t.Fatal("precondition: /pl/ built inside the window has no first-paint script (topbar-now.js)")
	}
	for _, c := range []struct {
		name, origin, day string
		shown             bool
	}{
		{"visitor inside", rs.base, "2026-09-01", true},
		{"visitor after", rs.base, "2026-09-25", false},
		{"visitor before", rs.base, "2026-08-01", false},
		// Built on 2026-07-01, before the window: the bar the build hid
		// shows from the first paint for a visitor inside it.
		{"built before, visitor inside", rs.untracked, "2026-08-20", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := rs.open(t, tabOptions{consent: "reject"}, visitorOn(c.day), topbarFrames)
			rs.load(tb, c.origin, "/pl/")
			tb.waitJS(`performance.getEntriesByType('paint').some((e) => e.name === 'first-contentful-paint') && window.__bar.frames.length >= 30`, 5*time.Second, "the first paint and 30 frames")
			type frame struct {
				At    float64
				Shown *bool
			}
			r := jsEval[struct {
				Frames []frame
				Shift  float64
				FCP    float64
			}](tb, `({ frames: window.__bar.frames, shift: window.__bar.shift,
			  fcp: performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint').startTime })`)
			first := -1
			for i, f := range r.Frames {
				if f.Shown == nil {
					continue // before the bar was parsed
				}
				if first < 0 {
					first = i
				}
				if *f.Shown != c.shown {
					t.Errorf("on %s the bar is shown=%v in the frame at %.0f ms (first contentful paint %.0f ms), want shown=%v in every frame", c.day, *f.Shown, f.At, r.FCP, c.shown)
					break
				}
			}
			// The first paint is among the frames seen.
			if first < 0 || r.Frames[first].At > r.FCP+1 {
				t.Errorf("no frame saw the bar at the first contentful paint (%.0f ms)", r.FCP)
			}
			if r.Shift != 0 {
				t.Errorf("on %s the page shifted %.4f while it loaded, want 0", c.day, r.Shift)
			}
			if got := jsEval[bool](tb, `(() => { const b = document.querySelector('.topbar'); return !b.hidden && isVisible(b); })()`); got != c.shown {
				t.Errorf("on %s after load the bar is shown=%v, want %v", c.day, got, c.shown)
			}
			tb.checkNoErrors()
		})
	}
}
