import type { V1BibEntry } from '@scriptorium/common/api/v1';
import type { BibCategory, EntryData } from '@scriptorium/common/bibliography/types';
import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import { deleteCategories } from '../bibliography/commands/delete-categories';
import { deleteEntries } from '../bibliography/commands/delete-entries';
import { saveCategories } from '../bibliography/commands/save-categories';
import { InvalidEntries, saveEntries } from '../bibliography/commands/save-entries';
import type { EntryRow } from '../bibliography/presenters';
import { runExportTask } from '../documents/export/export-pool';
import { asHeavyTask } from '../documents/export/heavy-work';

/** The public API's view of the bibliography: entries in and out as CSL-JSON items. */

export function entryData(row: EntryRow): EntryData {
  return {
    entry_key: row.entry_key,
    bib_type: row.bib_type,
    fields: JSON.parse(row.fields) as EntryData['fields'],
    cats: JSON.parse(row.cats) as number[],
  };
}

/**
 * The CSL-JSON writer and reader (biblatex-csl-converter: several MiB) are loaded on first use, not
 * at boot, so that an idle server does not hold them.
 */
const cslWriter = () => import('@scriptorium/common/bibliography/export');
const cslReader = () => import('@scriptorium/common/bibliography/import-bibtex');

export async function presentCslEntries(rows: EntryRow[]): Promise<V1BibEntry[]> {
  const { exportCslItems } = await cslWriter();
  const items = exportCslItems(rows.map(entryData));
  return rows.map((row, index) => ({ id: row.id, key: row.entry_key, csl: items[index] }));
}

const ENTRY_COLUMNS = ['id', 'entry_key', 'bib_type', 'fields', 'cats'] as const;

export async function listCslEntries(ctx: AppContext, ownerId: number): Promise<EntryRow[]> {
  return ctx.db.selectFrom('bib_entries').select(ENTRY_COLUMNS).where('owner_id', '=', ownerId).execute();
}

export async function ownEntryRow(ctx: AppContext, ownerId: number, id: number): Promise<EntryRow> {
  const row = await ctx.db
    .selectFrom('bib_entries')
    .select(ENTRY_COLUMNS)
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new HttpError(404);
  return row;
}

/**
 * One CSL-JSON item as our entry model; a 400 that says so when it is not one. CSL-JSON requires
 * `type`: the API refuses an item without it, where the interactive import (lenient with files
 * other programs wrote) reads it as misc and reports it.
 */
async function entryFromCsl(text: string): Promise<EntryData> {
  const { importCslJson } = await cslReader();
  const { entries } = importCslJson(`[${text}]`);
  if (entries.length !== 1 || text.trim().startsWith('[') || !hasCslType(text)) {
    throw new HttpError(400, { error: 'invalid_entries', message: { key: 'errors.badRequest' } });
  }
  return entries[0];
}

function hasCslType(text: string): boolean {
  try {
    const item = JSON.parse(text) as { type?: unknown };
    return typeof item.type === 'string' && item.type.length > 0;
  } catch {
    return false;
  }
}

/** Adds (id undefined) or replaces an entry from CSL-JSON; answers the saved entry. */
export async function saveCslEntry(
  ctx: AppContext,
  ownerId: number,
  csl: string,
  id?: number,
): Promise<V1BibEntry> {
  const entry = await entryFromCsl(csl);
  try {
    return await saveEntry(ctx, ownerId, entry, id);
  } catch (error) {
    // The entry model's own rules (a key, a known type, ...): the same 400 as the app's.
    if (error instanceof InvalidEntries) {
      throw new HttpError(400, { error: 'invalid_entries', message: { key: 'errors.badRequest' } });
    }
    throw error;
  }
}

async function saveEntry(ctx: AppContext, ownerId: number, entry: EntryData, id: number | undefined) {
  if (id === undefined) {
    const saved = await saveEntries(
      ctx,
      { id: ownerId },
      { is_new: true, bibs: { '0': { ...entry, cats: [] } } },
    );
    const [, newId] = saved.id_translations[0];
    return (await presentCslEntries([await ownEntryRow(ctx, ownerId, newId)]))[0];
  }
  const current = await ownEntryRow(ctx, ownerId, id);
  await saveEntries(
    ctx,
    { id: ownerId },
    {
      is_new: false,
      bibs: { [id]: { ...entry, cats: entryData(current).cats } },
    },
  );
  return (await presentCslEntries([await ownEntryRow(ctx, ownerId, id)]))[0];
}

export async function deleteCslEntry(ctx: AppContext, ownerId: number, id: number): Promise<void> {
  await ownEntryRow(ctx, ownerId, id);
  await deleteEntries(ctx, { id: ownerId }, { ids: [id] });
}

/** The user's whole bibliography as BibTeX, written in the export pool (it grows with the library). */
export async function bibtexFile(ctx: AppContext, ownerId: number): Promise<string> {
  const entries = (await listCslEntries(ctx, ownerId)).map(entryData);
  const made = await asHeavyTask(ctx.config, ownerId, () =>
    runExportTask(ctx.config, { kind: 'bibtex', entries }),
  );
  if (made.kind !== 'text') throw new Error(`unexpected result ${made.kind}`);
  return made.text;
}

/** Reads a bibliography file in the export pool and adds its entries; answers them and the reader's messages. */
export async function importFile(ctx: AppContext, ownerId: number, text: string) {
  const made = await asHeavyTask(ctx.config, ownerId, () =>
    runExportTask(ctx.config, { kind: 'bibliography-import', text }),
  );
  if (made.kind !== 'bibliography') throw new Error(`unexpected result ${made.kind}`);
  const { entries, messages } = made.report;
  const plain = messages.map(({ level, code, entry }) => ({ level, code, entry }));
  if (entries.length === 0) return { entries: [], messages: plain };
  const bibs = Object.fromEntries(entries.map((entry, index) => [String(index), { ...entry, cats: [] }]));
  let saved: Awaited<ReturnType<typeof saveEntries>>;
  try {
    saved = await saveEntries(ctx, { id: ownerId }, { is_new: true, bibs });
  } catch (error) {
    if (error instanceof InvalidEntries)
      throw new HttpError(400, { error: 'invalid_entries', message: { key: 'errors.badRequest' } });
    throw error;
  }
  const ids = new Set(saved.id_translations.map(([, id]) => id));
  const rows = (await listCslEntries(ctx, ownerId)).filter((row) => ids.has(row.id));
  return { entries: await presentCslEntries(rows), messages: plain };
}

function presentV1Category(category: BibCategory) {
  return { id: category.id, title: category.category_title };
}

export async function listCategories(ctx: AppContext, ownerId: number) {
  const rows = await ctx.db
    .selectFrom('bib_categories')
    .select(['id', 'category_title'])
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  return rows.map(presentV1Category);
}

export async function addCategory(ctx: AppContext, ownerId: number, title: string) {
  const before = new Set((await listCategories(ctx, ownerId)).map((category) => category.id));
  const all = await saveCategories(ctx, { id: ownerId }, { ids: [0], titles: [title] });
  const added = all.find((category) => !before.has(category.id));
  if (!added) throw new HttpError(400);
  return presentV1Category(added);
}

export async function deleteCategory(ctx: AppContext, ownerId: number, id: number): Promise<void> {
  if (!(await listCategories(ctx, ownerId)).some((category) => category.id === id)) throw new HttpError(404);
  await deleteCategories(ctx, { id: ownerId }, { ids: [id] });
}
