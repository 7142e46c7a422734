import { useState } from 'react';

// AddToCart: a button that counts what is in the cart; SSR shows zero.
export default function AddToCart({ name, stock = 0, label, countLabel }) {
  const [n, setN] = useState(0);
  return (
    <p className="add-to-cart">
      <button type="button" disabled={stock <= n} onClick={() => setN(n + 1)}>
        {label} <span className="visually-hidden">{name}</span>
      </button>{' '}
      <output>{countLabel}: {n}</output>
    </p>
  );
}
