// Consent-gated analytics (docs/runtime.md "site.yaml"): the scripts
// site.yaml's analytics block names (the sitegen-analytics meta tag:
// {"scripts": [...], "params": {...}}) load, in order, only after the
// visitor accepts in the ConsentBanner island; with no script configured
// nothing loads and nothing is stored. This site's tags are Google's: the
// params gtm and ga start the data layer of a tag manager container and
// configure an analytics tag before their scripts load.
import { LOCAL } from './keys.js';
import { meta } from './util.js';

export const ROUTE_EVENT_DELAY = 50;
const conf = parse(meta('sitegen-analytics'));
const scripts = Array.isArray(conf.scripts) ? conf.scripts : [];
const params = conf.params || {};

function parse(s) {
  try {
    return (s && JSON.parse(s)) || {};
  } catch (e) {
    return {};
  }
}
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
  if (on || !scripts.length) return;
  on = true;
  if (params.gtm) push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  if (params.ga) {
    window.gtag = function () {
      push(arguments);
    };
    window.gtag('js', new Date());
    window.gtag('config', params.ga);
  }
  scripts.forEach(script);
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
  if (!scripts.length) return;
  addEventListener('sg:consent', (e) => choose(e.detail && e.detail.choice));
  let stored = null;
  try {
    stored = localStorage.getItem(LOCAL.consent);
  } catch (e) {
    // no storage: wait for the banner
  }
  if (stored === 'accept') accept();
}
