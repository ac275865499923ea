// The service worker registered from /sw.js (spec 4, issue 20). Vite's build (vite.config.ts)
// writes it to dist/sw.js with this build's file list and version in place of the two markers,
// so every deployment is a new service worker: it installs in the background and takes over on
// the next start (or when the user follows the "A new version is ready: reload" notice).
//
// - The app shell (index.html at '/') and every script, style and font of the build: precached.
// - Navigations: the network first, the cached shell when it cannot be reached (offline start).
// - Hashed assets and CSL styles and locales: from the cache, else fetched and cached on the way.
// - Image thumbnails (/media/thumbnails/): the cached copy at once, refreshed in the background.
// - The API and the websockets are never touched: the app keeps its own data (IndexedDB).

const VERSION = '__SCRIPTORIUM_VERSION__';
const PRECACHE = ['__SCRIPTORIUM_PRECACHE__'];
const SHELL = `scriptorium-shell-${VERSION}`;
const RUNTIME = 'scriptorium-runtime';
const MEDIA = 'scriptorium-thumbnails';

async function precache() {
  const cache = await caches.open(SHELL);
  const missing = [];
  for (const url of PRECACHE) if (!(await cache.match(url))) missing.push(url);
  await cache.addAll(missing);
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith('scriptorium-shell-') && name !== SHELL) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
  // The page asks after the caches were emptied (a language change clears them): fill them again.
  else if (event.data === 'precache') event.waitUntil(precache().catch(() => {}));
});

async function fromCacheOrNetwork(request, cacheName) {
  const cached = await caches.match(request, { ignoreSearch: false });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    void caches.open(cacheName).then((cache) => cache.put(request, copy));
  }
  return response;
}

async function navigation(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match('/', { cacheName: SHELL });
    if (shell) return shell;
    throw error;
  }
}

async function thumbnail(request) {
  const cache = await caches.open(MEDIA);
  const cached = await cache.match(request);
  const fresh = fetch(request).then(
    (response) => {
      if (response.ok) void cache.put(request, response.clone());
      return response;
    },
    (error) => {
      if (cached) return cached;
      throw error;
    },
  );
  return cached ?? fresh;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith('/api/') || path === '/sw.js') return;
  if (request.mode === 'navigate') {
    event.respondWith(navigation(request));
  } else if (path.startsWith('/media/thumbnails/')) {
    event.respondWith(thumbnail(request));
  } else if (path.startsWith('/assets/') || path.startsWith('/csl/') || PRECACHE.includes(path)) {
    event.respondWith(fromCacheOrNetwork(request, RUNTIME));
  }
});
