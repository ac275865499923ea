import type { AppContext } from '../../../context';
import { syncSource } from './sync-source';

/**
 * The scheduled sync of bibliography sources (issue 57): every minute a process takes the
 * sources that are due, one at a time. A source is claimed by moving its next_sync_at on with a
 * conditional update, so that of several server processes exactly one syncs it.
 */

const TICK_MS = 60_000;
/** Sources one tick syncs at most (each is a fetch and a read in the export pool). */
const PER_TICK = 10;

/** Syncs the due sources once; answers how many it synced. Exported for the tests. */
export async function syncDueSources(ctx: AppContext, now = Date.now()): Promise<number> {
  const interval = ctx.config.bibSourcesSyncMinutes * 60_000;
  if (interval <= 0) return 0;
  const due = await ctx.db
    .selectFrom('bib_sources')
    .select(['id', 'owner_id', 'next_sync_at'])
    .where('next_sync_at', '<=', now)
    .orderBy('next_sync_at')
    .limit(PER_TICK)
    .execute();
  let synced = 0;
  for (const source of due) {
    if (ctx.state.stopping) break;
    const claimed = await ctx.db
      .updateTable('bib_sources')
      .set({ next_sync_at: now + interval })
      .where('id', '=', source.id)
      .where('next_sync_at', '=', source.next_sync_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    await syncSource(ctx, source.owner_id, source.id);
    synced++;
  }
  return synced;
}

/** Starts the schedule; answers its stop. Errors are logged and the next tick tries again. */
export function startSourceSchedule(ctx: AppContext, log: (error: unknown) => void): () => void {
  if (ctx.config.bibSourcesSyncMinutes <= 0) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    syncDueSources(ctx)
      .catch(log)
      .finally(() => {
        running = false;
      });
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
