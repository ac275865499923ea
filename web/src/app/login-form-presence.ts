import { useLayoutEffect, useState } from 'react';

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
  useLayoutEffect(() => {
    if (!shown) return;
    change(1);
    return () => change(-1);
  }, [shown]);
}

/**
 * Whether the header hides its Log in button. Both sides work in layout effects: a state update
 * there is rendered before the browser (or a test) gets control back, so two "Log in" buttons never
 * exist together. (useSyncExternalStore subscribes in a passive effect, which React may run a task
 * later: when the header and the form mounted in one commit after an asynchronous update — the
 * logged-out app after deleting the account — the form's count went unnoticed for that task.)
 */
export function useLoginFormShown(): boolean {
  const [shown, setShown] = useState(() => shownForms > 0);
  useLayoutEffect(() => {
    const update = () => setShown(shownForms > 0);
    update();
    return subscribe(update);
  }, []);
  return shown;
}
