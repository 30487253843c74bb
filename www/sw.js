// sw.js — the service worker that makes the page work offline. On install it stores the
// whole app (page, styles, every JS module, the wasm and its glue, manifest, icons) in a
// cache; after that every GET of this site goes to the network first (so a new version is
// picked up as soon as it is online) and a copy of each answer is kept, and when the
// network fails the cached copy answers. A page address with a level in it (?lvl=...)
// is answered with the cached page. Nothing else lives here: no game logic, no data.
const CACHE = 'sokoban-app-v1';
const APP = [
  './',
  'index.html',
  'style.css',
  'manifest.webmanifest',
  'icons/icon.svg',
  'icons/icon-192.png',
  'icons/icon-512.png',
  'icons/maskable-512.png',
  'pkg/sokoban_wasm.js',
  'pkg/sokoban_wasm_bg.wasm',
  'js/board.js',
  'js/box-keys.js',
  'js/collection.js',
  'js/editor.js',
  'js/generator.js',
  'js/help.js',
  'js/input.js',
  'js/layout.js',
  'js/level-list.js',
  'js/levelio.js',
  'js/levels.js',
  'js/main.js',
  'js/messages.js',
  'js/my-levels.js',
  'js/offline.js',
  'js/optimize.js',
  'js/optimize-panel.js',
  'js/play.js',
  'js/progress-panel.js',
  'js/progress.js',
  'js/pull-mode.js',
  'js/puzzle-board.js',
  'js/puzzle.js',
  'js/records.js',
  'js/render.js',
  'js/replay.js',
  'js/session.js',
  'js/share.js',
  'js/solve.js',
  'js/solver-client.js',
  'js/solver-panel.js',
  'js/solver-pool.js',
  'js/solver-worker.js',
  'js/state.js',
  'js/theme.js',
  'js/warm-up.js',
];

self.addEventListener('install', (e) => {
  // cache: 'reload' skips the HTTP cache: the stored copies are the server's.
  e.waitUntil(caches.open(CACHE)
    .then((c) => c.addAll(APP.map((u) => new Request(u, { cache: 'reload' }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== location.origin) return;
  e.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const res = await fetch(req);
      if (res.ok) cache.put(req, res.clone()).catch(() => {});
      return res;
    } catch (err) {
      const hit = await cache.match(req, { ignoreSearch: req.mode === 'navigate' })
        ?? (req.mode === 'navigate' ? await cache.match('./') : undefined);
      if (hit) return hit;
      throw err;
    }
  })());
});
