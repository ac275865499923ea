import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * Where the focus goes when a dialog closes while it holds the focus, instead of to its opener. The
 * editor gives its text (`view.focus()`): that also puts ProseMirror's caret back into the page.
 * The opener's plain focus() left the browser's caret at the start of the text until ProseMirror
 * corrected it 20 ms later, and keys typed right after the dialog went there.
 */
export const ReturnFocusContext = createContext<(() => void) | null>(null);

/** The context's function, read when the dialog closes (a new function each render is fine). */
function useReturnFocus(): { current: (() => void) | null } {
  const current = useContext(ReturnFocusContext);
  const returnFocus = useRef(current);
  returnFocus.current = current;
  return returnFocus;
}

/**
 * The control that opened a dialog: the focused element, or, when that is an item of a menu (which
 * closes as the dialog opens), the button that opened the menu.
 */
export function openerOf(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest<HTMLElement>('[role="menu"], [role="listbox"]');
  if (menu?.id) {
    const trigger = document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`);
    if (trigger) return trigger;
  }
  return active;
}

/**
 * The dialog's opener, read as the dialog mounts (before the dialog takes the focus).
 */
export function useOpener(): HTMLElement | null {
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : openerOf(document.activeElement),
  );
  return opener;
}

/**
 * Focus goes back to the opener (or to ReturnFocusContext's target) in the same task as the dialog
 * closes, not a frame later as react-aria does: keys typed in between, e.g. right after Enter in the
 * link dialog, went to the page's body and were lost. Called by a component inside the dialog's
 * focus scope, in two steps:
 * - the layout clean-up, while the dialog's elements are still in the page, notes whether the focus
 *   is inside it (or lost to the body): a dialog that moved the focus on purpose keeps that;
 * - the passive clean-up gives the focus back. Not earlier: until react-aria's modal clears the
 *   `inert` of the rest of the page (in its own passive clean-up, which runs first, being an
 *   ancestor) nothing outside the dialog can take the focus. React runs these clean-ups before the
 *   next task when the close came from a click or a key.
 */
export function useFocusOpenerAtClose(
  opener: HTMLElement | null,
  dialog: { current: HTMLElement | null },
): void {
  const returnFocus = useReturnFocus();
  const focusInside = useRef(false);
  useLayoutEffect(() => {
    const overlay = dialog.current?.closest('.dialog-overlay');
    return () => {
      const active = document.activeElement;
      focusInside.current = !active || active === document.body || Boolean(overlay?.contains(active));
    };
  }, [dialog]);
  useEffect(
    () => () => {
      if (!focusInside.current) return;
      if (returnFocus.current) returnFocus.current();
      else if (opener?.isConnected) opener.focus({ preventScroll: true });
    },
    [opener, returnFocus],
  );
}

/**
 * Focus goes back to the dialog's opener when it closes, also when react-aria cannot restore it:
 * the opener was a menu item that is gone, or the page re-rendered around it while the dialog
 * worked (an upload that reloads the list). Runs after react-aria's own restoring, and only when
 * the focus was lost to the page's body.
 */
export function useFocusReturn(opener: HTMLElement | null): void {
  const returnFocus = useReturnFocus();
  useEffect(
    () => () => {
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (active && active !== document.body) return;
        if (returnFocus.current) returnFocus.current();
        else if (opener?.isConnected) opener.focus();
      });
    },
    [opener, returnFocus],
  );
}
