import { useEffect, useState } from 'react';
import { cx, plural } from './lib/text.js';

// Counter: a button with state; SSR shows the start value and no
// enhancement, the client marks itself enhanced after mounting.
export default function Counter({ label, start = 0, unit = ['item', 'items'] }) {
  const [n, setN] = useState(start);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return (
    <p className={cx('counter', enhanced && 'counter--enhanced')}>
      <button type="button" onClick={() => setN(n + 1)}>
        {label}
      </button>{' '}
      <output aria-live="polite">
        {n} {plural(n, unit[0], unit[1])}
      </output>
    </p>
  );
}
