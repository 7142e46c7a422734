import { useEffect, useRef, useState } from 'react';
import { cx, useEnhanced } from './lib/hooks.js';

// MobileMenu: the site navigation as a <details> disclosure (works without
// JS). Hydrated it adds aria-expanded, Escape to close with focus returned to
// the toggle, closing on link click and on a click outside.
// Props: items [{label, href, items [{label, href}]}], labels {open, close,
// menu}, current (the current page URL, marked aria-current="page").
function isCurrent(href, current) {
  return Boolean(current) && href === current;
}

function Links({ items, current, level, onNavigate }) {
  return (
    <ul className={cx('mobile-menu__list', level > 0 && 'mobile-menu__list--sub')}>
      {items.map((it, i) => {
        const here = isCurrent(it.href, current);
        const inside = it.items && it.items.some((s) => isCurrent(s.href, current));
        return (
          <li key={i} className={cx('mobile-menu__item', inside && 'mobile-menu__item--active')}>
            {it.href ? (
              <a
                className={cx('mobile-menu__link', here && 'mobile-menu__link--current')}
                href={it.href}
                aria-current={here ? 'page' : undefined}
                onClick={onNavigate}
              >
                {it.label}
              </a>
            ) : (
              <span className="mobile-menu__heading">{it.label}</span>
            )}
            {it.items && it.items.length > 0 && (
              <Links items={it.items} current={current} level={level + 1} onNavigate={onNavigate} />
            )}
          </li>
        );
      })}
    </ul>
  );
}

export default function MobileMenu({ items = [], labels = {}, current = '' }) {
  const enhanced = useEnhanced();
  const [open, setOpen] = useState(false);
  const detailsRef = useRef(null);
  const summaryRef = useRef(null);

  useEffect(() => {
    const d = detailsRef.current;
    if (!d) return undefined;
    const onToggle = () => setOpen(d.open);
    const onKey = (ev) => {
      if (ev.key === 'Escape' && d.open) {
        ev.preventDefault();
        d.open = false;
        if (summaryRef.current) summaryRef.current.focus();
      }
    };
    const onOutside = (ev) => {
      if (d.open && !d.contains(ev.target)) d.open = false;
    };
    d.addEventListener('toggle', onToggle);
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onOutside);
    setOpen(d.open);
    return () => {
      d.removeEventListener('toggle', onToggle);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onOutside);
    };
  }, []);

  const close = () => {
    if (detailsRef.current) detailsRef.current.open = false;
  };

  const toggleLabel = open ? labels.close : labels.open;
  return (
    <details className={cx('mobile-menu', open && 'mobile-menu--open')} ref={detailsRef}>
      <summary
        className="mobile-menu__toggle"
        ref={summaryRef}
        aria-expanded={enhanced ? (open ? 'true' : 'false') : undefined}
      >
        <span className="mobile-menu__icon" aria-hidden="true" />
        <span className="mobile-menu__label">{labels.menu}</span>
        {enhanced && toggleLabel && <span className="visually-hidden">{` (${toggleLabel})`}</span>}
      </summary>
      <nav className="mobile-menu__nav" aria-label={labels.menu}>
        <Links items={items} current={current} level={0} onNavigate={close} />
      </nav>
    </details>
  );
}
