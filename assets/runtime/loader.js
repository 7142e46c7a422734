// Page loading (RUNTIME.md "Page loading"): page data, its -rsc island
// manifest, slices and static queries, with the 404/500/retry rules, and the
// build identity from app data.
import { backoff, localeOf, meta } from './util.js';

export const RETRIES = 3;
export const APP_TTL = 5 * 60 * 1000;

// /page-data/{p}/page-data.json: p is "index" for "/", else the path without
// its leading and trailing slash; the query is kept.
export function pageDataURL(path, suffix = '') {
  const u = new URL(path, location.origin);
  const p = u.pathname.replace(/^\/+|\/+$/g, '') || 'index';
  return '/page-data/' + p + '/page-data' + suffix + '.json' + u.search;
}

// get fetches JSON: 200 gives {status, json} (bad JSON counts as 404), 404
// and 500 answer at once, anything else is retried RETRIES times with
// backoff; then {status, failed: true}.
export async function get(url, signal, priority) {
  for (let n = 0; ; n++) {
    let status = 0;
    try {
      const res = await fetch(url, { signal, credentials: 'same-origin', priority });
      status = res.status;
      if (status === 200) {
        try {
          return { status, json: await res.json() };
        } catch (e) {
          if (signal && signal.aborted) throw e;
          return { status: 404 };
        }
      }
    } catch (e) {
      if (signal && signal.aborted) return { status: 0, failed: true };
    }
    if (status === 404 || status === 500) return { status };
    if (n >= RETRIES) return { status, failed: true };
    await backoff(n);
  }
}

const valid = (r) => r.status === 200 && r.json && typeof r.json.path === 'string';
const pages = new Map(); // page-data URL -> Promise<load result>

// loadPage resolves to {kind, data, rsc}: kind "ok", "notfound" (the 404
// page's data), "error500" (the 500 page's data), "full" (the HTML exists:
// load it) or "error" (give up: full load).
export function loadPage(path, timeout, priority) {
  const key = pageDataURL(path);
  let p = pages.get(key);
  if (!p) {
    const ctl = timeout ? new AbortController() : null;
    const timer = ctl && setTimeout(() => ctl.abort(), timeout);
    p = load(path, key, ctl && ctl.signal, priority).finally(() => clearTimeout(timer));
    pages.set(key, p);
    // A failure that may pass (the network, a 5xx after the retries) is
    // tried again by the next load; one the server answered for good (a
    // static query's 404) is kept, so a prefetch's failure is not fetched
    // again by the click that follows it.
    p.then((r) => r.kind === 'error' && !r.final && pages.get(key) === p && pages.delete(key));
  }
  return p;
}

export const loaded = (path) => pages.has(pageDataURL(path));

// priority: 'low' for the check of a page's own resources at load.
async function load(path, url, signal, priority) {
  const r = await get(url, signal, priority);
  if (r.failed) return { kind: 'error' };
  if (valid(r)) return withResources(r.json, 'ok', signal, priority);
  const prefix = '/' + localeOf(path);
  if (r.status === 500) {
    const e = await get(pageDataURL(prefix + '/500/'), signal, priority);
    return valid(e) ? withResources(e.json, 'error500', signal) : { kind: 'error' };
  }
  // 404, or a 200 without a path: is the HTML there after all (a redirect
  // page, a file)? Then load it; else show the 404 page.
  const [nf, head] = await Promise.all([
    get(pageDataURL(prefix + '/404/'), signal, priority),
    path.startsWith('//')
      ? null
      : fetch(path, { method: 'HEAD', signal, priority }).then(
          (h) => h.status,
          () => 0,
        ),
  ]);
  if (head === 200) return { kind: 'full' };
  return valid(nf) ? withResources(nf.json, 'notfound', signal) : { kind: 'error' };
}

// withResources loads what the page needs besides its data: static queries
// and, for pages with islands, the -rsc island manifest.
async function withResources(data, kind, signal, priority) {
  const res = { kind, data, rsc: null };
  const hashes = data.staticQueryHashes || [];
  const sq = await Promise.all(hashes.map((h) => get('/page-data/sq/d/' + h + '.json', signal, priority).then((r) => [h, r])));
  for (const [h, r] of sq) {
    if (r.status !== 200) {
      console.error(new Error('Failed to load static query data: /page-data/sq/d/' + h + '.json'));
      return { kind: 'error', final: r.status === 404 };
    }
  }
  const page = data.result && data.result.page;
  if (page && page.islands && page.islands.length) {
    const r = await get(pageDataURL(data.path, '-rsc'), signal, priority);
    if (r.status !== 200 || !r.json) return { kind: 'error' };
    res.rsc = r.json;
  }
  return res;
}

const slices = new Map();
// loadSlice fetches /slice-data/{name}.json once.
export function loadSlice(name) {
  let p = slices.get(name);
  if (!p) {
    p = get('/slice-data/' + name + '.json').then((r) => (r.status === 200 && r.json ? r.json.html : null));
    slices.set(name, p);
    p.then((h) => h === null && slices.delete(name));
  }
  return p;
}

// The build this page was made by, and the one the server has now (app
// data, fetched once per APP_TTL and retried RETRIES times on non-200).
export const pageBuild = meta('sitegen-build');
let app = null;
// priority is the fetch's ('low' for the check at load: it must not compete
// with what the first screen needs, and Lighthouse counts a high-priority
// request that ends before the largest paint into the LCP).
export function appBuild(priority = 'auto') {
  if (app && Date.now() - app.at < APP_TTL) return app.p;
  const p = (async () => {
    for (let n = 0; ; n++) {
      try {
        const res = await fetch('/page-data/app-data.json', { cache: 'no-cache', priority });
        if (res.status === 200) return (await res.json()).webpackCompilationHash || null;
      } catch (e) {
        // network failure: retry like any non-200
      }
      if (n >= RETRIES) return null;
      await backoff(n);
    }
  })();
  app = { p, at: Date.now() };
  p.then((h) => h || (app = null));
  return p;
}
