import { useEffect, useState } from 'react';

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
 * Focus goes back to the dialog's opener when it closes, also when react-aria cannot restore it:
 * the opener was a menu item that is gone, or the page re-rendered around it while the dialog
 * worked (an upload that reloads the list). Runs after react-aria's own restoring, and only when
 * the focus was lost to the page's body.
 */
export function useFocusReturn(): void {
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : openerOf(document.activeElement),
  );
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
