import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Dialect } from '../database';

/** A value of one of our columns as either engine hands it over (no blobs or floats in the schema). */
// As createDatabase: PostgreSQL's bigint (our millisecond times) as a number, not text, so that
// a row reads the same from either engine.
pg.types.setTypeParser(20, (value) => Number(value));

export type CellValue = string | number | null;
export type RawRow = Record<string, CellValue>;

/**
 * One plain connection for moving a whole site (migrate, backup, restore): SQL with `?`
 * placeholders on both engines (turned into $1, $2 for PostgreSQL), rows as plain objects.
 * Kysely is not used here: the tables are known only at run time.
 */
export interface RawConnection {
  dialect: Dialect;
  query(sqlText: string, parameters?: readonly CellValue[]): Promise<RawRow[]>;
  close(): Promise<void>;
}

/** An identifier quoted for either engine ("documents"). */
export function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function numbered(sqlText: string): string {
  let index = 0;
  return sqlText.replace(/\?/g, () => `$${++index}`);
}

export async function openPostgres(url: string): Promise<RawConnection> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A server that ends the connection (kill, restart) must fail the command, not crash the process.
  client.on('error', () => undefined);
  await client.connect();
  return {
    dialect: 'postgres',
    async query(sqlText, parameters = []) {
      const result = await client.query(numbered(sqlText), parameters as CellValue[]);
      return result.rows as RawRow[];
    },
    close: () => client.end(),
  };
}

export function openSqlite(file: string, options: { readonly?: boolean } = {}): RawConnection {
  const sqlite = new SQLite(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
  });
  sqlite.pragma('busy_timeout = 5000');
  if (!options.readonly) sqlite.pragma('foreign_keys = ON');
  return {
    dialect: 'sqlite',
    async query(sqlText, parameters = []) {
      const statement = sqlite.prepare(sqlText);
      if (statement.reader) return statement.all(...parameters) as RawRow[];
      statement.run(...parameters);
      return [];
    },
    async close() {
      sqlite.close();
    },
  };
}

/** The SQLite file of a DATA_DIR (as createDatabase opens it). */
export function sqliteFile(dataDir: string): string {
  return path.join(dataDir, 'db.sqlite3');
}

/** A database URL without its password, for messages. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
