// Prefetch (RUNTIME.md "Prefetch"): visible links queue their page data;
// the first item starts a 3 s timer, then batches of 4 run when the browser
// is idle, 3 s apart; hover or focus loads at once. Off on 2g, with
// saveData, and for bots. A prefetch gives up after PREFETCH_TIMEOUT so a
// hung request never holds the queue or a connection.
import { loadPage, loaded } from './loader.js';
import { swappable } from './navigate.js';
import { $$ } from './util.js';

export const FIRST_DELAY = 3000;
export const BATCH_DELAY = 3000;
export const BATCH_SIZE = 4;
export const PREFETCH_TIMEOUT = 10000;

const queue = [];
const done = new Set();
const shown = new Map(); // path -> its links in the viewport
let timer = 0;
let io = null;

export function prefetchOff() {
  const c = navigator.connection;
  return !!(c && (c.saveData || /2g/.test(c.effectiveType || ''))) || /bot|crawler|spider|crawling/i.test(navigator.userAgent);
}

const pathOf = (a) => {
  const u = swappable(a);
  return u && u.pathname + u.search;
};

function fetchNow(path) {
  if (done.has(path) || loaded(path) || path === location.pathname + location.search) return;
  done.add(path);
  loadPage(path, PREFETCH_TIMEOUT);
}

// IDLE_TIMEOUT bounds the wait for an idle period (a page that animates
// may never have one).
export const IDLE_TIMEOUT = 1000;

function runBatch() {
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 1));
  idle(() => {
    queue.splice(0, BATCH_SIZE).forEach(fetchNow);
    timer = queue.length ? setTimeout(runBatch, BATCH_DELAY) : 0;
  }, { timeout: IDLE_TIMEOUT });
}

function enqueue(path) {
  if (!path || done.has(path) || queue.includes(path)) return;
  queue.push(path);
  if (!timer) {
    performance.mark('sg-prefetch-queued');
    timer = setTimeout(runBatch, FIRST_DELAY);
  }
}

function dequeue(path) {
  const i = queue.indexOf(path);
  if (i >= 0) queue.splice(i, 1);
}

// OBSERVE_SLICE is how many links one idle callback starts watching when
// the browser gives it no idle time left (a busy page, the timeout).
export const OBSERVE_SLICE = 40;

const whenIdle = (f) => (window.requestIdleCallback || ((g) => setTimeout(() => g({ didTimeout: true, timeRemaining: () => 0 }), 1)))(f, { timeout: IDLE_TIMEOUT });
let watching = 0; // bumped by each observe(): a swap ends the slices of the page before

// observe watches the page links under root (again after each swap), in
// idle time: a URL per link and the observer's first report on each took
// 65-100 ms of one task at start on a mobile CPU (the home page has ~150
// links), all of it before the page could answer input. Each idle callback
// watches links while the browser says it has time, at least OBSERVE_SLICE.
export function observe(root = document) {
  if (!io) return;
  const links = $$('a[href]', root);
  const run = ++watching;
  let i = 0;
  const slice = (deadline) => {
    if (run !== watching || !io) return;
    for (let n = 0; i < links.length && (n < OBSERVE_SLICE || deadline.timeRemaining() > 2); n++, i++) {
      if (pathOf(links[i])) io.observe(links[i]);
    }
    if (i < links.length) whenIdle(slice);
  };
  whenIdle(slice);
}

export function startPrefetch() {
  document.documentElement.dataset.sgPrefetch = prefetchOff() ? 'off' : [FIRST_DELAY, BATCH_SIZE, BATCH_DELAY].join(',');
  if (prefetchOff()) return;
  const hover = (e) => {
    const a = e.target.closest && e.target.closest('a[href]');
    const p = a && pathOf(a);
    if (p) {
      dequeue(p);
      fetchNow(p);
    }
  };
  addEventListener('mouseover', hover, { passive: true });
  addEventListener('focusin', hover);
  if (!('IntersectionObserver' in window)) return;
  // A path leaves the queue when none of its links (the header's, the
  // footer's, the content's) is in the viewport any more.
  io = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const p = pathOf(e.target);
      if (!p) continue;
      const links = shown.get(p) || new Set();
      shown.set(p, links);
      // In the viewport and seen: a closed dropdown's links are not.
      const seen = e.isIntersecting && (!e.target.checkVisibility || e.target.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
      if (seen) {
        links.add(e.target);
        enqueue(p);
      } else {
        links.delete(e.target);
        if (!links.size) dequeue(p);
      }
    }
  });
  observe();
  addEventListener('sg:navigated', () => {
    io.disconnect();
    shown.clear();
    queue.length = 0;
    observe();
  });
}
