import type { ExportReference } from '@scriptorium/common/export/model';
import type { PluginName } from '@scriptorium/common/plugins/names';
import type { AppContext } from '../../../context';

/**
 * Where a document's exports find the reference documents (DOCX/ODT) they take their styles from.
 * A plugin registers its source (plugins/registry.ts, when the app is built); the export asks here
 * and never knows the plugins. Only the sources of the plugins the configuration turns on answer.
 */
export type ExportReferenceSource = (
  ctx: AppContext,
  ownerId: number,
  template: string,
) => Promise<ExportReference | null>;

const sources = new Map<PluginName, ExportReferenceSource>();

export function registerExportReferenceSource(plugin: PluginName, source: ExportReferenceSource): void {
  sources.set(plugin, source);
}

/** The reference documents an enabled plugin has for a document's template (the first that has any). */
export async function exportReferenceFor(
  ctx: AppContext,
  ownerId: number,
  template: string,
): Promise<ExportReference | null> {
  for (const name of ctx.config.plugins) {
    const found = await sources.get(name)?.(ctx, ownerId, template);
    if (found) return found;
  }
  return null;
}
