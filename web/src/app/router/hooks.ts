import { useEffect, useSyncExternalStore } from 'react';
import { addUnsavedGuard, getLocationSnapshot, type LocationSnapshot, subscribeLocation } from './navigation';

export function useLocation(): LocationSnapshot {
  return useSyncExternalStore(subscribeLocation, getLocationSnapshot);
}

function warnBeforeUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older browsers only show the dialog when returnValue is set.
  event.returnValue = '';
}

/**
 * Lets a screen report unsaved work (spec 2.1): while `hasUnsaved` is true, closing or reloading
 * the tab triggers the browser's warning and in-app navigation asks for confirmation first.
 */
export function useUnsavedChanges(hasUnsaved: boolean): void {
  useEffect(() => {
    if (!hasUnsaved) return;
    const removeGuard = addUnsavedGuard();
    window.addEventListener('beforeunload', warnBeforeUnload);
    return () => {
      removeGuard();
      window.removeEventListener('beforeunload', warnBeforeUnload);
    };
  }, [hasUnsaved]);
}
