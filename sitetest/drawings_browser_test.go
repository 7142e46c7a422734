package sitetest

import (
	"strings"
	"testing"
	"time"
)

// headerDrawing is what a page header shows beside its title.
type headerDrawing struct {
	Image  string  `json:"image"`  // the computed background-image of .page-hero::after
	Width  float64 `json:"width"`  // the drawing's rendered width
	Loaded bool    `json:"loaded"` // the image file decodes
}

const headerDrawingJS = `(async () => {
  const hero = document.querySelector('.page-hero');
  if (!hero) return { image: 'no .page-hero', width: 0, loaded: false };
  const st = getComputedStyle(hero, '::after');
  const m = /url\("?([^")]+)"?\)/.exec(st.backgroundImage);
  let loaded = false;
  if (m) {
    const img = new Image();
    img.src = m[1];
    loaded = await img.decode().then(() => img.naturalWidth > 0, () => false);
  }
  return { image: m ? m[1].replace(location.origin, '').slice(0, 60) : st.backgroundImage, width: parseFloat(st.width) || 0, loaded };
})()`

// testHeaderDrawings: at 1280 px the contact page's header shows its own
// drawing (booking a demo, assets/art/booking.svg) and the investor pages'
// theirs (a results dashboard, assets/art/results.svg), in both languages;
// other pages without a hero keep the generic chat-bubble drawing. Each
// drawing loads and is drawn at its size. (Below 1000 px no page header
// shows a drawing: the contact page leads with its form.) The generic
// drawing is a data: URL in the stylesheet; the files are checked to load.
func (s *browserSuite) testHeaderDrawings(t *testing.T) {
	tb := s.newTab(t, tabOptions{width: desktopWidth, consent: "reject"})
	defer tb.release()
	for _, c := range []struct{ path, want string }{
		{"/pl/o-nas/kontakt/", "/_assets/booking-"},
		{"/en/about-us/contact/", "/_assets/booking-"},
		{"/pl/dla-inwestorow/informacje-ogolne/", "/_assets/results-"},
		{"/en/for-investors/raports/", "/_assets/results-"},
		{"/pl/regulamin/", "data:image/svg+xml"},
	} {
		tb.open(c.path)
		tb.waitJS(`document.fonts.status === 'loaded'`, 5*time.Second, "the fonts of %s", c.path)
		got := jsEval[headerDrawing](tb, headerDrawingJS)
		if !strings.Contains(got.Image, c.want) {
			t.Errorf("%s: the header's drawing is %q, want %s…", c.path, got.Image, c.want)
		}
		if (strings.HasPrefix(c.want, "/") && !got.Loaded) || got.Width < 200 {
			t.Errorf("%s: the header's drawing %q loaded %v, %.0f px wide: want it loaded and at least 200 px wide", c.path, got.Image, got.Loaded, got.Width)
		}
	}
}
