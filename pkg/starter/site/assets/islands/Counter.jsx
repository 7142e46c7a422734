import { useState } from 'react';

// Counter: an island. The build renders it into the HTML (the count shows
// without JavaScript); in the browser it hydrates when it scrolls into view.
export default function Counter({ label, add }) {
  const [n, setN] = useState(0);
  return (
    <p className="counter">
      <output aria-live="polite">{label}: <strong>{n}</strong></output>{' '}
      <button type="button" onClick={() => setN(n + 1)}>{add}</button>
    </p>
  );
}
