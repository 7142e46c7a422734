// Service worker registration (RUNTIME.md "Service worker"): only in a
// secure context; an installed update makes the next navigation a full load.
import { markUpdated } from './navigate.js';
import { meta } from './util.js';

export const INSECURE = 'Service workers can only be used over HTTPS, or on localhost for development';

export function startWorker() {
  // A retired worker unregisters itself: register nothing.
  if (meta('sitegen-sw') === 'retire') return;
  // (Browsers hide navigator.serviceWorker outside secure contexts.)
  if (!window.isSecureContext) {
    console.error(INSECURE);
    return;
  }
  if (!('serviceWorker' in navigator)) return;
  const register = () =>
    navigator.serviceWorker.register('/sw.js').then(
      (reg) => {
        reg.addEventListener('updatefound', () => {
          const w = reg.installing;
          let installed = false;
          w.addEventListener('statechange', () => {
            if (w.state === 'installed') {
              installed = true;
              if (navigator.serviceWorker.controller) markUpdated();
            } else if (w.state === 'redundant' && !installed) {
              console.error('The installing service worker became redundant.');
            }
          });
        });
      },
      // Aborted: the page is going away (a navigation during the
      // registration), which is no error; the next page registers.
      (e) => e && e.name === 'AbortError' ? undefined : console.error('Error during service worker registration:', e),
    );
  if (document.readyState === 'complete') register();
  else addEventListener('load', register);
}
