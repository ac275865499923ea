/**
 * The plugins this code base ships, in header order (spec 2.2: Templates 4, Books 5). The one
 * list that the PLUGINS setting, the configuration's `plugins` field and both plugin registries
 * (server/src/plugins, web/src/plugins) are checked against.
 */
export const PLUGIN_NAMES = ['templates', 'books'] as const;
export type PluginName = (typeof PLUGIN_NAMES)[number];

export function isPluginName(value: string): value is PluginName {
  return (PLUGIN_NAMES as readonly string[]).includes(value);
}
