import { cx } from './lib/text.js';

// Greeting: a prefix and a list; used for the escaping and golden tests.
export default function Greeting({ prefix = '', items = [], loud = false }) {
  return (
    <p className={cx('greeting', loud && 'greeting--loud')}>
      {prefix}{' '}
      <ul className="greeting__items">
        {items.map((it) => (
          <li key={it}>{it}</li>
        ))}
      </ul>
    </p>
  );
}
