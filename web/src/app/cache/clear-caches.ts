import { QUEUE_DB } from '../../offline/queue-name';
import { setTheme, storedTheme } from '../../styles/theme';

/**
 * Empties every browser-side store of this origin (spec 7: after a language change all caches are
 * cleared), so no screen keeps texts or data fetched in the old language.
 * Storage is per origin, so everything found here is ours.
 */
export async function clearCaches(): Promise<void> {
  // The colour theme is a choice about this browser, not data in a language: it stays.
  const theme = storedTheme();
  for (const storage of [globalThis.localStorage, globalThis.sessionStorage]) {
    try {
      storage?.clear();
    } catch {
      // Storage can be disabled by the browser; nothing to clear then.
    }
  }
  if (theme !== 'system') setTheme(theme);
  if (typeof caches !== 'undefined') {
    const names = await caches.keys();
    await Promise.all(names.map((name) => caches.delete(name)));
  }
  if (typeof indexedDB !== 'undefined' && typeof indexedDB.databases === 'function') {
    const databases = await indexedDB.databases();
    await Promise.all(
      databases.map(
        ({ name }) =>
          new Promise<void>((resolve) => {
            // The offline queue holds edits the server has not got yet: never thrown away.
            if (!name || name === QUEUE_DB) return resolve();
            const request = indexedDB.deleteDatabase(name);
            // A blocked delete still completes once other tabs close the database; do not wait for it.
            request.onsuccess = request.onerror = request.onblocked = () => resolve();
          }),
      ),
    );
  }
}
