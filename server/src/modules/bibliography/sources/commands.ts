import {
  type BibSource,
  MAX_SOURCES_PER_USER,
  type SourceAddRequest,
  type SourceReport,
} from '@scriptorium/common/api/bib-sources';
import type { AppContext } from '../../../context';
import { countOwned } from '../../../db/owned';
import type { BibSourcesTable } from '../../../db/schema';
import { HttpError } from '../../../http/errors';
import type { Actor } from '../../command';
import { SourceError } from './guarded-fetch';
import { syncSource } from './sync-source';

/** Adding, listing and removing a user's bibliography sources (issue 57). */

type SourceRowAll = Omit<BibSourcesTable, 'id' | 'next_sync_at'> & { id: number };

function present(row: SourceRowAll, counts: { entries: number; gone: number }): BibSource {
  return {
    id: row.id,
    kind: row.kind === 'zotero' ? 'zotero' : 'url',
    title: row.title,
    url: row.url,
    zotero_library: row.zotero_library === 'group' ? 'group' : row.zotero_library === 'user' ? 'user' : null,
    zotero_id: row.zotero_id,
    zotero_collection: row.zotero_collection,
    has_key: Boolean(row.zotero_key),
    category_id: row.category_id,
    synced_at: row.synced_at === null ? null : Number(row.synced_at),
    entries: counts.entries,
    gone: counts.gone,
    report: row.report ? (JSON.parse(row.report) as SourceReport) : null,
  };
}

const COLUMNS = [
  'id',
  'owner_id',
  'kind',
  'title',
  'url',
  'zotero_library',
  'zotero_id',
  'zotero_key',
  'zotero_collection',
  'category_id',
  'etag',
  'last_modified_header',
  'library_version',
  'synced_at',
  'report',
  'created_at',
] as const;

export async function listSources(
  ctx: AppContext,
  owner: Actor,
  input: { id?: number } = {},
): Promise<BibSource[]> {
  const ownerId = owner.id;
  let query = ctx.db.selectFrom('bib_sources').select(COLUMNS).where('owner_id', '=', ownerId);
  if (input.id !== undefined) query = query.where('id', '=', input.id);
  const rows = await query.orderBy('id').execute();
  if (rows.length === 0) return [];
  const counts = await ctx.db
    .selectFrom('bib_source_entries')
    .select((eb) => ['source_id', 'gone', eb.fn.countAll<number>().as('n')])
    .where(
      'source_id',
      'in',
      rows.map((row) => row.id),
    )
    .groupBy(['source_id', 'gone'])
    .execute();
  return rows.map((row) => {
    const mine = counts.filter((c) => c.source_id === row.id);
    const gone = Number(mine.find((c) => Number(c.gone) === 1)?.n ?? 0);
    const entries = mine.reduce((sum, c) => sum + Number(c.n), 0);
    return present(row, { entries, gone });
  });
}

async function ownSourceInfo(ctx: AppContext, ownerId: number, id: number): Promise<BibSource> {
  const [source] = await listSources(ctx, { id: ownerId }, { id });
  if (!source) throw new HttpError(404);
  return source;
}

function invalid(field: 'Url' | 'Zotero'): HttpError {
  return new HttpError(400, { error: 'invalid_source', message: { key: `errors.source${field}` } });
}

/** Checks what the kind needs; a URL must be http(s) (its address is checked at each fetch). */
function sourceValues(input: SourceAddRequest) {
  if (input.kind === 'url') {
    const url = input.url ?? '';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid('Url');
    }
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password)
      throw invalid('Url');
    return {
      url: parsed.href,
      zotero_library: null,
      zotero_id: null,
      zotero_key: null,
      zotero_collection: null,
    };
  }
  if (!input.zotero_library || !input.zotero_id) throw invalid('Zotero');
  return {
    url: null,
    zotero_library: input.zotero_library,
    zotero_id: input.zotero_id,
    zotero_key: input.zotero_key || null,
    zotero_collection: input.zotero_collection || null,
  };
}

/** Adds a source with a category of its title, syncs it once and answers it with that sync's report. */
export async function addSource(ctx: AppContext, owner: Actor, input: SourceAddRequest): Promise<BibSource> {
  const ownerId = owner.id;
  const values = sourceValues(input);
  const now = Date.now();
  const id = await ctx.db.transaction().execute(async (trx) => {
    if ((await countOwned(trx, 'bib_sources', ownerId)) >= MAX_SOURCES_PER_USER)
      throw new HttpError(400, { error: 'too_many_sources', message: { key: 'errors.tooManySources' } });
    const category = await trx
      .insertInto('bib_categories')
      .values({ owner_id: ownerId, category_title: input.title.trim() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto('bib_sources')
      .values({
        owner_id: ownerId,
        kind: input.kind,
        title: input.title.trim(),
        ...values,
        category_id: category.id,
        next_sync_at: now + ctx.config.bibSourcesSyncMinutes * 60_000,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  await syncSource(ctx, ownerId, id);
  return ownSourceInfo(ctx, ownerId, id);
}

/** Syncs now (on demand) and answers the source with its new report. */
export async function syncNow(ctx: AppContext, owner: Actor, input: { id: number }): Promise<BibSource> {
  await syncSource(ctx, owner.id, input.id, { busyThrows: true });
  return ownSourceInfo(ctx, owner.id, input.id);
}

/** Removes the source; the entries it brought stay in the bibliography (they are the user's now). */
export async function removeSource(ctx: AppContext, owner: Actor, input: { id: number }): Promise<void> {
  const removed = await ctx.db
    .deleteFrom('bib_sources')
    .where('owner_id', '=', owner.id)
    .where('id', '=', input.id)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw new HttpError(404);
}

export { SourceError };
