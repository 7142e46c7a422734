import { useEffect, useState } from 'react';

// Teilen: copies the page's address; without JavaScript (or a clipboard)
// the button stays disabled, as the server renders it.
export default function Teilen({ label, done }) {
  const [copied, setCopied] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(!!navigator.clipboard), []);
  return (
    <button
      type="button"
      className="teilen"
      disabled={!ready}
      onClick={() => navigator.clipboard.writeText(location.href).then(() => setCopied(true))}
    >
      {copied ? done : label}
    </button>
  );
}
