// Shared client helpers for islands. Every island renders the same markup on
// the server and in its first client render (hydration), then enhances.
import { useEffect, useState } from 'react';

// useEnhanced is false during SSR and the hydration render, true once the
// component runs in the browser: render the no-JS markup until then.
export function useEnhanced() {
  const [on, setOn] = useState(false);
  useEffect(() => setOn(true), []);
  return on;
}

// useMediaQuery tracks a media query in the browser (false on the server).
export function useMediaQuery(query) {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    if (typeof window === 'undefined' || !window.matchMedia) return undefined;
    const mq = window.matchMedia(query);
    const update = () => setMatches(mq.matches);
    update();
    mq.addEventListener('change', update);
    return () => mq.removeEventListener('change', update);
  }, [query]);
  return matches;
}

// cx joins class names, skipping falsy ones.
export function cx(...names) {
  return names.filter(Boolean).join(' ');
}
