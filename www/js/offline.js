// offline.js — registers the service worker (www/sw.js) that keeps the app working with
// no network, and says so once it is ready. The page works the same without it (an old
// browser, a file:// page): registration failures are only logged.

/** Register the service worker; `onReady(firstTime)` runs once it controls the app. */
export function registerOffline(onReady = () => {}) {
  if (!('serviceWorker' in navigator) || !isSecureContext) return;
  const first = !navigator.serviceWorker.controller;
  navigator.serviceWorker.register(new URL('../sw.js', import.meta.url), { scope: new URL('../', import.meta.url).pathname })
    .then(() => navigator.serviceWorker.ready)
    .then(() => {
      document.documentElement.dataset.offline = 'ready';
      onReady(first);
    })
    .catch((e) => console.warn(`Offline use is not available: ${e.message}`));
}
