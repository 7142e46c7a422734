// Core Web Vitals to the data layer (loaded only after consent): each
// metric once per page load, debounced 3 s, CLS × 1000, values rounded.
import { onCLS, onINP, onLCP } from 'web-vitals';

export const DEBOUNCE = 3000;

export function measure(push) {
  const queue = new Map();
  const sent = new Set();
  let timer = 0;
  const flush = () => {
    for (const m of queue.values()) {
      sent.add(m.name);
      push({
        event: 'core-web-vitals',
        webVitalsMeasurement: { name: m.name, id: m.id, value: Math.round(m.name === 'CLS' ? m.value * 1000 : m.value) },
      });
    }
    queue.clear();
  };
  const report = (m) => {
    if (sent.has(m.name)) return;
    queue.set(m.name, m);
    clearTimeout(timer);
    timer = setTimeout(flush, DEBOUNCE);
  };
  onCLS(report);
  onLCP(report);
  onINP(report);
}
