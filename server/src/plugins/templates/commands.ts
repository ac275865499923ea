import type {
  exportFileEntry,
  templateFileUploadFields,
  templateSaveRequest,
} from '@scriptorium/common/plugins/templates-api';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/rows';
import { HttpError } from '../../http/errors';
import { removeTemplateFiles, storeTemplateFile } from './files';
import { requireOwned, type TemplatesDb } from './queries';

/** The Templates plugin's commands: every write of its routes, each with its rule next to it. */

/** Title and definition; only staff offer a template to the whole site. */
export async function saveTemplate(
  db: TemplatesDb,
  user: UserRow,
  input: z.output<typeof templateSaveRequest>,
): Promise<number> {
  await requireOwned(db, user.id, input.id);
  const updated = Date.now();
  await db
    .updateTable('document_templates')
    .set({
      title: input.title,
      definition: JSON.stringify(input.definition),
      updated,
      ...(input.site !== undefined && user.is_staff ? { site: input.site === 'true' ? 1 : 0 } : {}),
    })
    .where('id', '=', input.id)
    .execute();
  return updated;
}

/** Owned templates only, all or nothing; their reference files go with them. */
export async function deleteTemplates(
  ctx: AppContext,
  db: TemplatesDb,
  userId: number,
  ids: number[],
): Promise<number[]> {
  const unique = [...new Set(ids)];
  const files = await db.transaction().execute(async (trx) => {
    for (const id of unique) await requireOwned(trx, userId, id);
    const names = await trx
      .selectFrom('template_export_files')
      .select('file_name')
      .where('template_id', 'in', unique)
      .execute();
    await trx.deleteFrom('document_templates').where('id', 'in', unique).execute();
    return names.map((row) => row.file_name);
  });
  await removeTemplateFiles(ctx, files);
  return unique;
}

/** Stores a checked (cut down) reference document for an owned template. */
export async function addTemplateFile(
  ctx: AppContext,
  db: TemplatesDb,
  fields: z.output<typeof templateFileUploadFields>,
  reference: Uint8Array,
  size: number,
): Promise<z.infer<typeof exportFileEntry>> {
  const fileName = await storeTemplateFile(ctx, fields.kind, reference);
  const added = Date.now();
  const row = await db
    .insertInto('template_export_files')
    .values({
      template_id: fields.id,
      kind: fields.kind,
      title: fields.title,
      file_name: fileName,
      size,
      added,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('document_templates').set({ updated: added }).where('id', '=', fields.id).execute();
  return { id: row.id, kind: fields.kind, title: fields.title, size, added };
}

/** A reference document of an owned template: 404 when it is not that template's. */
export async function deleteTemplateFile(
  ctx: AppContext,
  db: TemplatesDb,
  userId: number,
  input: { id: number; file_id: number },
): Promise<void> {
  await requireOwned(db, userId, input.id);
  const file = await db
    .selectFrom('template_export_files')
    .select('file_name')
    .where('id', '=', input.file_id)
    .where('template_id', '=', input.id)
    .executeTakeFirst();
  if (!file) throw new HttpError(404);
  await db.deleteFrom('template_export_files').where('id', '=', input.file_id).execute();
  await removeTemplateFiles(ctx, [file.file_name]);
}
