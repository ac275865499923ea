import { useEffect, useLayoutEffect, useSyncExternalStore } from 'react';
import {
  addUnsavedGuard,
  getLocationSnapshot,
  type LocationSnapshot,
  replaceAddress,
  subscribeLocation,
} from './navigation';
import { type Route, resolveRoute } from './routes';

export function useLocation(): LocationSnapshot {
  return useSyncExternalStore(subscribeLocation, getLocationSnapshot);
}

/** The screen for the current address; performs the address rewrites some routes ask for. */
export function useRoute(): Route {
  const location = useLocation();
  const route = resolveRoute(location.pathname, location.state);
  // Primitives as effect inputs: the route object is new on every render.
  const rewrite = route.page === 'change-password' ? route.rewrite : undefined;
  const rewritePath = rewrite?.path;
  const rewriteKey = rewrite?.state.changePasswordKey;
  useLayoutEffect(() => {
    if (rewritePath && rewriteKey) replaceAddress(rewritePath, { changePasswordKey: rewriteKey });
  }, [rewritePath, rewriteKey]);
  return route;
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
