import type { PluginName } from '@scriptorium/common/plugins/names';
import type { RouteDefinition } from '../app/router/routes';
import type { Screen } from '../app/router/screen';

/** An item of the header's main navigation (spec 2.2); core items and plugins' items alike. */
export interface HeaderItem {
  id: string;
  /** i18n key of the title, in namespace `ns`. */
  title: string;
  ns: string;
  path: string;
  /** The Alt shortcut as an action key binding ('Alt+T'). */
  keys: string;
  /** Position in the header (spec 2.2: Templates 4, Books 5; the core items 1 to 3). */
  order: number;
  /** Screens that count as this section for aria-current. */
  pages: readonly string[];
}

/**
 * A web plugin, turned on when the configuration names it (the server's PLUGINS setting). A
 * plugin that is off has no header item, no key binding, and its addresses show the 404 page.
 */
export interface WebPlugin {
  name: PluginName;
  header: HeaderItem;
  routes: readonly RouteDefinition[];
  /** Lazy screens (see lazyScreen), one per page its routes produce. */
  screens: readonly Screen[];
  /** Its namespace in common/src/i18n/locales, shared with the server plugin. */
  localeNamespace: string;
}
