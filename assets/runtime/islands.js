// The island loader (pkg/islands) and the page's own resources.
//
// The loader comes with a page that has islands as a <script type="module">,
// and after a swap to such a page from the runtime. When it fails to load
// (RUNTIME.md "Partial hydration data") it is fetched again every RETRY_MS,
// at most TRIES times; once it runs it scans the page and hydrates every
// island on it. A retry carries ?sg-retry=n: a browser may keep a failed
// module in its module map, and the new URL makes it fetch again.
import { $, sleep } from './util.js';
import { pageDataURL } from './loader.js';

export const RETRY_MS = 200;
export const TRIES = 10;

const ran = () => Boolean(window.__sgIslandScans);
let loading = null;

// loadIslands loads the loader from src unless it ran already; true once it
// runs. retried: the page's own script tag failed already (the first try is
// then the first retry, RETRY_MS later).
export function loadIslands(src, retried = false) {
  if (ran()) return Promise.resolve(true);
  if (loading) return loading;
  let n = retried ? 1 : 0;
  const attempt = () =>
    import(/* @vite-ignore */ n ? src + (src.includes('?') ? '&' : '?') + 'sg-retry=' + n : src).catch((e) => {
      if (++n > TRIES) throw e;
      return sleep(RETRY_MS).then(attempt);
    });
  loading = (retried ? sleep(RETRY_MS).then(attempt) : attempt()).then(
    () => true,
    (e) => {
      loading = null;
      console.error('sitegen: island loader ' + src + ' failed', e);
      return false;
    },
  );
  return loading;
}

// startIslands retries the page's own loader when its script tag fails. It
// runs when the runtime is evaluated: the runtime's script comes before the
// loader's (in the page or added after load, in order), so the loader's
// error event, fired when its turn to run comes, is still ahead.
export function startIslands() {
  const s = $('script[type=module][src*="/islands/loader"]');
  if (s) s.addEventListener('error', () => loadIslands(s.src, true), { once: true });
}

// checkResources asks, after the page has loaded and at low priority,
// whether the page's own page data is on the server: a page whose data is
// missing logs "page resources for {path} not found" (RUNTIME.md
// "Failures") and stays the static page it is. The path is the canonical
// one (a 404 page answering for an unknown path is /{lang}/404/).
export function checkResources() {
  const c = $('link[rel=canonical]');
  const u = c ? new URL(c.href) : location;
  const path = u.pathname + u.search;
  fetch(pageDataURL(path), { method: 'HEAD', priority: 'low' }).then(
    (r) => {
      const st = r.status === 200 ? 'found' : r.status === 404 ? 'missing' : 'unknown';
      document.documentElement.dataset.sgResources = st;
      if (st === 'missing') console.error('page resources for ' + path + ' not found');
    },
    () => (document.documentElement.dataset.sgResources = 'unknown'),
  );
}
