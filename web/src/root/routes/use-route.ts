import { useLayoutEffect } from 'react';
import { useLocation } from '../../app/router/hooks';
import { replaceAddress } from '../../app/router/navigation';
import type { Route } from '../../app/router/routes';
import { type RouteTable, routeFor } from './route-table';

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
