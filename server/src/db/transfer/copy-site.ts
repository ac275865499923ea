import type { RawConnection } from './connection';
import { type LoadOptions, loadSite } from './load-site';
import { countRows, openSnapshot, type SiteLocation, sequencePositions, tableBatches } from './site-data';
import { siteTables } from './site-tables';

/**
 * Copies a live site's database (SQLite or PostgreSQL) into `target` (migrated to the latest
 * schema): read from one consistent snapshot of the source while its server may keep running,
 * written in one transaction on the target and verified before it commits (loadSite). Returns
 * how many tables and rows were copied.
 */
export async function copySite(
  source: SiteLocation,
  target: RawConnection,
  options: LoadOptions,
): Promise<{ tables: number; rows: number }> {
  const snapshot = await openSnapshot(source);
  try {
    const tables = await siteTables(snapshot);
    const summaries = await loadSite(
      {
        tables,
        rowCount: (table) => countRows(snapshot, table.name),
        batches: (table) => tableBatches(snapshot, table, options.batchSize),
        sequencePositions: await sequencePositions(snapshot, tables),
      },
      target,
      options,
    );
    const rows = Object.values(summaries).reduce((sum, summary) => sum + summary.rows, 0);
    return { tables: tables.length, rows };
  } finally {
    await snapshot.close();
  }
}
