import { readFile } from 'node:fs/promises';
import type { ExportReference } from '@scriptorium/common/export/model';
import { isReducedReference, reducedReference } from '@scriptorium/common/export/reference-parts';
import { ImportRefused } from '@scriptorium/common/import/problems';
import type { AppContext } from '../../context';
import { replaceTemplateFile, templateFilePath } from './files';
import type { TemplatesTables } from './queries';

const STORED_TEMPLATE = /^template-(\d+)$/;

/**
 * The export files of a document's stored template (`template-<id>`), the first of each kind.
 * The template must be one the document's owner may use (own or site): a template id written
 * into a document by hand reaches no one else's files. A template since deleted has none.
 */
export async function templateExportReference(
  ctx: AppContext,
  ownerId: number,
  template: string,
): Promise<ExportReference | null> {
  const match = STORED_TEMPLATE.exec(template);
  if (!match) return null;
  const id = Number(match[1]);
  if (!Number.isSafeInteger(id)) return null;
  const rows = await ctx.db
    .withTables<TemplatesTables>()
    .selectFrom('template_export_files')
    .innerJoin('document_templates', 'document_templates.id', 'template_export_files.template_id')
    .innerJoin('users', 'users.id', 'document_templates.owner_id')
    .select(['template_export_files.kind', 'template_export_files.file_name'])
    .where('template_export_files.template_id', '=', id)
    .where((eb) =>
      eb.or([
        eb('document_templates.owner_id', '=', ownerId),
        eb.and([eb('document_templates.site', '=', 1), eb('users.is_staff', '=', 1)]),
      ]),
    )
    .orderBy('template_export_files.id')
    .execute();
  const reference: ExportReference = {};
  for (const row of rows) {
    if ((row.kind !== 'docx' && row.kind !== 'odt') || reference[row.kind]) continue;
    let bytes: Uint8Array;
    try {
      const read = await readFile(templateFilePath(ctx, row.file_name));
      bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    } catch {
      // A file missing on disk: the export keeps our own styles.
      continue;
    }
    if (!isReducedReference(bytes, row.kind)) {
      // Stored before uploads were checked (issue 50): checked now, once, and kept cut down.
      try {
        bytes = reducedReference(bytes, row.kind);
      } catch (error) {
        if (!(error instanceof ImportRefused)) throw error;
        // Past the zip limits or unreadable: the export keeps our own styles.
        continue;
      }
      await replaceTemplateFile(ctx, row.file_name, bytes);
    }
    reference[row.kind] = bytes;
  }
  return reference.docx || reference.odt ? reference : null;
}
