import { useEffect, useLayoutEffect, useSyncExternalStore } from 'react';
import {
  addUnsavedGuard,
  getLocationSnapshot,
  type LocationSnapshot,
  replaceAddress,
  subscribeLocation,
} from './navigation';
import { type RouteTable, routeFor } from './route-table';
import type { Route } from './routes';

export function useLocation(): LocationSnapshot {
  return useSyncExternalStore(subscribeLocation, getLocationSnapshot);
}

/** The screen for the current address in the installation's route table; performs the address rewrites some routes ask for. */
export function useRoute(table: RouteTable): Route {
  const location = useLocation();
  const route = routeFor(table, location.pathname, location.state);
  // Primitives as effect inputs: the route object is new on every render.
  const rewritePath = route.rewrite?.path;
  const rewriteState = route.rewrite ? JSON.stringify(route.rewrite.state) : undefined;
  useLayoutEffect(() => {
    if (rewritePath && rewriteState) replaceAddress(rewritePath, JSON.parse(rewriteState));
  }, [rewritePath, rewriteState]);
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
