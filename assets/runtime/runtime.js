// sitegen client runtime: page swaps, prefetch, build identity, service
// worker, consent-gated analytics and the top bar. Every page works as a
// plain full load without it; it only makes navigation faster.
import { SESSION } from './keys.js';
import { appBuild, pageBuild } from './loader.js';
import { checkResources, start as startNavigation, watchLoader } from './navigate.js';
import { startPrefetch } from './prefetch.js';
import { startWorker } from './register.js';
import { startAnalytics } from './analytics.js';
import { showTopbar } from './topbar.js';
import { inTasks, session } from './util.js';

export { LOCAL, SESSION, CACHES } from './keys.js';

// oneShot sets the session reload guard (why: "build" or "chunk"); false
// when it is set already or storage is not available (then never reload:
// no loop is possible). A passing build check clears only its own flag, so
// a chunk that keeps failing reloads once per session, not once per load.
function oneShot(why) {
  if (session(SESSION.reload)) return false;
  return session(SESSION.reload, why) === why && session(SESSION.reload) === why;
}

// A chunk that fails to load (a deploy removed it; the island loader's
// last attempt, named by its file) sends the browser to a full load of
// where it is, the path a swap went to (search and hash kept), once.
addEventListener('unhandledrejection', (e) => {
  const msg = String((e.reason && e.reason.message) || e.reason || '');
  if ((/loading chunk (\d+|[\w.-]+)? ?failed\./i.test(msg) || /failed to fetch dynamically imported module/i.test(msg)) && oneShot('chunk')) location.reload();
});

const root = document.documentElement;

// start marks the start of one part as performance.mark('sg:start:NAME')
// (navigation, prefetch, analytics, worker, build, resources): cheap, visible in
// a profile, and how the tests see that the parts start in separate tasks.
const start = ([name, f]) => {
  performance.mark('sg:start:' + name);
  f();
};

// At once: the top bar (it is painted) and navigation (scroll restoration
// and the saved scroll of this entry must be set before the first frames).
// The rest each in a task of its own: all in one task made a 55-145 ms
// long task at a mobile CPU (bench/lighthouse/README.md), counted into
// Total Blocking Time. They follow within a few tasks, before any input
// a visitor can give.
showTopbar();
watchLoader();
start(['navigation', startNavigation]);
inTasks(
  [
    ['prefetch', startPrefetch],
    ['analytics', startAnalytics],
    ['worker', startWorker],
    ['build', checkBuild],
    ['resources', checkResources],
  ].map((p) => () => start(p)),
);

// Build identity: another build on the server reloads the page once.
function checkBuild() {
  appBuild('low').then((h) => {
    if (!h) return (root.dataset.sgBuild = 'unknown');
    if (h === pageBuild) {
      if (session(SESSION.reload) === 'build') session(SESSION.reload, null);
      root.dataset.sgBuild = 'current';
    } else if (oneShot('build')) {
      root.dataset.sgBuild = 'reloading';
      location.reload();
    } else {
      root.dataset.sgBuild = 'stale';
    }
  });
}
