// sitegen island loader: finds <sg-island> wrappers, reads their props and
// hydrates each one per its directive. The library-specific `mount` is
// prepended by the Go build (see build.go).
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
  const chunk = el.getAttribute('data-chunk');
  if (!chunk || !CHUNK.test(chunk)) return;
  import(new URL('./' + chunk, import.meta.url).href)
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
}

scan();
// The client runtime dispatches this after swapping page content in.
window.addEventListener('sg:islands', scan);
