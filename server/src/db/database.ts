import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

// PostgreSQL returns bigint (int8) as text; our bigints are millisecond times, safe as numbers.
pg.types.setTypeParser(20, (value) => Number(value));

/**
 * Every SQLite transaction takes the write lock at BEGIN. A deferred one that reads and then writes
 * fails at once with SQLITE_BUSY, without waiting out busy_timeout, when another process (the
 * manage CLI, the browser specs' seeding) committed in between; IMMEDIATE waits for the lock.
 */
class ImmediateTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export function createDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): {
  db: Db;
  dialect: Dialect;
} {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL ends (restart, failover, admin) emits 'error' on the pool;
    // unhandled, that would crash the process. The pool drops the client and opens a new one.
    pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const sqlite = new SQLite(path.join(config.dataDir, 'db.sqlite3'));
  // WAL: readers never block the writer. FULL: a commit is on disk before it returns, so a confirmed
  // edit survives a power loss too (NORMAL may lose the last commits then); about 0.3 ms per commit.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<Database>({
      dialect: new (class extends SqliteDialect {
        override createDriver() {
          return new ImmediateTransactionsDriver({ database: sqlite });
        }
      })({ database: sqlite }),
    }),
    dialect: 'sqlite',
  };
}
