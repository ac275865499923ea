import type { PluginName } from '@scriptorium/common/plugins/names';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context';
import type { DualMigration } from '../db/migrations/helpers';

/**
 * Stand-in for a websocket endpoint of the endpoint registry (issue 13 section 3, built on the
 * ws-collab branch; not merged here yet). When it lands, type `websocketEndpoints` with its
 * endpoint descriptor and let src/ws register the enabled plugins' endpoints.
 */
export interface PendingWebsocketEndpoint {
  /** The endpoint's name: sockets open at `${ws_url_base}/<name>/[<id>/]`. */
  name: string;
}

/**
 * A server plugin, turned on by naming it in PLUGINS. Everything the plugin adds to the server is
 * declared here, so that a plugin that is off adds nothing: its API paths are unknown (404).
 */
export interface ServerPlugin {
  name: PluginName;
  /** Mount point of `routes`, e.g. '/api/templates'. */
  prefix: string;
  routes(ctx: AppContext): FastifyPluginAsync;
  /**
   * Its tables. They are created whether the plugin is on or off, so that turning it on later
   * needs no migration run and the data of a plugin turned off stays. Names are permanent and
   * carry the plugin's name ('plugin-templates-001').
   */
  migrations: Readonly<Record<string, DualMigration>>;
  /** Its namespace in common/src/i18n/locales (header title, screen texts; shared with the web plugin). */
  localeNamespace: string;
  /** Websocket endpoints; see PendingWebsocketEndpoint. */
  websocketEndpoints?: readonly PendingWebsocketEndpoint[];
}
