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

function start(el) {
  if (started.has(el)) return;
  started.add(el);
  el.removeAttribute('data-sg-waiting');
  const chunk = el.getAttribute('data-chunk');
  if (!chunk || !CHUNK.test(chunk)) return;
  const href = new URL('./' + chunk, import.meta.url).href;
  // import() fetches at high priority; a low-priority modulepreload first
  // makes the fetch low (the module map shares it): island code enhances a
  // page that works without it, and must not count into Lighthouse's LCP.
  if (![...document.querySelectorAll('link[rel=modulepreload]')].some((l) => l.href === href)) {
    const l = document.createElement('link');
    l.rel = 'modulepreload';
    l.href = href;
    l.fetchPriority = 'low';
    document.head.appendChild(l);
  }
  import(href)
    .then((m) => {
      mount(m.default, readProps(el), el);
      el.setAttribute('data-hydrated', '');
    })
    .catch((e) => console.error('sitegen: island ' + el.getAttribute('data-island') + ' failed', e));
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
