// Small shared helpers: safe session and local storage, sleeping with jitter, locale.
export const $ = (s, r = document) => r.querySelector(s);
export const $$ = (s, r = document) => Array.from(r.querySelectorAll(s));

export function session(key, value) {
  try {
    if (value === undefined) return sessionStorage.getItem(key);
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
    return value;
  } catch (e) {
    return undefined; // no storage (privacy mode, sandbox): callers degrade
  }
}

export function local(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
    return value;
  } catch (e) {
    return undefined; // no storage: callers degrade
  }
}

// Backoff for retry n (0-based): 100, 200, 400 ms, each ×0.5–1.5 (jitter).
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const backoff = (n) => sleep(100 * 2 ** n * (0.5 + Math.random()));

export const meta = (name) => {
  const m = $('meta[name="' + name + '"]');
  return m ? m.content : '';
};

// The locale of a path: its first segment when the page offers that
// language (hreflang alternates), else the current page's language.
export function localeOf(path) {
  const m = /^\/([a-z]{2}(?:-[a-z]{2})?)(?=\/|$)/i.exec(path);
  const langs = new Set($$('link[rel=alternate][hreflang]').map((l) => l.hreflang));
  langs.add(document.documentElement.lang);
  return m && langs.has(m[1]) ? m[1] : document.documentElement.lang;
}

export const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));

// inTasks runs fns in order, each in a task of its own, so that no one of
// them adds to another's long task (Total Blocking Time counts each task's
// time over 50 ms). Timers of one delay run in the order they were set, each
// as a task; set at the top level they are not clamped. One that throws is
// reported as an uncaught error, as before, and the rest still run.
export const inTasks = (fns) => fns.forEach((f) => setTimeout(f));
