import { useEffect, useLayoutEffect, useState } from 'react';

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
 * Focus goes back to the opener in the same task as the dialog closes, not a frame later as
 * react-aria does (it restores the focus in an animation frame, and keys typed in between, e.g. right
 * after Enter in the link dialog, went to the page's body and were lost). Called by a component
 * inside the dialog's focus scope: its clean-up runs after react-aria has stopped containing the
 * focus (which would pull it back) and before the dialog's elements leave the page. Only while the
 * focus is inside the dialog (or lost to the body): a dialog that moved it on purpose keeps that.
 */
export function useFocusOpenerAtClose(
  opener: HTMLElement | null,
  dialog: { current: HTMLElement | null },
): void {
  useLayoutEffect(() => {
    const overlay = dialog.current?.closest('.dialog-overlay');
    return () => {
      const active = document.activeElement;
      const inside = !active || active === document.body || Boolean(overlay?.contains(active));
      if (inside && opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, [opener, dialog]);
}

/**
 * Focus goes back to the dialog's opener when it closes, also when react-aria cannot restore it:
 * the opener was a menu item that is gone, or the page re-rendered around it while the dialog
 * worked (an upload that reloads the list). Runs after react-aria's own restoring, and only when
 * the focus was lost to the page's body.
 */
export function useFocusReturn(opener: HTMLElement | null): void {
  useEffect(
    () => () => {
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (active && active !== document.body) return;
        if (opener?.isConnected) opener.focus();
      });
    },
    [opener],
  );
}
