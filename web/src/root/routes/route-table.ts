import type { PluginName } from '@scriptorium/common/plugins/names';
import { type Route, type RouteDefinition, resolveRoute } from '../../app/router/routes';
import type { Screen } from '../../app/router/screen';
import type { HeaderItem, WebPlugin } from '../../plugins/plugin';
import { allPlugins, enabledPlugins } from '../../plugins/registry';
import { CORE_HEADER_ITEMS, CORE_ROUTES, CORE_SCREENS } from './core-routes';

/** The routes, screens and header items of one installation: the core plus its enabled plugins. */
export interface RouteTable {
  routes: readonly RouteDefinition[];
  screens: ReadonlyMap<string, Screen>;
  headerItems: readonly HeaderItem[];
}

function buildTable(plugins: readonly WebPlugin[]): RouteTable {
  const screens = new Map<string, Screen>();
  for (const screen of [...CORE_SCREENS, ...plugins.flatMap((plugin) => plugin.screens)]) {
    if (screens.has(screen.page)) throw new Error(`Screen "${screen.page}" is declared twice`);
    screens.set(screen.page, screen);
  }
  return {
    routes: [...CORE_ROUTES, ...plugins.flatMap((plugin) => plugin.routes)],
    screens,
    headerItems: [...CORE_HEADER_ITEMS, ...plugins.map((plugin) => plugin.header)].sort(
      (a, b) => a.order - b.order,
    ),
  };
}

const tables = new Map<string, RouteTable>();

/** The table for the plugins the configuration names (cached: the shell asks on every render). */
export function routeTable(plugins: readonly PluginName[]): RouteTable {
  const key = plugins.join(',');
  let table = tables.get(key);
  if (!table) {
    table = buildTable(enabledPlugins(plugins));
    tables.set(key, table);
  }
  return table;
}

/** Every route, plugins included: for preloading before the configuration is known, and for tests. */
export const FULL_ROUTE_TABLE: RouteTable = buildTable(allPlugins());

/** The route of an address in a table (spec 2.1); a plugin that is off answers the 404 page. */
export function routeFor(table: RouteTable, pathname: string, state: unknown = null): Route {
  return resolveRoute(pathname, state, table.routes);
}
