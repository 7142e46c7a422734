// Web fonts from the second page on. A first visit
// renders in the metric-matched local fallbacks (assets/css/fonts.css): the
// web fonts are not fetched while the page loads, so they neither compete
// with its first paint nor count into it (Lighthouse's simulated LCP
// charged their ~70 KB over slow 4G to every page, bench/lighthouse). Once
// the page has loaded and the browser is idle, the runtime fetches the
// faces later pages use (latin and the Polish letters of both families)
// into the HTTP cache and records that in local storage; the next full
// load sees the record before its first paint (the inline script in the
// head, templates/partials/head.html, sets the sg-fonts class on <html>)
// and uses the fonts from the cache. The current page keeps its fallbacks:
// swapping them in now would move its text. With font-display: optional a
// stale record (a cleared cache) costs nothing but the fallbacks again.
import { LOCAL } from './keys.js';
import { local } from './util.js';

// FONT_CLASS on <html> switches the type tokens to the web fonts
// (assets/css/tokens.css).
export const FONT_CLASS = 'sg-fonts';
// FONTS_IDLE_TIMEOUT bounds the wait for an idle period after the load.
export const FONTS_IDLE_TIMEOUT = 2000;

// One letter of each file a page needs: "a" (latin) and "ą" (the Polish
// letters); a page that uses other letters fetches latin-ext itself.
const SAMPLE = 'aą';
const FAMILIES = ['"Inter Variable"', '"Space Grotesk Variable"'];

export function startFonts() {
  const root = document.documentElement;
  if (root.classList.contains(FONT_CLASS) || !document.fonts || !document.fonts.load) return;
  const c = navigator.connection;
  if (c && (c.saveData || /2g/.test(c.effectiveType || ''))) return; // the fallbacks cost nothing
  const fetchFonts = () =>
    Promise.all(FAMILIES.map((f) => document.fonts.load('400 1em ' + f, SAMPLE))).then(
      (faces) => {
        if (faces.every((f) => f.length)) local(LOCAL.fonts, '1');
      },
      () => {}, // offline or blocked: the next page tries again
    );
  const idle = () => (window.requestIdleCallback || ((f) => setTimeout(f, 1)))(fetchFonts, { timeout: FONTS_IDLE_TIMEOUT });
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}
