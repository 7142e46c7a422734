import { useState } from 'react';

// Termine: the association's events; past ones (judged by the build's date)
// are hidden until the visitor asks for them. SSR shows the upcoming ones.
export default function Termine({ items = [], showPast, hidePast, none }) {
  const [past, setPast] = useState(false);
  const shown = items.filter((e) => past || e.status !== 'past');
  return (
    <div className="termine__list">
      {shown.length === 0 ? (
        <p>{none}</p>
      ) : (
        <ul>
          {shown.map((e) => (
            <li key={e.date + e.title} className={e.status === 'past' ? 'past' : undefined}>
              <time dateTime={e.date}>{e.date}</time> {e.title} ({e.place})
            </li>
          ))}
        </ul>
      )}
      <button type="button" aria-pressed={past} onClick={() => setPast(!past)}>
        {past ? hidePast : showPast}
      </button>
    </div>
  );
}
