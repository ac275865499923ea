import type { ExportReference } from '@scriptorium/common/export/model';
import type { PluginName } from '@scriptorium/common/plugins/names';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context';
import type { DualMigration } from '../db/migrations/helpers';
import type { AnyWsEndpoint } from '../ws/endpoint';

/**
 * A server plugin, turned on by naming it in PLUGINS. Everything the plugin adds to the server is
 * declared here, so that a plugin that is off adds nothing: its API paths are unknown (404).
 */
export interface ServerPlugin {
  name: PluginName;
  /** Its routes, registered with `route()` from its descriptors in common/src/api/endpoints (full paths). */
  routes(ctx: AppContext): FastifyPluginAsync;
  /**
   * Its tables. They are created whether the plugin is on or off, so that turning it on later
   * needs no migration run and the data of a plugin turned off stays. Names are permanent and
   * carry the plugin's name ('plugin-templates-001').
   */
  migrations: Readonly<Record<string, DualMigration>>;
  /** Its namespace in common/src/i18n/locales (header title, screen texts; shared with the web plugin). */
  localeNamespace: string;
  /** Its websocket endpoints at `${ws_url_base}/<name>/[<id>/]`, registered only while it is on. */
  websocketEndpoints?(): readonly AnyWsEndpoint[];
  /**
   * The reference documents (DOCX/ODT) a document's exports take their styles from, by the
   * document's `template` attribute and its owner; null when the plugin has none for it.
   */
  exportReference?(ctx: AppContext, ownerId: number, template: string): Promise<ExportReference | null>;
}
