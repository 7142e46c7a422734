// sitegen dev client: reloads the page when its output changes, swaps
// stylesheets in place when only they changed, keeps the scroll position, and
// shows build errors over the page. Served by `sitegen serve` only.
const script = document.querySelector('script[data-sitegen-dev]');
const file = script ? script.dataset.file || '' : '';
const scrollKey = 'sitegen-dev-scroll:' + location.pathname;

const saved = sessionStorage.getItem(scrollKey);
if (saved) {
  sessionStorage.removeItem(scrollKey);
  const [x, y] = JSON.parse(saved);
  const restore = () => window.scrollTo(x, y);
  if (document.readyState === 'complete') restore();
  else addEventListener('load', restore, { once: true });
}

function reload() {
  sessionStorage.setItem(scrollKey, JSON.stringify([window.scrollX, window.scrollY]));
  location.reload();
}

// affects tells whether a change to these output paths shows on this page:
// its own HTML, or anything that is not another page's HTML or page data.
function affects(paths) {
  if (!file) return true;
  return paths.some((p) => p === file || !(p.endsWith('.html') || p.startsWith('page-data/')));
}

function swapStyles() {
  for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin) continue;
    url.searchParams.set('sitegen-dev', Date.now().toString(36));
    const next = link.cloneNode();
    next.href = url.href;
    next.addEventListener('load', () => link.remove(), { once: true });
    next.addEventListener('error', () => next.remove(), { once: true });
    link.after(next);
  }
}

const css = `
:host { all: initial; }
.backdrop { position: fixed; inset: 0; z-index: 2147483647; background: rgba(15, 23, 42, .72); overflow: auto;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #0f172a; }
.panel { max-width: 960px; margin: 6vh auto; background: #fff; border-top: 6px solid #dc2626; border-radius: 8px;
  box-shadow: 0 20px 50px rgba(0, 0, 0, .4); padding: 1.25rem 1.5rem; }
h2 { margin: 0 0 .75rem; font-size: 1.15rem; color: #b91c1c; }
.item { margin: 1rem 0 0; }
.where { font: 600 14px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: #1e3a8a; }
.msg { margin: .25rem 0; white-space: pre-wrap; }
.hint { margin: .25rem 0; color: #475569; }
pre { margin: .5rem 0 0; padding: .6rem .8rem; background: #f1f5f9; border-radius: 6px; overflow: auto;
  font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
.caret { color: #dc2626; }
.foot { margin: 1rem 0 0; color: #475569; font-size: 13px; }
button { float: right; font: inherit; border: 1px solid #cbd5e1; background: #fff; border-radius: 6px; padding: .2rem .6rem; cursor: pointer; }
button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
`;

let host = null;

function clearOverlay() {
  if (host) host.remove();
  host = null;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function showOverlay(errors) {
  clearOverlay();
  host = document.createElement('sitegen-error-overlay');
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = css;
  const backdrop = el('div', 'backdrop');
  const panel = el('div', 'panel');
  panel.setAttribute('role', 'alertdialog');
  panel.setAttribute('aria-labelledby', 'sg-title');
  const close = el('button', '', 'Close');
  close.type = 'button';
  close.addEventListener('click', clearOverlay);
  // As sitegen build counts them: errors, not the notes and warnings beside.
  const count = errors.filter((e) => !e.severity || e.severity === 'error').length;
  const title = el('h2', '', count === 1 ? 'Build failed: 1 error' : `Build failed: ${count} errors`);
  title.id = 'sg-title';
  panel.append(close, title);
  for (const e of errors) {
    const item = el('div', 'item');
    let where = e.file || '';
    if (e.line) where += ':' + e.line;
    if (e.line && e.col) where += ':' + e.col;
    if (where) item.append(el('div', 'where', where));
    item.append(el('p', 'msg', e.severity && e.severity !== 'error' ? `${e.severity}: ${e.message}` : e.message));
    if (e.hint) item.append(el('p', 'hint', 'Hint: ' + e.hint));
    if (e.source != null && e.line) {
      const pre = el('pre');
      const num = String(e.line) + ' | ';
      pre.append(document.createTextNode(num + e.source));
      if (e.col) pre.append(el('span', 'caret', '\n' + ' '.repeat(num.length + e.col - 1) + '^'));
      item.append(pre);
    }
    panel.append(item);
  }
  panel.append(el('p', 'foot', 'The last good build is still served. Fix the file and save: this closes by itself.'));
  backdrop.append(panel);
  root.append(style, backdrop);
  document.documentElement.append(host);
  close.focus();
}

addEventListener('keydown', (e) => {
  if (e.key === 'Escape') clearOverlay();
});

const events = new EventSource('/_sitegen/events');
events.addEventListener('reload', (e) => {
  const data = JSON.parse(e.data);
  clearOverlay();
  if (data.recovered || affects(data.changed || [])) reload();
});
events.addEventListener('css', () => {
  clearOverlay();
  swapStyles();
});
events.addEventListener('build-error', (e) => showOverlay(JSON.parse(e.data).errors));
events.addEventListener('ok', clearOverlay);
// A restarted server has a new session: the page may be stale.
let session = null;
events.addEventListener('hello', (e) => {
  const id = JSON.parse(e.data).session;
  if (session && session !== id) reload();
  session = id;
  document.documentElement.dataset.sitegenDev = 'connected';
});
