import {
  standardDefinition,
  type TemplateDefinition,
  type TemplateEntry,
  type TemplateListEntry,
  templateDefinition,
} from '@scriptorium/common/plugins/templates-api';
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { type PluginItemColumns, presentItem } from '../items';

/** The plugin's own tables, typed here rather than in the core schema: a plugin brings its tables along. */
export type TemplatesTables = {
  document_templates: PluginItemColumns & {
    /** JSON of a TemplateDefinition; '' (a row of before 013) reads as the Standard article. */
    definition: Generated<string>;
    site: Generated<number>;
  };
  template_export_files: {
    id: Generated<number>;
    template_id: number;
    kind: string;
    title: string;
    file_name: string;
    size: number;
    added: number;
  };
};

export type TemplatesDb = Kysely<Database & TemplatesTables>;

export function parseDefinition(text: string): TemplateDefinition {
  if (text === '') return standardDefinition();
  const parsed = templateDefinition.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : standardDefinition();
}

const LIST_COLUMNS = [
  'document_templates.id',
  'document_templates.title',
  'document_templates.added',
  'document_templates.updated',
  'document_templates.site',
  'document_templates.owner_id',
] as const;

interface ListRow {
  id: number;
  title: string;
  added: number;
  updated: number;
  site: number;
  owner_id: number;
}

function present(row: ListRow, userId: number): TemplateListEntry {
  return {
    ...presentItem(row),
    site: Number(row.site) === 1,
    is_owner: row.owner_id === userId,
  };
}

/** Templates the user may use: their own and the site's (site templates of staff accounts). */
function usableTemplates(db: TemplatesDb, userId: number) {
  return db
    .selectFrom('document_templates')
    .innerJoin('users', 'users.id', 'document_templates.owner_id')
    .where((eb) =>
      eb.or([
        eb('document_templates.owner_id', '=', userId),
        eb.and([eb('document_templates.site', '=', 1), eb('users.is_staff', '=', 1)]),
      ]),
    );
}

/** The user's templates and the site's, newest change first. */
export async function listTemplates(db: TemplatesDb, userId: number): Promise<TemplateListEntry[]> {
  const rows = await usableTemplates(db, userId)
    .select(LIST_COLUMNS)
    .orderBy('document_templates.updated', 'desc')
    .orderBy('document_templates.id', 'desc')
    .execute();
  return rows.map((row) => present(row, userId));
}

/** A new template of the user's; its id. */
export async function insertTemplate(
  db: TemplatesDb,
  ownerId: number,
  title: string,
  definition: TemplateDefinition,
): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('document_templates')
    .values({ owner_id: ownerId, title, definition: JSON.stringify(definition), added: now, updated: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A template the user may use (own or site); 404 otherwise. */
export async function requireUsable(db: TemplatesDb, userId: number, id: number) {
  const row = await usableTemplates(db, userId)
    .select([...LIST_COLUMNS, 'document_templates.definition'])
    .where('document_templates.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new HttpError(404);
  return row;
}

/** A template the user owns: a site template of someone else answers 403, anything else 404. */
export async function requireOwned(db: TemplatesDb, userId: number, id: number) {
  const row = await requireUsable(db, userId, id);
  if (row.owner_id !== userId) throw new HttpError(403);
  return row;
}

export async function getTemplate(db: TemplatesDb, userId: number, id: number): Promise<TemplateEntry> {
  const row = await requireUsable(db, userId, id);
  const files = await db
    .selectFrom('template_export_files')
    .select(['id', 'kind', 'title', 'size', 'added'])
    .where('template_id', '=', id)
    .orderBy('id')
    .execute();
  return {
    ...present(row, userId),
    definition: parseDefinition(row.definition),
    files: files.map((file) => ({
      id: file.id,
      kind: file.kind as 'docx' | 'odt',
      title: file.title,
      size: Number(file.size),
      added: Number(file.added),
    })),
  };
}
