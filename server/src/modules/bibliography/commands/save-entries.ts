import type { entryProblem } from '@scriptorium/common/api/bibliography';
import { TakenEntryKeys } from '@scriptorium/common/bibliography/entry-key';
import type { EntryData, FieldValue } from '@scriptorium/common/bibliography/types';
import type { z } from 'zod';
import type { AppContext } from '../../../context';
import type { Actor } from '../../command';
import { assertOwnCategories, assertOwnEntries } from '../policies';
import { lockOwnerState, type OwnerState, touchOwnerState } from '../queries';

export type EntryProblem = z.infer<typeof entryProblem>;

/** Thrown when any entry of the request breaks the model: nothing of the request is saved. */
export class InvalidEntries extends Error {
  constructor(readonly problems: EntryProblem[]) {
    super('invalid entries');
  }
}

export interface SaveResult {
  id_translations: [number, number][];
  /** Keys as saved (made safe and unique): the client shows these. */
  entry_keys: [number, string][];
  before: OwnerState;
  after: OwnerState;
}

const INSERT_BATCH = 200;

function keyOf(value: unknown): string | null {
  return typeof value === 'object' &&
    value !== null &&
    typeof (value as { entry_key?: unknown }).entry_key === 'string'
    ? (value as { entry_key: string }).entry_key
    : null;
}

/**
 * Validates every entry first and returns clean copies (empty values dropped, rich text canonical).
 * The validator (biblatex-csl-converter's field tables: several MiB) and the rich text are loaded on the first save,
 * not at boot, so that an idle server does not hold it.
 */
async function checkAll(bibs: Record<string, unknown>): Promise<Map<string, EntryData>> {
  const { validateEntry, withoutEmptyFields } = await import('@scriptorium/common/bibliography/validate');
  const { normalizeFieldValue } = await import('@scriptorium/common/bibliography/rich-text');
  const problems: EntryProblem[] = [];
  const clean = new Map<string, EntryData>();
  for (const [id, value] of Object.entries(bibs)) {
    const found = validateEntry(value);
    if (found.length > 0) {
      for (const p of found) problems.push({ id, entry_key: keyOf(value), field: p.field, code: p.code });
      continue;
    }
    const data = value as EntryData;
    const fields = withoutEmptyFields(data.fields) as Record<string, FieldValue>;
    for (const [name, field] of Object.entries(fields)) fields[name] = normalizeFieldValue(name, field);
    clean.set(id, {
      entry_key: data.entry_key.trim(),
      bib_type: data.bib_type,
      fields,
      cats: [...new Set(data.cats ?? [])],
    });
  }
  if (problems.length > 0) throw new InvalidEntries(problems);
  return clean;
}

/**
 * Spec section 7, save: creates (is_new) or updates the given entries in one transaction. Keys
 * are made safe and unique among the owner's entries; a foreign entry or category id is a 404.
 */
export async function saveEntries(
  ctx: AppContext,
  owner: Actor,
  input: { is_new: boolean; bibs: Record<string, unknown> },
): Promise<SaveResult> {
  const ownerId = owner.id;
  const isNew = input.is_new;
  const entries = await checkAll(input.bibs);
  const categoryIds = [...new Set([...entries.values()].flatMap((e) => e.cats))];
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockOwnerState(trx, ownerId);
    await assertOwnCategories(trx, ownerId, categoryIds);
    const updatedIds = isNew ? [] : [...entries.keys()].map(Number);
    if (!isNew) await assertOwnEntries(trx, ownerId, updatedIds);

    // Keys of the entries not in this request are taken; those in it may keep their own key.
    const updating = new Set(updatedIds);
    const existing = await trx
      .selectFrom('bib_entries')
      .select(['id', 'entry_key_lower'])
      .where('owner_id', '=', ownerId)
      .execute();
    const taken = new TakenEntryKeys(
      existing.flatMap((row) => (updating.has(row.id) ? [] : [row.entry_key_lower])),
    );

    const now = Date.now();
    const translations: [number, number][] = [];
    const keys: [number, string][] = [];
    const rows = [...entries].map(([id, data]) => {
      const key = taken.claim(data.entry_key);
      return {
        clientId: Number(id),
        values: {
          owner_id: ownerId,
          entry_key: key,
          entry_key_lower: key.toLowerCase(),
          bib_type: data.bib_type,
          fields: JSON.stringify(data.fields),
          cats: JSON.stringify(data.cats),
          created_at: now,
          updated_at: now,
        },
      };
    });

    if (isNew) {
      for (let i = 0; i < rows.length; i += INSERT_BATCH) {
        const batch = rows.slice(i, i + INSERT_BATCH);
        const inserted = await trx
          .insertInto('bib_entries')
          .values(batch.map((r) => r.values))
          .returning(['id', 'entry_key_lower'])
          .execute();
        // Matched by key (unique per owner), not by position: RETURNING order is not promised.
        const idByKey = new Map(inserted.map((r) => [r.entry_key_lower, r.id]));
        for (const row of batch) {
          const id = idByKey.get(row.values.entry_key_lower)!;
          translations.push([row.clientId, id]);
          keys.push([id, row.values.entry_key]);
        }
      }
    } else {
      // Two entries of one request may swap keys: free the old keys first ("#" never is in a safe key).
      for (const row of rows) {
        await trx
          .updateTable('bib_entries')
          .set({ entry_key_lower: `#${row.clientId}` })
          .where('owner_id', '=', ownerId)
          .where('id', '=', row.clientId)
          .execute();
      }
      for (const row of rows) {
        const { owner_id: _owner, created_at: _created, ...values } = row.values;
        await trx
          .updateTable('bib_entries')
          .set(values)
          .where('owner_id', '=', ownerId)
          .where('id', '=', row.clientId)
          .execute();
        translations.push([row.clientId, row.clientId]);
        keys.push([row.clientId, row.values.entry_key]);
      }
    }
    const after = await touchOwnerState(trx, ownerId, before);
    return { id_translations: translations, entry_keys: keys, before, after };
  });
}
