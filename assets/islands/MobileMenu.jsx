import { useEffect, useRef, useState } from 'react';
import { cx, useEnhanced } from './lib/hooks.js';

// MobileMenu: the site navigation as a <details> disclosure (works without
// JS). The link list comes as children: the template renders it
// (templates/partials/mobile-menu-links.html) with the current page marked
// aria-current="page", so the server runs this component once per locale, not
// once per page, and hydration keeps the list as it is. Hydrated it adds
// aria-expanded, Escape to close with focus returned to the toggle, closing
// on link click and on a click outside.
// Props: labels {open, close, menu}; childrenHtml (the link list).
export default function MobileMenu({ labels = {}, childrenHtml = '' }) {
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

  // A click on a link of the list closes the menu.
  const onNavClick = (ev) => {
    const a = ev.target && ev.target.closest ? ev.target.closest('a') : null;
    if (a && detailsRef.current) detailsRef.current.open = false;
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
      <nav
        className="mobile-menu__nav"
        aria-label={labels.menu}
        data-sg-children=""
        onClick={onNavClick}
        dangerouslySetInnerHTML={{ __html: childrenHtml }}
      />
    </details>
  );
}
