import { useSyncExternalStore } from 'react';

/**
 * Registers /sw.js (spec 4) and watches for a new version of it: a new build installs in the
 * background; the page only learns that it is ready (`useNewVersion`) and the user decides when
 * to reload, never in the middle of an edit.
 */
let waiting: ServiceWorker | null = null;
const listeners = new Set<() => void>();

function setWaiting(worker: ServiceWorker | null): void {
  waiting = worker;
  for (const listener of listeners) listener();
}

function watch(registration: ServiceWorkerRegistration): void {
  // A worker waiting while another controls the page is a new version.
  if (registration.waiting && navigator.serviceWorker.controller) setWaiting(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed' && navigator.serviceWorker.controller) setWaiting(installing);
    });
  });
}

/**
 * Registers the worker once the page has loaded and the browser is idle: its install fetches every
 * asset of the app (about 150 files), and on a first visit that ran beside the first screen's own
 * requests and scripts (on a phone the overview's list was asked for a second later; issue 23).
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const whenIdle = () =>
    'requestIdleCallback' in window
      ? requestIdleCallback(register, { timeout: 3000 })
      : setTimeout(register, 1000);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

function register(): void {
  navigator.serviceWorker.register('/sw.js').then(
    (registration) => {
      watch(registration);
      // Caches are emptied on a language change (spec 7): the worker fills in what is missing.
      void navigator.serviceWorker.ready.then((ready) => ready.active?.postMessage('precache'));
    },
    () => {
      // No service worker (e.g. not a secure context): the app works online as before.
    },
  );
}

/** Switches to the waiting version and reloads once it controls the page. */
export function reloadToNewVersion(): void {
  const worker = waiting;
  if (!worker) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  worker.postMessage('skip-waiting');
}

/** Whether a new version is installed and waiting. */
export function useNewVersion(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => waiting !== null,
    () => false,
  );
}
