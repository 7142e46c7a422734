// Client-side navigation: link clicks and history become page swaps
// (RUNTIME.md "Page loading", "After navigation"). Anything unexpected falls
// back to a plain full load, so the runtime never breaks a page.
import { SESSION } from './keys.js';
import { appBuild, loadPage, loadSlice, pageBuild } from './loader.js';
import { $, $$, nextFrame, session } from './util.js';
import { routeChanged } from './analytics.js';
import { showTopbar } from './topbar.js';

export const PROGRESS_DELAY = 1000;

const state = { id: 0, key: '', path: location.pathname + location.search, updated: false };
const positions = {}; // in-memory fallback of the saved scroll positions

const newKey = () => Math.random().toString(36).slice(2, 10);
const here = () => location.pathname + location.search;
const scrollKey = (key, path) => key + path;

// A service worker update makes every later navigation a full load.
export const markUpdated = () => {
  state.updated = true;
  document.documentElement.dataset.sgUpdated = '';
};

// fullLoad leaves the single-page mode for the target.
function fullLoad(href, replace) {
  if (replace) location.replace(href);
  else location.assign(href);
}

// page links: same origin, same tab, not a download, no opt-out
// (data-no-swap on the link or a container), not a file.
export function swappable(a) {
  if (!a || !a.href || a.hasAttribute('download') || (a.target && a.target !== '_self')) return null;
  if (a.closest('[data-no-swap]')) return null;
  const u = new URL(a.href, location.href);
  if (u.origin !== location.origin || !/^https?:$/.test(u.protocol)) return null;
  const last = u.pathname.split('/').pop();
  if (last.includes('.') && !last.endsWith('.html')) return null;
  return u;
}

function saveScroll() {
  const k = scrollKey(state.key, state.path);
  positions[k] = [scrollX, scrollY];
  let all = {};
  try {
    all = JSON.parse(session(SESSION.scroll) || '{}');
  } catch (e) {
    // a damaged entry is replaced
  }
  all[k] = positions[k];
  const keys = Object.keys(all);
  if (keys.length > 100) delete all[keys[0]];
  session(SESSION.scroll, JSON.stringify(all));
}

function savedScroll(key, path) {
  const k = scrollKey(key, path);
  try {
    const all = JSON.parse(session(SESSION.scroll) || '{}');
    if (all[k]) return all[k];
  } catch (e) {
    // fall back to memory
  }
  return positions[k];
}

let progressTimer = 0;
function progress(on) {
  clearTimeout(progressTimer);
  let bar = $('#sg-progress');
  if (!on) {
    if (bar) bar.remove();
    return;
  }
  progressTimer = setTimeout(() => {
    if (!bar) {
      bar = document.createElement('div');
      bar.id = 'sg-progress';
      bar.className = 'route-progress';
      bar.setAttribute('aria-hidden', 'true');
      document.body.append(bar);
    }
  }, PROGRESS_DELAY);
}

// navigate shows url. how: "push" (a click), "replace", or "pop" (history).
export async function navigate(url, how) {
  const id = ++state.id;
  const target = url.pathname + url.search;
  if (state.updated) return fullLoad(url.href, how === 'pop');
  if (how !== 'pop') saveScroll();
  progress(true);
  const [r, build] = await Promise.all([loadPage(target), appBuild()]);
  if (id !== state.id) return; // a later navigation won
  progress(false);
  const stale = (build && build !== pageBuild) || (r.data && r.data.webpackCompilationHash !== pageBuild);
  if (r.kind === 'full' || r.kind === 'error' || stale) {
    if (r.kind === 'error') console.warn('page resources for ' + target + ' not found');
    return fullLoad(url.href, how === 'pop');
  }
  const pc = r.data.result.pageContext;
  const slices = pc.lang !== document.documentElement.lang ? r.data.slicesMap || {} : {};
  const parts = await Promise.all(Object.keys(slices).map((s) => loadSlice(slices[s]).then((h) => [s, h])));
  if (id !== state.id) return;
  if (parts.some(([, h]) => h === null)) return fullLoad(url.href, how === 'pop');
  if (how === 'push') {
    state.key = newKey();
    history.pushState({ key: state.key }, '', url.href);
  } else if (how === 'replace') {
    history.replaceState({ key: state.key }, '', url.href);
  }
  state.path = target;
  swap(r, Object.fromEntries(parts), url);
  after(url, how);
}

function setHead(sel, make, value) {
  let el = $(sel, document.head);
  if (!value) return el && el.remove();
  if (!el) document.head.append((el = make()));
  el.setAttribute(el.tagName === 'LINK' ? 'href' : 'content', value);
}

function swap(r, parts, url) {
  const { page, pageContext: pc } = r.data.result;
  const root = document.documentElement;
  root.lang = pc.lang;
  document.title = page.title;
  const meta = (n) => () => Object.assign(document.createElement('meta'), { name: n });
  setHead('meta[name=description]', meta('description'), page.description);
  setHead('meta[name=robots]', meta('robots'), page.robots);
  setHead('link[rel=canonical]', () => Object.assign(document.createElement('link'), { rel: 'canonical' }), page.canonical);
  const origin = page.canonical ? new URL(page.canonical).origin : location.origin;
  const variants = pc.langVariants || [];
  $$('link[rel=alternate][hreflang]').forEach((l) => {
    const v = variants.find((x) => x.lang === (l.hreflang === 'x-default' ? pc.langs[0] : l.hreflang));
    if (v) l.href = origin + v.path;
    else l.remove();
  });
  const main = $('main');
  const body = document.body;
  if (parts.header) {
    const before = [];
    for (let n = body.firstChild; n && n !== main; n = n.nextSibling) before.push(n);
    before.forEach((n) => n.remove());
    main.insertAdjacentHTML('beforebegin', parts.header);
  }
  if (parts.footer) {
    const after = [];
    for (let n = main.nextSibling; n; n = n.nextSibling) {
      if (n.nodeType === 1 && (n.matches('script[type=module],link[rel=modulepreload]') || n.id === 'sg-progress')) break;
      after.push(n);
    }
    after.forEach((n) => n.remove());
    main.insertAdjacentHTML('afterend', parts.footer);
  }
  body.className = 'layout-' + page.layout + ' page-' + pc.pageName;
  main.innerHTML = page.html;
  markCurrent(url.pathname, pc, variants);
  showTopbar();
  hydrate(r.rsc);
}

// markCurrent sets the "you are here" marks of the header and footer, and
// points the language switchers at this page's variants.
function markCurrent(path, pc, variants) {
  $$('header a[href], footer a[href]').forEach((a) => {
    if (a.closest('.lang-switch')) return;
    const same = new URL(a.href, location.href).pathname === path && !a.hash;
    if (same) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  $$('.main-nav__item').forEach((li) => li.classList.toggle('is-active', !!$('a[aria-current=page]', li)));
  // The mobile menu marks the same with classes (partials/mobile-menu-links.html).
  $$('.mobile-menu__link').forEach((a) => a.classList.toggle('mobile-menu__link--current', a.getAttribute('aria-current') === 'page'));
  $$('.mobile-menu__item').forEach((li) => li.classList.toggle('mobile-menu__item--active', !!$(':scope > ul > li > a[aria-current=page]', li)));
  $$('.lang-switch').forEach((nav) => {
    nav.hidden = variants.length < 2;
    $$('a[hreflang]', nav).forEach((a) => {
      const v = variants.find((x) => x.lang === a.hreflang);
      if (v) a.href = v.path;
      if (a.hreflang === pc.lang) a.setAttribute('aria-current', 'true');
      else a.removeAttribute('aria-current');
    });
  });
}

// hydrate starts the islands of the new content: the island loader (loaded
// once, retried every 200 ms while its code is not available, at most
// LOADER_TRIES times) scans for new <sg-island> elements on "sg:islands".
export const LOADER_TRIES = 10;
let loader = null;
function hydrate(rsc) {
  const src = (rsc && rsc.loader) || (($('script[src*="/islands/loader"]') || {}).src);
  if (rsc) {
    for (const m of rsc.modules || []) {
      if (!$('link[rel=modulepreload][href="' + m + '"]')) {
        const l = Object.assign(document.createElement('link'), { rel: 'modulepreload', href: m });
        l.setAttribute('fetchpriority', 'low');
        document.head.append(l);
      }
    }
  }
  if (!src || $('script[src="' + new URL(src, location.href).pathname + '"]') || loader) return (loader || Promise.resolve()).then(scan);
  retryLoader(src, 0);
}

const scan = () => dispatchEvent(new Event('sg:islands'));

// retryLoader imports the island loader, every 200 ms until it loads (at
// most LOADER_TRIES attempts), then the loader scans the page. Attempt n
// asks for src?sg-retry=n: a module whose fetch failed stays failed in the
// document's module map (Chromium before 156), so the same URL would never
// be fetched again.
function retryLoader(src, tries) {
  const attempt = () =>
    import(/* @vite-ignore */ tries ? retryURL(src, tries) : src).catch((e) => {
      if (++tries >= LOADER_TRIES) throw e;
      return new Promise((r) => setTimeout(r, 200)).then(attempt);
    });
  return (loader = attempt().then(scan, (e) => console.error('sitegen: island loader ' + src + ' failed', e)));
}

export const retryURL = (src, n) => {
  const u = new URL(src, location.href);
  u.searchParams.set('sg-retry', n);
  return u.href;
};

// On a direct load the loader is a <script> of the page: when it fails to
// load (a 503, a dropped connection), retry it as above, 200 ms later. Its
// error can come before this module runs (Firefox fires it as soon as the
// fetch fails): the page's late loader notes failed scripts in
// self.sgFailed. (Error events of elements do not bubble: listen in the
// capture phase.)
export function watchLoader() {
  const failed = (src) => {
    if (!loader && /\/islands\/loader/.test(src)) loader = new Promise((r) => setTimeout(r, 200)).then(() => retryLoader(src, 1));
  };
  (self.sgFailed || []).forEach(failed);
  addEventListener('error', (e) => e.target.localName === 'script' && failed(e.target.src), true);
}

// checkResources loads this page's own resources (its page data, static
// queries, island manifest) as a navigation would: when they are missing
// the page stays as the server sent it (static HTML, full loads) and the
// console says so. Error pages are shown at any address: not checked.
export function checkResources() {
  if (document.body.classList.contains('layout-error')) return;
  const path = here();
  loadPage(path, 0, 'low').then((r) => {
    if (r.kind !== 'ok') console.error('page resources for ' + path + ' not found');
  });
}

const jump = (left, top) => scrollTo({ left, top, behavior: 'instant' });

// after: scroll, focus, announce, analytics.
function after(url, how) {
  const saved = how === 'pop' && savedScroll(state.key, state.path);
  const el = url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)));
  // Instant, whatever the page's scroll-behavior: a new page does not glide.
  if (saved) jump(saved[0], saved[1]);
  else if (el) el.scrollIntoView({ behavior: 'instant' });
  else jump(0, 0);
  const main = $('main');
  main.focus({ preventScroll: true });
  announce();
  routeChanged();
  dispatchEvent(new CustomEvent('sg:navigated', { detail: { path: state.path } }));
}

// announce tells assistive technology where it is, one frame after the
// swap, clearing first so that a repeated text is announced again.
async function announce() {
  const box = $('#sg-announcer');
  if (!box) return;
  const h1 = $('main h1');
  const title = (h1 && h1.textContent.trim()) || document.title;
  const text = title
    ? box.dataset.navigated.replace('{title}', title)
    : box.dataset.newPage.replace('{path}', location.pathname);
  box.textContent = '';
  await nextFrame();
  box.textContent = text;
}

function onClick(e) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = e.target.closest && e.target.closest('a[href]');
  const url = swappable(a);
  if (!url) return;
  // Same page, another #hash: the browser scrolls without a load.
  if (url.pathname + url.search === here() && url.hash) return;
  e.preventDefault();
  navigate(url, url.href === location.href ? 'replace' : 'push');
}

function onPop(e) {
  const key = e.state && e.state.key;
  // Back to the entry this page was shown in (an island's own history
  // entry, e.g. JobsList's details view, was left): nothing to swap.
  if (key && key === state.key && here() === state.path) return;
  if (!key) {
    // A #hash entry of the page we show (the browser scrolls to it).
    if (here() === state.path) return;
    state.key = newKey();
    history.replaceState({ key: state.key }, '');
  } else {
    saveScroll();
    state.key = key;
  }
  navigate(new URL(location.href), 'pop');
}

let ticking = false;
function onScroll() {
  if (ticking) return;
  ticking = true;
  requestAnimationFrame(() => {
    ticking = false;
    saveScroll();
  });
}

export function start() {
  history.scrollRestoration = 'manual';
  state.key = (history.state && history.state.key) || newKey();
  if (!history.state || !history.state.key) history.replaceState({ ...(history.state || {}), key: state.key }, '');
  const saved = savedScroll(state.key, state.path);
  if (saved) jump(saved[0], saved[1]);
  addEventListener('click', onClick);
  addEventListener('popstate', onPop);
  addEventListener('scroll', onScroll, { passive: true });
  addEventListener('pagehide', saveScroll);
  routeChanged();
}
