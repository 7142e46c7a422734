import { useEffect, useState } from 'react';
import { cx, useEnhanced, useMediaQuery } from './lib/hooks.js';

// RotatingText: a prefix followed by a word that rotates through items.
// Props: prefix, items, intervalMs, labels {pause, play} (the pause button,
// WCAG 2.2.2; without labels the text does not rotate).
// SSR and no-JS show the prefix and the first item. Assistive technology
// reads the whole list (visually hidden); the rotating word is aria-hidden.
// Every item is also laid out, invisible, in the same grid cell as the line
// (rotating-text__sizer): the line is as high as its longest item from the
// server render on, so a rotation to a longer word that wraps moves nothing.
export default function RotatingText({ prefix = '', items = [], intervalMs = 2500, labels = {} }) {
  const enhanced = useEnhanced();
  const reduced = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const rotates = enhanced && !reduced && items.length > 1 && Boolean(labels.pause && labels.play);
  const delay = Math.max(1000, Number(intervalMs) || 2500);

  useEffect(() => {
    if (!rotates || paused) return undefined;
    const t = setInterval(() => setIndex((i) => (i + 1) % items.length), delay);
    return () => clearInterval(t);
  }, [rotates, paused, delay, items.length]);

  const current = items.length ? items[index % items.length] : '';
  return (
    <div className={cx('rotating-text', rotates && 'rotating-text--active', paused && 'rotating-text--paused')}>
      <div className="rotating-text__stage">
        <p className="rotating-text__line">
          {prefix && <span className="rotating-text__prefix">{prefix} </span>}
          <span className="rotating-text__item" aria-hidden="true" key={index}>
            {current}
          </span>
        </p>
        {items.length > 1 &&
          items.map((item, i) => (
            <p key={'sizer' + i} className="rotating-text__line rotating-text__sizer" aria-hidden="true">
              {prefix && <span className="rotating-text__prefix">{prefix} </span>}
              <span className="rotating-text__sizer-item">{item}</span>
            </p>
          ))}
      </div>
      {items.length > 0 && (
        <ul className="rotating-text__all visually-hidden">
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      )}
      {rotates && (
        <button
          type="button"
          className="rotating-text__toggle"
          onClick={() => setPaused((p) => !p)}
        >
          {paused ? labels.play : labels.pause}
        </button>
      )}
    </div>
  );
}
