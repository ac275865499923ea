import type { PluginName } from '@scriptorium/common/plugins/names';
import { booksPlugin } from './books/plugin';
import type { WebPlugin } from './plugin';
import { templatesPlugin } from './templates/plugin';

/** Every plugin the web app knows; `satisfies` makes a plugin named in common but missing here fail to compile. */
const WEB_PLUGINS = {
  templates: templatesPlugin,
  books: booksPlugin,
} as const satisfies Record<PluginName, WebPlugin>;

/** The plugins the configuration turns on, in the order given. */
export function enabledPlugins(names: readonly PluginName[]): WebPlugin[] {
  return names.map((name) => WEB_PLUGINS[name]);
}

export function allPlugins(): WebPlugin[] {
  return Object.values(WEB_PLUGINS);
}
