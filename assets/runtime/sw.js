// sitegen service worker, published at /sw.js (not fingerprinted). HTML,
// page data and slices: network first, the cache when offline, and the
// locale's offline page for a page never seen. Fingerprinted assets
// (/_assets/): cache first. Everything else goes to the network untouched.
// The build defines __SG_BUILD__ and __SG_OFFLINE__ (locale prefix -> URL).
import { CACHES } from './keys.js';

const OFFLINE = __SG_OFFLINE__;
const BUILD = __SG_BUILD__;
const MAX_PAGES = 60;
const MAX_ASSETS = 120;

self.addEventListener('install', (e) => {
  e.waitUntil(
    caches
      .open(CACHES.pages)
      .then((c) => c.addAll(Object.values(OFFLINE)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (e) => {
  const keep = new Set(Object.values(CACHES));
  e.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('sg-') && !keep.has(n)).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function trim(name, max) {
  const c = await caches.open(name);
  const keys = await c.keys();
  for (const k of keys.slice(0, Math.max(0, keys.length - max))) await c.delete(k);
}

function offlinePage(path) {
  const prefixes = Object.keys(OFFLINE).sort((a, b) => b.length - a.length);
  const p = prefixes.find((x) => path === x || path.startsWith(x + '/')) || prefixes[prefixes.length - 1];
  return p ? caches.match(OFFLINE[p]) : undefined;
}

async function networkFirst(req, navigation) {
  try {
    const res = await fetch(req);
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      caches.open(CACHES.pages).then((c) => c.put(req, copy).then(() => trim(CACHES.pages, MAX_PAGES)));
    }
    return res;
  } catch (err) {
    const hit = await caches.match(req);
    if (hit) return hit;
    const off = navigation && (await offlinePage(new URL(req.url).pathname));
    if (off) return off;
    throw err;
  }
}

async function cacheFirst(req) {
  const hit = await caches.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) {
    const copy = res.clone();
    caches.open(CACHES.assets).then((c) => c.put(req, copy).then(() => trim(CACHES.assets, MAX_ASSETS)));
  }
  return res;
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/_assets/')) return e.respondWith(cacheFirst(req));
  const navigation = req.mode === 'navigate';
  if (navigation || url.pathname.startsWith('/page-data/') || url.pathname.startsWith('/slice-data/')) {
    e.respondWith(networkFirst(req, navigation));
  }
});

// The build that made this worker (a changed build makes a changed worker,
// which is what the browser's update check compares).
self.SG_BUILD = BUILD;
