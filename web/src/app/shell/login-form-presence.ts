import { useLayoutEffect, useSyncExternalStore } from 'react';

/**
 * Whether a login form is on screen. The header's Log in button hides meanwhile, so the page has a
 * single "Log in" button, whichever screen embeds the form (the login page itself, the invite page).
 */
let shownForms = 0;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function change(delta: number): void {
  shownForms += delta;
  for (const listener of listeners) listener();
}

/** Called by the login form; counts while mounted and `shown`. */
export function useLoginFormPresence(shown = true): void {
  // Layout effect: the header re-renders before the browser paints, so two buttons never show.
  useLayoutEffect(() => {
    if (!shown) return;
    change(1);
    return () => change(-1);
  }, [shown]);
}

export function useLoginFormShown(): boolean {
  return useSyncExternalStore(subscribe, () => shownForms > 0);
}
