import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { cx, useEnhanced } from './lib/hooks.js';

// ReportTabs: tabs over server-rendered panels.
// Props: tabs [{id, label}], childrenHtml (one <div id="{id}" class="report-panel">
// per tab, rendered by the templates). Without JS every panel is visible and
// the tab labels are in-page links. Hydrated it follows the WAI-ARIA tabs
// pattern (automatic activation, arrows, Home/End) and selects the tab named
// in location.hash.
const tabId = (id) => `${id}-tab`;

// fromHash finds the tab the URL's #hash points at: the tab itself, or the
// tab whose panel holds the element with that id (a link to one report).
function fromHash(tabs) {
  if (typeof window === 'undefined') return null;
  const h = decodeURIComponent(window.location.hash.slice(1));
  if (!h) return null;
  if (tabs.some((t) => t.id === h)) return { tab: h, target: null };
  const el = document.getElementById(h);
  if (!el) return null;
  for (const t of tabs) {
    const panel = document.getElementById(t.id);
    if (panel && panel.contains(el)) return { tab: t.id, target: el };
  }
  return null;
}

export default function ReportTabs({ tabs = [], childrenHtml = '' }) {
  const enhanced = useEnhanced();
  const [selected, setSelected] = useState(tabs.length ? tabs[0].id : null);
  const panelsRef = useRef(null);
  const tabRefs = useRef({});
  const scrollTo = useRef(null);

  // Select the tab named in the URL (or holding the element it names), and
  // follow later hash changes.
  useEffect(() => {
    const sync = () => {
      const h = fromHash(tabs);
      if (!h) return;
      scrollTo.current = h.target;
      setSelected(h.tab);
    };
    sync();
    window.addEventListener('hashchange', sync);
    return () => window.removeEventListener('hashchange', sync);
  }, [tabs]);

  // The panels are template HTML: wire them up and hide the inactive ones
  // before the enhanced markup is painted (an effect would run after the
  // paint, and one frame would show every panel: the CSS that hides them
  // before hydration no longer applies to the enhanced island).
  useLayoutEffect(() => {
    const root = panelsRef.current;
    if (!enhanced || !root) return;
    for (const t of tabs) {
      const panel = root.querySelector(`[id="${t.id.replace(/"/g, '\\"')}"]`);
      if (!panel) continue;
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', tabId(t.id));
      panel.setAttribute('tabindex', '0');
      panel.hidden = t.id !== selected;
    }
    // Hiding the other panels moved the linked element: bring it back into view.
    if (scrollTo.current) {
      scrollTo.current.scrollIntoView();
      scrollTo.current = null;
    }
  }, [enhanced, selected, tabs]);

  const select = (id, focus) => {
    setSelected(id);
    if (window.history && window.history.replaceState) {
      window.history.replaceState(window.history.state, '', `#${encodeURIComponent(id)}`);
    }
    if (focus && tabRefs.current[id]) tabRefs.current[id].focus();
  };

  const onKeyDown = (ev) => {
    const i = tabs.findIndex((t) => t.id === selected);
    let next = -1;
    switch (ev.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        next = (i + 1) % tabs.length;
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        next = (i - 1 + tabs.length) % tabs.length;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = tabs.length - 1;
        break;
      default:
        return;
    }
    ev.preventDefault();
    select(tabs[next].id, true);
  };

  // One structure before and after hydration: the same <ul> and <li>s hold
  // links without JS and tabs once enhanced (the list becomes the tablist,
  // its items presentation), so no element is replaced and nothing moves.
  // The panels are keyed: a list of another element type would otherwise
  // be matched to the panels' <div>, which the diff would turn into the
  // list (a layout shift of the whole panel area, seen at 390 px).
  return (
    <div className={cx('report-tabs', enhanced && 'report-tabs--enhanced')}>
      <ul key="list" className="report-tabs__list" role={enhanced ? 'tablist' : undefined} onKeyDown={enhanced ? onKeyDown : undefined}>
        {tabs.map((t) => {
          const on = t.id === selected;
          return (
            <li key={t.id} className="report-tabs__item" role={enhanced ? 'presentation' : undefined}>
              {enhanced ? (
                <button
                  type="button"
                  role="tab"
                  id={tabId(t.id)}
                  className={cx('report-tabs__tab', on && 'report-tabs__tab--selected')}
                  aria-selected={on ? 'true' : 'false'}
                  aria-controls={t.id}
                  tabIndex={on ? 0 : -1}
                  ref={(el) => {
                    tabRefs.current[t.id] = el;
                  }}
                  onClick={() => select(t.id, false)}
                >
                  {t.label}
                </button>
              ) : (
                <a className="report-tabs__tab" href={`#${t.id}`}>
                  {t.label}
                </a>
              )}
            </li>
          );
        })}
      </ul>
      <div key="panels" className="report-tabs__panels" data-sg-children="" ref={panelsRef} dangerouslySetInnerHTML={{ __html: childrenHtml }} />
    </div>
  );
}
