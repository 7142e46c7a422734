// The retiring service worker (site.yaml serviceWorker.retire: true). It
// replaces any earlier /sw.js on the browser's next update check, deletes
// the site's caches, unregisters itself and reloads the open pages, which
// then come from the network with no worker in between.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => {
  e.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith('sg-')).map((n) => caches.delete(n)));
      await self.registration.unregister();
      const windows = await self.clients.matchAll({ type: 'window' });
      // Reload the pages it controlled (a page it no longer controls
      // refuses: it loads without a worker next time anyway).
      await Promise.all(windows.map((w) => w.navigate(w.url).catch(() => null)));
    })(),
  );
});
