// The share-offer top bar (spec §2): the build writes its window
// (data-start..data-end, inclusive, YYYY-MM-DD) and the visitor's date
// decides; without JavaScript the build's date decided already.
import { $ } from './util.js';

export function showTopbar() {
  const bar = $('.topbar[data-start][data-end]');
  if (!bar) return;
  const d = new Date();
  const today = [d.getFullYear(), d.getMonth() + 1, d.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
  bar.hidden = !(bar.dataset.start <= today && today <= bar.dataset.end);
}
