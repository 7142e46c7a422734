import { useEffect, useRef, useState } from 'react';

// Search: a search box for the pages of one locale (docs/templates.md
// "Search").
//
// Without JavaScript it is a GET form to the locale's search page (action),
// which lists every page of the locale with its summary: the visitor browses
// or uses the browser's find in page. Hydrated, it fetches the locale's index
// (index: "/ja/search.json", written by templates/files/search.json) once, on
// the first focus or input, never before: the index is not in the page or its
// props. Typing filters the pages by title and summary: every word of the
// query must occur in one of them, compared after Unicode NFKC normalisation
// and lower-casing, as substrings (no word boundaries: Japanese has no
// spaces between words). Results are links, title matches first; the count is
// said in a polite live region; ArrowDown/ArrowUp move between the box and
// the results, Escape closes them and returns to the box, and focus leaving
// the form closes them. On the search page
// itself, ?q= fills the box and shows its results.
// Props: index, action (the search page), labels {label, submit, placeholder,
// loading, error, none, one, many ("{n} pages")}.

// fold makes text comparable: NFKC (full-width Latin and half-width kana
// become their usual forms), lower case.
export function fold(s) {
  return String(s || '')
    .normalize('NFKC')
    .toLowerCase();
}

// terms splits a query at white space (U+3000, the ideographic space, too).
export function terms(q) {
  return fold(q)
    .split(/\s+/u)
    .filter(Boolean);
}

// match returns the pages in which every term occurs in the title or the
// summary: title matches first, then by the order of the index.
export function match(pages, q) {
  const ts = terms(q);
  if (!ts.length) return [];
  const hits = [];
  pages.forEach((p, i) => {
    const title = fold(p.title);
    const text = title + '\n' + fold(p.summary);
    if (ts.every((t) => text.includes(t))) hits.push({ p, i, inTitle: ts.every((t) => title.includes(t)) });
  });
  hits.sort((a, b) => b.inTitle - a.inTitle || a.i - b.i);
  return hits.map((h) => h.p);
}

const MAX = 10;

// href percent-encodes a site path (slugs may be in any script), once.
const href = (u) => (/%[0-9A-Fa-f]{2}/.test(u) ? u : encodeURI(u));

function countText(labels, n) {
  if (n === 0) return labels.none || '';
  return (n === 1 ? labels.one : labels.many || '').replace('{n}', String(n));
}

export default function Search({ index = '', action = '', labels = {} }) {
  const [q, setQ] = useState('');
  const [pages, setPages] = useState(null); // null until the index is loaded
  const [status, setStatus] = useState('idle'); // idle, loading, ready, error
  const [open, setOpen] = useState(false);
  const loading = useRef(null);
  const rootRef = useRef(null);
  const inputRef = useRef(null);
  const listRef = useRef(null);

  const load = () => {
    if (!loading.current) {
      setStatus('loading');
      loading.current = fetch(index, { credentials: 'same-origin' })
        .then((r) => {
          if (!r.ok) throw new Error(index + ': ' + r.status);
          return r.json();
        })
        .then(
          (list) => {
            setPages(Array.isArray(list) ? list : []);
            setStatus('ready');
          },
          () => {
            loading.current = null; // the next focus or input tries again
            setStatus('error');
          },
        );
    }
    return loading.current;
  };

  // On the search page, ?q= (the form sent before the island hydrated, or a
  // shared link) fills the box and shows its results.
  useEffect(() => {
    if (!action || new URL(action, location.href).pathname !== location.pathname) return;
    const v = new URLSearchParams(location.search).get('q');
    if (v) {
      setQ(v);
      setOpen(true);
      load();
    }
  }, []);

  // A click outside, focus leaving the form (the results would cover what
  // gets it: WCAG 2.4.11), or a page swap (the header stays mounted) closes
  // the results.
  useEffect(() => {
    const root = rootRef.current;
    const outside = (ev) => root && !root.contains(ev.target) && setOpen(false);
    const left = (ev) => ev.relatedTarget && root && !root.contains(ev.relatedTarget) && setOpen(false);
    const swapped = () => setOpen(false);
    document.addEventListener('click', outside);
    root && root.addEventListener('focusout', left);
    addEventListener('sg:navigated', swapped);
    return () => {
      document.removeEventListener('click', outside);
      root && root.removeEventListener('focusout', left);
      removeEventListener('sg:navigated', swapped);
    };
  }, []);

  const hits = pages ? match(pages, q) : [];
  const shown = hits.slice(0, MAX);
  const active = open && terms(q).length > 0;
  let said = '';
  if (active && status === 'loading') said = labels.loading || '';
  else if (active && status === 'error') said = labels.error || '';
  else if (active && pages) said = countText(labels, hits.length);

  const links = () => (listRef.current ? Array.from(listRef.current.querySelectorAll('a')) : []);
  const onKey = (ev) => {
    if (ev.key === 'Escape') {
      if (open) ev.preventDefault();
      setOpen(false);
      inputRef.current && inputRef.current.focus();
      return;
    }
    if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp') return;
    const all = links();
    if (!all.length) return;
    ev.preventDefault();
    const at = all.indexOf(document.activeElement);
    if (ev.key === 'ArrowDown') all[Math.min(at + 1, all.length - 1)].focus();
    else if (at <= 0) inputRef.current && inputRef.current.focus();
    else all[at - 1].focus();
  };
  // With JavaScript, sending the form moves focus to the first result (the
  // list is already shown); with none, the form goes to the search page.
  const onSubmit = (ev) => {
    const first = links()[0];
    if (first) {
      ev.preventDefault();
      first.focus();
    } else if (pages) {
      ev.preventDefault();
      setOpen(true);
    }
  };

  return (
    <form className="search" role="search" action={href(action)} method="get" ref={rootRef} onSubmit={onSubmit} onKeyDown={onKey}>
      <label className="search__label" htmlFor="search-q">
        {labels.label}
      </label>
      <span className="search__row">
        <input
          ref={inputRef}
          id="search-q"
          className="search__input"
          type="search"
          name="q"
          value={q}
          placeholder={labels.placeholder}
          autoComplete="off"
          aria-describedby="search-status"
          aria-controls={active && shown.length ? 'search-results' : undefined}
          onFocus={() => {
            load();
            setOpen(true);
          }}
          onInput={(ev) => {
            load();
            setQ(ev.target.value);
            setOpen(true);
          }}
        />
        <button className="search__submit" type="submit">
          {labels.submit}
        </button>
      </span>
      <p className="search__status" id="search-status" role="status" aria-live="polite" aria-atomic="true">
        {said}
      </p>
      {active && shown.length > 0 && (
        <ul className="search__results" id="search-results" ref={listRef}>
          {shown.map((p) => (
            <li key={p.url}>
              <a href={href(p.url)} onClick={() => setOpen(false)}>
                <span className="search__title">{p.title}</span>
                {p.summary && <span className="search__summary">{p.summary}</span>}
              </a>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
