import type { ExportReference } from '@scriptorium/common/export/model';
import type { PluginName } from '@scriptorium/common/plugins/names';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { DualMigration } from '../db/migrations/helpers';
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

/** Mounts the routes of the plugins named in PLUGINS; the others stay unknown paths (404). */
export async function registerPlugins(app: FastifyInstance, ctx: AppContext): Promise<void> {
  for (const name of ctx.config.plugins) {
    const plugin = SERVER_PLUGINS[name];
    await app.register(plugin.routes(ctx));
  }
}

/** The websocket endpoints of the plugins named in PLUGINS, for the endpoint registry of src/ws. */
export function pluginWebsocketEndpoints(ctx: AppContext): AnyWsEndpoint[] {
  return ctx.config.plugins.flatMap((name) => [...(SERVER_PLUGINS[name].websocketEndpoints?.() ?? [])]);
}

/** The reference documents an enabled plugin has for a document's template (the first that has any). */
export async function pluginExportReference(
  ctx: AppContext,
  ownerId: number,
  template: string,
): Promise<ExportReference | null> {
  for (const name of ctx.config.plugins) {
    const found = await SERVER_PLUGINS[name].exportReference?.(ctx, ownerId, template);
    if (found) return found;
  }
  return null;
}
