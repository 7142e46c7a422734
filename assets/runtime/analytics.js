// Consent-gated analytics (RUNTIME.md "Analytics and consent"): the tag
// manager and the analytics tag named in site.yaml, from the script origin
// site.yaml names (the sitegen-analytics meta tag: gtm=..;ga=..;host=..),
// load only after the visitor accepts in the ConsentBanner island; with no
// tag configured nothing loads and nothing is stored.
import { LOCAL } from './keys.js';
import { meta } from './util.js';

export const ROUTE_EVENT_DELAY = 50;
const ids = Object.fromEntries(
  meta('sitegen-analytics')
    .split(';')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
let on = false;

function push(o) {
  (window.dataLayer = window.dataLayer || []).push(o);
}

function script(src) {
  const s = document.createElement('script');
  s.async = true;
  s.src = src;
  document.head.append(s);
}

function accept() {
  if (on || !(ids.gtm || ids.ga) || !ids.host) return;
  on = true;
  if (ids.gtm) {
    push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    script(ids.host + '/gtm.js?id=' + encodeURIComponent(ids.gtm));
  }
  if (ids.ga) {
    window.gtag = function () {
      push(arguments);
    };
    window.gtag('js', new Date());
    window.gtag('config', ids.ga);
    script(ids.host + '/gtag/js?id=' + encodeURIComponent(ids.ga));
  }
  import('./vitals.js').then((m) => m.measure(push));
  routeChanged();
}

// routeChanged pushes the route-change event 50 ms after a route change
// (the first render included), once analytics run.
export function routeChanged() {
  if (on) setTimeout(() => push({ event: 'gatsby-route-change' }), ROUTE_EVENT_DELAY);
}

function choose(choice) {
  if (choice === 'accept') accept();
  else if (on) {
    // Consent withdrawn: drop the analytics cookies and start a page
    // without the tags.
    document.cookie.split(';').forEach((c) => {
      const name = c.split('=')[0].trim();
      if (/^_ga/.test(name)) {
        document.cookie = name + '=; Max-Age=0; path=/';
        document.cookie = name + '=; Max-Age=0; path=/; domain=.' + location.hostname.replace(/^www\./, '');
      }
    });
    location.reload();
  }
}

export function startAnalytics() {
  // The footer's "Cookie settings" button opens the banner (also in a
  // footer swapped in from another locale, which the island never saw).
  addEventListener('click', (e) => {
    const b = e.target.closest && e.target.closest('[data-consent-open]');
    if (b && !e.defaultPrevented) {
      e.preventDefault();
      dispatchEvent(new Event('sg:consent-open'));
    }
  });
  if (!(ids.gtm || ids.ga)) return;
  addEventListener('sg:consent', (e) => choose(e.detail && e.detail.choice));
  let stored = null;
  try {
    stored = localStorage.getItem(LOCAL.consent);
  } catch (e) {
    // no storage: wait for the banner
  }
  if (stored === 'accept') accept();
}
