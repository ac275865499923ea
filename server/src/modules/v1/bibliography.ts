import type { V1BibEntry } from '@scriptorium/common/api/v1';
import { exportCslItems } from '@scriptorium/common/bibliography/export';
import { importCslJson } from '@scriptorium/common/bibliography/import-bibtex';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import { deleteEntries } from '../bibliography/commands/delete-entries';
import { InvalidEntries, saveEntries } from '../bibliography/commands/save-entries';
import type { EntryRow } from '../bibliography/presenters';

/** The public API's view of the bibliography: entries in and out as CSL-JSON items. */

export function entryData(row: EntryRow): EntryData {
  return {
    entry_key: row.entry_key,
    bib_type: row.bib_type,
    fields: JSON.parse(row.fields) as EntryData['fields'],
    cats: JSON.parse(row.cats) as number[],
  };
}

export function presentCslEntries(rows: EntryRow[]): V1BibEntry[] {
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
function entryFromCsl(text: string): EntryData {
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
  const entry = entryFromCsl(csl);
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
    const saved = await saveEntries(ctx, ownerId, true, { '0': { ...entry, cats: [] } });
    const [, newId] = saved.id_translations[0];
    return presentCslEntries([await ownEntryRow(ctx, ownerId, newId)])[0];
  }
  const current = await ownEntryRow(ctx, ownerId, id);
  await saveEntries(ctx, ownerId, false, { [id]: { ...entry, cats: entryData(current).cats } });
  return presentCslEntries([await ownEntryRow(ctx, ownerId, id)])[0];
}

export async function deleteCslEntry(ctx: AppContext, ownerId: number, id: number): Promise<void> {
  await ownEntryRow(ctx, ownerId, id);
  await deleteEntries(ctx, ownerId, [id]);
}
