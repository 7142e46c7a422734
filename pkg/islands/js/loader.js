// sitegen island loader: finds <sg-island> wrappers, reads their props and
// hydrates each one per its directive. The library-specific `mount` is
// prepended by the Go build (see build.go).
//
// What it decided is visible on the wrapper, so a test can wait for the
// moment an island would have hydrated instead of sleeping:
// data-sg-waiting="visible" once the loader has been told the island is out
// of view, data-sg-waiting="media" once its media query did not match,
// data-hydrated once it is mounted; window.__sgIslandScans counts the scans
// (so a test knows the loader ran, or with scripts disabled that it did not).
const CHUNK = /^[\w-]+\.js$/;
const started = new WeakSet();

function readProps(el) {
  let props = {};
  const s = el.nextElementSibling;
  if (s && s.matches('script[data-sg-props]')) {
    try {
      props = JSON.parse(s.textContent || '{}') || {};
    } catch (e) {
      console.error('sitegen: bad island props', e);
    }
  }
  const c = el.querySelector('[data-sg-children]');
  if (c) props.childrenHtml = c.innerHTML;
  return props;
}

// CHUNK_TRIES bounds the attempts at an island's code, 200 ms apart
// (RUNTIME.md: "retries every 200 ms, bounded").
const CHUNK_TRIES = 10;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// preload asks for a module at low priority: a <link rel=modulepreload
// fetchpriority=low> (the priority is said in the markup: import() alone
// asks at high priority). The import() that follows at once shares the
// fetch through the document's module map; a module already there (a
// preload of the page's own late elements) is not fetched again.
function preload(url) {
  if ([...document.querySelectorAll('link[rel=modulepreload]')].some((l) => l.href === url)) return;
  const l = document.createElement('link');
  l.rel = 'modulepreload';
  l.setAttribute('fetchpriority', 'low');
  l.href = url;
  document.head.appendChild(l);
}

// importChunk imports an island's code, every 200 ms until it loads, at
// most CHUNK_TRIES attempts. A module whose fetch failed stays failed in
// the document's module map (Chromium before 156, the HTML standard until
// 2024): each retry asks for a new URL (?sg-retry=N), which the server
// answers with the same file. (A shared chunk that the island imports and
// that failed stays failed under its one URL: the attempts then end as
// below, and the full load fetches it afresh.) When all fail the rejection
// is left unhandled with webpack's message, and the runtime sends the
// browser to a full load of the page (once per session).
function importChunk(href, chunk, n = 0) {
  const url = n ? href + '?sg-retry=' + n : href;
  preload(url);
  return import(url).catch((e) => {
    if (n + 1 >= CHUNK_TRIES) {
      const err = new Error('Loading chunk ' + chunk + ' failed. (' + (e && e.message) + ')');
      err.cause = e;
      throw err;
    }
    return sleep(200).then(() => importChunk(href, chunk, n + 1));
  });
}

function start(el) {
  if (started.has(el)) return;
  started.add(el);
  el.removeAttribute('data-sg-waiting');
  const chunk = el.getAttribute('data-chunk');
  if (!chunk || !CHUNK.test(chunk)) return;
  const href = new URL('./' + chunk, import.meta.url).href;
  // A rejection after the last attempt is left unhandled on purpose
  // (see importChunk); an island that throws while mounting only logs.
  importChunk(href, chunk).then((m) => {
    try {
      mount(m.default, readProps(el), el);
      el.setAttribute('data-hydrated', '');
    } catch (e) {
      console.error('sitegen: island ' + el.getAttribute('data-island') + ' failed', e);
    }
  });
}

function schedule(el) {
  if (started.has(el)) return;
  const run = () => start(el);
  switch (el.getAttribute('data-directive')) {
    case 'load':
      run();
      break;
    case 'idle':
      if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
      else setTimeout(run, 200);
      break;
    case 'visible': {
      if (!('IntersectionObserver' in window)) return run();
      // A display:contents wrapper has no box: watch its first child.
      const target = getComputedStyle(el).display === 'contents' ? el.firstElementChild || el : el;
      const io = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            io.disconnect();
            run();
          } else if (!started.has(el)) {
            el.setAttribute('data-sg-waiting', 'visible');
          }
        },
        { rootMargin: '200px' },
      );
      io.observe(target);
      break;
    }
    case 'media': {
      const mq = window.matchMedia(el.getAttribute('data-media') || 'all');
      if (mq.matches) return run();
      el.setAttribute('data-sg-waiting', 'media');
      const onChange = (e) => {
        if (e.matches) {
          mq.removeEventListener('change', onChange);
          run();
        }
      };
      mq.addEventListener('change', onChange);
      break;
    }
    // "none" and anything else: never hydrated.
  }
}

function scan() {
  document.querySelectorAll('sg-island[data-chunk]').forEach(schedule);
  window.__sgIslandScans = (window.__sgIslandScans || 0) + 1;
}

scan();
// The client runtime dispatches this after swapping page content in.
window.addEventListener('sg:islands', scan);
