import type { RawConnection, RawRow } from './connection';
import { quoted } from './connection';
import { countRows, setSequences, summarise, TableDigest, type TableSummary } from './site-data';
import { type SiteTable, siteTables } from './site-tables';

/** Where a site's rows come from: a live database's snapshot (migrate) or an archive (restore). */
export interface SiteSource {
  /** The tables in dependency order, as the source describes them. */
  tables: SiteTable[];
  rowCount(table: SiteTable): Promise<number>;
  /** The table's rows, in batches. */
  batches(table: SiteTable): AsyncIterable<RawRow[]>;
  /** Where the source's id sequences stood (sequencePositions). */
  sequencePositions: Record<string, number>;
  /** What the source says its tables held (an archive's manifest), checked against what was read. */
  expected?: Record<string, TableSummary>;
}

export interface LoadProgress {
  tableStarted(table: string, rows: number): void;
  rowsCopied(rows: number): void;
  tableDone(table: string, rows: number): void;
}

export interface LoadOptions {
  /** Replace what the target holds instead of refusing. */
  force: boolean;
  batchSize: number;
  progress?: LoadProgress;
}

export class TargetNotEmptyError extends Error {
  constructor(
    readonly table: string,
    readonly rows: number,
  ) {
    super(`The target already holds data (${rows} rows in ${table}).`);
  }
}

export class SchemaMismatchError extends Error {
  constructor(readonly table: string) {
    super(`The table ${table} differs between the source and the target.`);
  }
}

export class VerificationError extends Error {
  constructor(
    readonly table: string,
    readonly source: TableSummary,
    readonly target: TableSummary,
  ) {
    super(
      `Verification failed for ${table}: ${source.rows} rows (${source.checksum.slice(0, 12)}) in the source, ` +
        `${target.rows} rows (${target.checksum.slice(0, 12)}) in the target.`,
    );
  }
}

/** PostgreSQL accepts 65,535 parameters a statement, SQLite 32,766: rows a statement, under both. */
function rowsPerInsert(table: SiteTable, batchSize: number): number {
  return Math.max(1, Math.min(batchSize, Math.floor(30_000 / table.columns.length)));
}

async function insertRows(target: RawConnection, table: SiteTable, rows: RawRow[], perInsert: number) {
  const columns = table.columns.map(quoted).join(', ');
  const tuple = `(${table.columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += perInsert) {
    const chunk = rows.slice(start, start + perInsert);
    await target.query(
      `insert into ${quoted(table.name)} (${columns}) values ${chunk.map(() => tuple).join(', ')}`,
      chunk.flatMap((row) => table.columns.map((column) => row[column] ?? null)),
    );
  }
}

/** The target must have the source's tables with the same columns (both migrated by this code). */
async function checkSameSchema(source: SiteTable[], target: RawConnection): Promise<void> {
  const targetTables = new Map((await siteTables(target)).map((table) => [table.name, table]));
  for (const table of source) {
    const other = targetTables.get(table.name);
    if (!other || other.columns.join() !== table.columns.join()) throw new SchemaMismatchError(table.name);
    targetTables.delete(table.name);
  }
  const [extra] = targetTables.keys();
  if (extra) throw new SchemaMismatchError(extra);
}

/**
 * Writes a whole site into `target` (migrated to the latest schema already) in ONE transaction:
 * the rows, then the id sequences, then the verification (every table's count and checksum read
 * back from the target against what was read from the source). Only then does it commit; any
 * failure, or a kill at any moment, leaves the target as it was. Returns the tables' summaries.
 */
export async function loadSite(
  source: SiteSource,
  target: RawConnection,
  options: LoadOptions,
): Promise<Record<string, TableSummary>> {
  await checkSameSchema(source.tables, target);
  if (!options.force) {
    for (const table of source.tables) {
      const rows = await countRows(target, table.name);
      if (rows > 0) throw new TargetNotEmptyError(table.name, rows);
    }
  }
  await target.query(target.dialect === 'postgres' ? 'begin' : 'begin immediate');
  try {
    if (options.force) {
      if (target.dialect === 'postgres') {
        await target.query(
          `truncate ${source.tables.map((table) => quoted(table.name)).join(', ')} restart identity`,
        );
      } else {
        for (const table of [...source.tables].reverse())
          await target.query(`delete from ${quoted(table.name)}`);
      }
    }
    const read: Record<string, TableSummary> = {};
    for (const table of source.tables) {
      const total = await source.rowCount(table);
      options.progress?.tableStarted(table.name, total);
      const digest = new TableDigest(table.columns);
      const perInsert = rowsPerInsert(table, options.batchSize);
      for await (const rows of source.batches(table)) {
        await insertRows(target, table, rows, perInsert);
        for (const row of rows) digest.add(row);
        options.progress?.rowsCopied(rows.length);
      }
      read[table.name] = digest.summary();
      options.progress?.tableDone(table.name, read[table.name].rows);
    }
    await setSequences(target, source.tables, source.sequencePositions);
    for (const table of source.tables) {
      const written = await summarise(target, table, options.batchSize);
      const expected = source.expected?.[table.name];
      if (
        expected &&
        (expected.rows !== read[table.name].rows || expected.checksum !== read[table.name].checksum)
      ) {
        throw new VerificationError(table.name, expected, read[table.name]);
      }
      if (written.rows !== read[table.name].rows || written.checksum !== read[table.name].checksum) {
        throw new VerificationError(table.name, read[table.name], written);
      }
    }
    await target.query('commit');
    return read;
  } catch (error) {
    await target.query('rollback').catch(() => undefined);
    throw error;
  }
}
