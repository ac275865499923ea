import { useEffect } from 'react';
import { navigate } from '../router/navigation';
import type { NavigationItem } from './navigation-items';

/** The navigation item an Alt shortcut asks for, if any (spec 2.2: Alt-d/b/m/t/o). */
export function shortcutTarget(
  event: KeyboardEvent,
  items: readonly NavigationItem[],
): NavigationItem | undefined {
  // Alt is required, so the shortcuts also work inside text fields; Ctrl/Meta combinations belong to the browser.
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented)
    return undefined;
  return items.find((item) => item.code === event.code);
}

/** Alt-key navigation from anywhere in the app. */
export function useNavigationShortcuts(items: readonly NavigationItem[]): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const item = shortcutTarget(event, items);
      if (!item) return;
      event.preventDefault();
      navigate(item.path);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [items]);
}
