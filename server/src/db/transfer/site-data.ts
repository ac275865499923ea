import { createHash } from 'node:crypto';
import type { CellValue, RawConnection, RawRow } from './connection';
import { openPostgres, openSqlite, quoted, sqliteFile } from './connection';
import { keyOrder, type SiteTable, siteTables } from './site-tables';

/**
 * A table's row count and checksum, the same on either engine for the same rows: every row's
 * values in column-name order as JSON, hashed (SHA-256), and the hashes added up modulo 2^256.
 * The sum does not depend on the order rows arrive in, so text keys, which the two engines sort
 * differently, need no common collation.
 */
export interface TableSummary {
  rows: number;
  checksum: string;
}

const MODULUS = 1n << 256n;

export class TableDigest {
  private count = 0;
  private sum = 0n;

  constructor(private readonly columns: string[]) {}

  add(row: RawRow): void {
    const values = this.columns.map((column) => normalised(row[column]));
    const hash = createHash('sha256').update(JSON.stringify(values)).digest('hex');
    this.sum = (this.sum + BigInt(`0x${hash}`)) % MODULUS;
    this.count++;
  }

  summary(): TableSummary {
    return { rows: this.count, checksum: this.sum.toString(16).padStart(64, '0') };
  }
}

function normalised(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new Error(`A value of type ${typeof value} cannot be moved (only text and integers are).`);
}

/**
 * A table's rows in primary-key order, `batchSize` at a time (keyset pagination: each batch
 * starts after the last key of the one before, so a large table costs no more per batch).
 */
export async function* tableBatches(
  connection: RawConnection,
  table: SiteTable,
  batchSize: number,
): AsyncGenerator<RawRow[]> {
  const columns = table.columns.map(quoted).join(', ');
  const key = `(${table.primaryKey.map(quoted).join(', ')})`;
  let after: CellValue[] | undefined;
  for (;;) {
    const where = after ? ` where ${key} > (${after.map(() => '?').join(', ')})` : '';
    const rows = await connection.query(
      `select ${columns} from ${quoted(table.name)}${where} order by ${keyOrder(table)} limit ${batchSize}`,
      after ?? [],
    );
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    after = table.primaryKey.map((column) => last[column]);
  }
}

export async function countRows(connection: RawConnection, table: string): Promise<number> {
  const [row] = await connection.query(`select count(*) as rows from ${quoted(table)}`);
  return Number(row.rows);
}

/** The count and checksum of a table as `connection` sees it now (in its transaction). */
export async function summarise(
  connection: RawConnection,
  table: SiteTable,
  batchSize: number,
): Promise<TableSummary> {
  const digest = new TableDigest(table.columns);
  for await (const rows of tableBatches(connection, table, batchSize)) {
    for (const row of rows) digest.add(row);
  }
  return digest.summary();
}

/**
 * Where each table's id sequence stands (the last id handed out), by table: SQLite's
 * sqlite_sequence, PostgreSQL's serial sequences. Kept after a copy so that the ids of deleted
 * rows are not handed out again.
 */
export async function sequencePositions(
  connection: RawConnection,
  tables: SiteTable[],
): Promise<Record<string, number>> {
  const positions: Record<string, number> = {};
  if (connection.dialect === 'sqlite') {
    for (const row of await connection.query('select name, seq from sqlite_sequence')) {
      positions[String(row.name)] = Number(row.seq);
    }
    return positions;
  }
  for (const table of tables) {
    const sequence = await serialSequence(connection, table);
    if (!sequence) continue;
    const [row] = await connection.query(`select last_value, is_called from ${sequence}`);
    positions[table.name] = row.is_called ? Number(row.last_value) : Number(row.last_value) - 1;
  }
  return positions;
}

/** The sequence of a table's one-column integer key on PostgreSQL (`serial`), if it has one. */
async function serialSequence(connection: RawConnection, table: SiteTable): Promise<string | undefined> {
  if (table.primaryKey.length !== 1) return undefined;
  const [row] = await connection.query('select pg_get_serial_sequence(?, ?) as sequence', [
    quoted(table.name),
    table.primaryKey[0],
  ]);
  return row?.sequence ? String(row.sequence) : undefined;
}

/** Sets every id sequence past the highest id and past where the source's stood. */
export async function setSequences(
  connection: RawConnection,
  tables: SiteTable[],
  sourcePositions: Record<string, number>,
): Promise<void> {
  for (const table of tables) {
    if (table.primaryKey.length !== 1) continue;
    const sequence = connection.dialect === 'postgres' ? await serialSequence(connection, table) : undefined;
    if (connection.dialect === 'postgres' && !sequence) continue;
    const [row] = await connection.query(
      `select coalesce(max(${quoted(table.primaryKey[0])}), 0) as top from ${quoted(table.name)}`,
    );
    const position = Math.max(Number(row.top), sourcePositions[table.name] ?? 0);
    if (connection.dialect === 'postgres') {
      // setval(.., 1, false): the next id is 1 (an empty table that never had rows).
      await connection.query(`select setval(?, ?, ?)`, [
        sequence ?? '',
        Math.max(position, 1),
        position > 0 ? 1 : 0,
      ]);
    } else if (sourcePositions[table.name] !== undefined || position > 0) {
      const autoincrement = await connection.query(
        `select 1 as yes from sqlite_master where name = ? and sql like '%autoincrement%'`,
        [table.name],
      );
      if (autoincrement.length === 0) continue;
      await connection.query('delete from sqlite_sequence where name = ?', [table.name]);
      await connection.query('insert into sqlite_sequence (name, seq) values (?, ?)', [table.name, position]);
    }
  }
}

/** Where a site's database is: the PostgreSQL URL, or the SQLite file of its DATA_DIR. */
export interface SiteLocation {
  databaseUrl: string | undefined;
  dataDir: string;
}

/**
 * A consistent snapshot of a live site to read from while its server runs and writes: on SQLite
 * one read transaction (WAL: the server keeps writing, this connection keeps seeing the moment
 * it began); on PostgreSQL one REPEATABLE READ READ ONLY transaction. `release` ends it.
 */
export async function openSnapshot(site: SiteLocation): Promise<RawConnection> {
  const connection = site.databaseUrl
    ? await openPostgres(site.databaseUrl)
    : openSqlite(sqliteFile(site.dataDir), { readonly: true });
  await connection.query(
    connection.dialect === 'postgres' ? 'begin isolation level repeatable read read only' : 'begin',
  );
  // The snapshot is taken at the first read, not at begin: take it now.
  await connection.query('select count(*) as tables from kysely_migration');
  return {
    dialect: connection.dialect,
    query: connection.query,
    async close() {
      await connection.query('rollback').catch(() => undefined);
      await connection.close();
    },
  };
}

export { siteTables };
