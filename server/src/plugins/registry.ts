import type { PluginName } from '@scriptorium/common/plugins/names';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { DualMigration } from '../db/migrations/helpers';
import { registerExportReferenceSource } from '../modules/documents/export/reference-sources';
import type { AnyWsEndpoint } from '../ws/endpoint';
import { booksPlugin } from './books/plugin';
import type { ServerPlugin } from './plugin';
import { templatesPlugin } from './templates/plugin';

/** Every plugin the server knows; `satisfies` makes a plugin named in common but missing here fail to compile. */
const SERVER_PLUGINS = {
  templates: templatesPlugin,
  books: booksPlugin,
} as const satisfies Record<PluginName, ServerPlugin>;

export function serverPlugins(): ServerPlugin[] {
  return Object.values(SERVER_PLUGINS);
}

/** The migrations of every known plugin (see ServerPlugin.migrations for why not only the enabled ones). */
export function pluginMigrations(): Record<string, DualMigration> {
  return Object.assign({}, ...serverPlugins().map((plugin) => plugin.migrations));
}

/**
 * Mounts the routes of the plugins named in PLUGINS (the others stay unknown paths, 404) and hands
 * every plugin's export references to the documents' export, which asks only the enabled ones.
 */
export async function registerPlugins(app: FastifyInstance, ctx: AppContext): Promise<void> {
  for (const plugin of serverPlugins()) {
    if (plugin.exportReference) registerExportReferenceSource(plugin.name, plugin.exportReference);
  }
  for (const name of ctx.config.plugins) {
    const plugin = SERVER_PLUGINS[name];
    await app.register(plugin.routes(ctx));
  }
}

/** The websocket endpoints of the plugins named in PLUGINS, for the endpoint registry of src/ws. */
export function pluginWebsocketEndpoints(ctx: AppContext): AnyWsEndpoint[] {
  return ctx.config.plugins.flatMap((name) => [...(SERVER_PLUGINS[name].websocketEndpoints?.() ?? [])]);
}
