import type { SourceProblem, SourceReport } from '@scriptorium/common/api/bib-sources';
import { TakenEntryKeys } from '@scriptorium/common/bibliography/entry-key';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../context';
import type { Database } from '../../../db/schema';
import { HttpError } from '../../../http/errors';
import { ExportBudgetExceeded, runExportTask } from '../../documents/export/export-pool';
import { asHeavyTask, HeavyWorkBusy } from '../../documents/export/heavy-work';
import type { SourceEntry, SourceRead } from '../../documents/export/source-read';
import { lockOwnerState, touchOwnerState } from '../queries';
import { type Fetched, fetchSource } from './fetch-source';
import { FetchBudget, SourceError } from './guarded-fetch';

/**
 * One sync of a bibliography source (issue 57): fetch (conditional), read in the export pool
 * (the import's readers), then one transaction: new entries added into the source's category,
 * changed ones updated in place (same id and key, so citations follow as after an edit), entries
 * the source no longer has marked gone and kept (a document may cite them). A fetch or read that
 * fails writes nothing but its report; the conditional state moves only with a written sync.
 */

/** Errors listed in one report at most (a broken file may have thousands). */
const MAX_REPORTED_ERRORS = 50;
const INSERT_BATCH = 200;

function report(partial: Partial<SourceReport>): SourceReport {
  return { at: Date.now(), not_modified: false, added: [], updated: [], gone: [], errors: [], ...partial };
}

async function readInPool(
  ctx: AppContext,
  ownerId: number,
  fetched: Extract<Fetched, { notModified: false }>,
) {
  try {
    const made = await asHeavyTask(ctx.config, ownerId, () =>
      runExportTask(ctx.config, {
        kind: 'bibliography-source',
        text: fetched.text,
        cslPages: fetched.cslPages,
      }),
    );
    if (made.kind !== 'bibliography-source') throw new Error(`unexpected result ${made.kind}`);
    return made.read;
  } catch (error) {
    if (error instanceof ExportBudgetExceeded) throw new SourceError('too_large');
    if (error instanceof HttpError && error.statusCode === 429) throw new SourceError('busy');
    throw error;
  }
}

function readProblems(read: SourceRead): SourceProblem[] {
  if (read.format === null) return [{ code: 'not_bibliography', entry: null }];
  return read.messages
    .filter((m) => m.level === 'error')
    .slice(0, MAX_REPORTED_ERRORS)
    .map((m) => ({
      code: 'invalid_entries',
      entry: m.entry,
      detail: [m.code, m.field, m.line === undefined ? undefined : `line ${m.line}`]
        .filter(Boolean)
        .join(', '),
    }));
}

async function sourceCategory(
  trx: Transaction<Database>,
  ownerId: number,
  source: { id: number; title: string; category_id: number | null },
): Promise<number> {
  if (source.category_id !== null) return source.category_id;
  const made = await trx
    .insertInto('bib_categories')
    .values({ owner_id: ownerId, category_title: source.title })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.updateTable('bib_sources').set({ category_id: made.id }).where('id', '=', source.id).execute();
  return made.id;
}

/** Writes the read entries; answers the report's lists. */
async function writeEntries(
  trx: Transaction<Database>,
  ownerId: number,
  source: { id: number; title: string; category_id: number | null },
  entries: SourceEntry[],
): Promise<Pick<SourceReport, 'added' | 'updated' | 'gone'>> {
  const categoryId = await sourceCategory(trx, ownerId, source);
  const known = await trx
    .selectFrom('bib_source_entries')
    .innerJoin('bib_entries', 'bib_entries.id', 'bib_source_entries.entry_id')
    .select([
      'bib_source_entries.id as link_id',
      'bib_source_entries.remote_id',
      'bib_source_entries.digest',
      'bib_source_entries.gone',
      'bib_entries.id as entry_id',
      'bib_entries.entry_key',
      'bib_entries.cats',
    ])
    .where('bib_source_entries.source_id', '=', source.id)
    .where('bib_entries.owner_id', '=', ownerId)
    .execute();
  const byRemote = new Map(known.map((row) => [row.remote_id.toLowerCase(), row]));
  const now = Date.now();
  const added: string[] = [];
  const updated: string[] = [];
  const gone: string[] = [];
  const fresh: SourceEntry[] = [];
  const present = new Set<string>();

  for (const item of entries) {
    const lower = item.remote_id.toLowerCase();
    present.add(lower);
    const row = byRemote.get(lower);
    if (!row) {
      fresh.push(item);
      continue;
    }
    if (row.digest === item.digest && row.gone === 0) continue;
    const cats = JSON.parse(row.cats) as number[];
    if (!cats.includes(categoryId)) cats.push(categoryId);
    // The key stays the one the entry has: documents and \cite commands use it.
    await trx
      .updateTable('bib_entries')
      .set({
        bib_type: item.entry.bib_type,
        fields: JSON.stringify(item.entry.fields),
        cats: JSON.stringify(cats),
        updated_at: now,
      })
      .where('owner_id', '=', ownerId)
      .where('id', '=', row.entry_id)
      .execute();
    await trx
      .updateTable('bib_source_entries')
      .set({ digest: item.digest, gone: 0 })
      .where('id', '=', row.link_id)
      .execute();
    updated.push(row.entry_key);
  }

  for (const row of known) {
    if (present.has(row.remote_id.toLowerCase()) || row.gone === 1) continue;
    await trx.updateTable('bib_source_entries').set({ gone: 1 }).where('id', '=', row.link_id).execute();
    gone.push(row.entry_key);
  }

  if (fresh.length > 0) {
    const existing = await trx
      .selectFrom('bib_entries')
      .select('entry_key_lower')
      .where('owner_id', '=', ownerId)
      .execute();
    const taken = new TakenEntryKeys(existing.map((row) => row.entry_key_lower));
    for (let i = 0; i < fresh.length; i += INSERT_BATCH) {
      const batch = fresh.slice(i, i + INSERT_BATCH).map((item) => {
        const key = taken.claim(item.entry.entry_key);
        return { item, key };
      });
      const inserted = await trx
        .insertInto('bib_entries')
        .values(
          batch.map(({ item, key }) => ({
            owner_id: ownerId,
            entry_key: key,
            entry_key_lower: key.toLowerCase(),
            bib_type: item.entry.bib_type,
            fields: JSON.stringify(item.entry.fields),
            cats: JSON.stringify([categoryId]),
            created_at: now,
            updated_at: now,
          })),
        )
        .returning(['id', 'entry_key_lower'])
        .execute();
      // Matched by key (unique per owner), not by position: RETURNING order is not promised.
      const idByKey = new Map(inserted.map((r) => [r.entry_key_lower, r.id]));
      await trx
        .insertInto('bib_source_entries')
        .values(
          batch.map(({ item, key }) => ({
            source_id: source.id,
            entry_id: idByKey.get(key.toLowerCase())!,
            remote_id: item.remote_id,
            digest: item.digest,
            gone: 0,
          })),
        )
        .execute();
      for (const { key } of batch) added.push(key);
    }
  }
  return { added, updated, gone };
}

async function ownSource(ctx: AppContext, ownerId: number, sourceId: number) {
  const source = await ctx.db
    .selectFrom('bib_sources')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('id', '=', sourceId)
    .executeTakeFirst();
  if (!source) throw new HttpError(404);
  return source;
}

async function storeReport(ctx: AppContext, sourceId: number, done: SourceReport): Promise<SourceReport> {
  await ctx.db
    .updateTable('bib_sources')
    .set({ synced_at: done.at, report: JSON.stringify(done) })
    .where('id', '=', sourceId)
    .execute();
  return done;
}

/**
 * Syncs one of the owner's sources and stores its report; answers the report. Only an unexpected
 * failure throws (a source's own failures are the report's errors); a user who already runs as
 * many heavy tasks as allowed gets the 429 of heavy-work.ts when `busyThrows`.
 */
export async function syncSource(
  ctx: AppContext,
  ownerId: number,
  sourceId: number,
  options: { busyThrows?: boolean } = {},
): Promise<SourceReport> {
  const source = await ownSource(ctx, ownerId, sourceId);
  // The category the user deleted is made again (the source's entries stay where they are).
  if (source.category_id !== null) {
    const category = await ctx.db
      .selectFrom('bib_categories')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('id', '=', source.category_id)
      .executeTakeFirst();
    if (!category) source.category_id = null;
  }
  let fetched: Fetched;
  let read: SourceRead;
  try {
    fetched = await fetchSource(ctx.config, source, new FetchBudget(ctx.config));
    if (fetched.notModified) return await storeReport(ctx, source.id, report({ not_modified: true }));
    read = await readInPool(ctx, ownerId, fetched);
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    if (error.code === 'busy' && options.busyThrows) throw new HeavyWorkBusy();
    return storeReport(
      ctx,
      source.id,
      report({ errors: [{ code: error.code, entry: null, detail: error.detail }] }),
    );
  }
  const problems = readProblems(read);
  if (problems.length > 0) return storeReport(ctx, source.id, report({ errors: problems }));

  const done = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockOwnerState(trx, ownerId);
    const lists = await writeEntries(trx, ownerId, source, read.entries);
    if (lists.added.length + lists.updated.length + lists.gone.length > 0)
      await touchOwnerState(trx, ownerId, before);
    const done = report(lists);
    await trx
      .updateTable('bib_sources')
      .set({
        etag: fetched.notModified ? null : fetched.etag,
        last_modified_header: fetched.notModified ? null : fetched.lastModified,
        library_version: fetched.notModified ? null : fetched.libraryVersion,
        synced_at: done.at,
        report: JSON.stringify(done),
      })
      .where('id', '=', source.id)
      .execute();
    return done;
  });
  return done;
}
