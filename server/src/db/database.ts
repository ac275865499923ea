import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import type * as PgModule from 'pg';
import type { Config } from '../config';
import type { Database } from './schema';
import { SqliteWriter } from './writer-pool';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

/**
 * The PostgreSQL client, loaded the first time a database on PostgreSQL is made: a server on
 * SQLite never pays for it. Synchronous (pg is CommonJS), as createDatabase is.
 */
function loadPg(): typeof PgModule {
  const pg = createRequire(import.meta.url)('pg') as typeof PgModule;
  // PostgreSQL returns bigint (int8) as text; our bigints are millisecond times, safe as numbers.
  pg.types.setTypeParser(20, (value) => Number(value));
  return pg;
}

/**
 * Every SQLite transaction takes the write lock at BEGIN. A deferred one that reads and then writes
 * fails at once with SQLITE_BUSY, without waiting out busy_timeout, when another process (the
 * manage CLI, the browser specs' seeding) committed in between; IMMEDIATE waits for the lock.
 */
class ImmediateTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const started = sqliteCommitObserver.observe ? performance.now() : 0;
    await connection.executeQuery(CompiledQuery.raw('commit'));
    sqliteCommitObserver.observe?.(performance.now() - started);
  }
}

/** Told how long each COMMIT on a main SQLite connection took (the collaboration timings). */
export const sqliteCommitObserver: { observe?: (ms: number) => void } = {};

/** How many prepared statements a SQLite connection keeps: the app's queries are a few hundred texts. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; preparing (parsing and planning the SQL) was
 * the largest single cost of a small query (4% of the whole process in the configuration bench).
 * The same SQL text gets the same prepared statement back here (better-sqlite3 statements are
 * reusable, and SQLite re-prepares one itself after a schema change). One connection, whose
 * queries Kysely runs one at a time, so a statement is never in use twice at once.
 */
export function withStatementCache(sqlite: SQLite.Database, onWrite?: () => void): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (statement) {
        // Most recently used last: the oldest is the first to go.
        statements.delete(sqlText);
      } else {
        statement = sqlite.prepare(sqlText);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      statements.set(sqlText, statement);
      // Kysely prepares each statement just before it runs it: one that may write (an insert with
      // returning too, which reads) counts as a change here.
      if (!statement.readonly) onWrite?.();
      return statement;
    },
  };
}

export function createDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): {
  db: Db;
  dialect: Dialect;
} {
  if (config.databaseUrl) {
    const pool = new (loadPg().Pool)({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL ends (restart, failover, admin) emits 'error' on the pool;
    // unhandled, that would crash the process. The pool drops the client and opens a new one.
    pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const file = path.join(config.dataDir, 'db.sqlite3');
  const sqlite = new SQLite(file);
  // WAL: readers never block the writer. FULL: a commit is on disk before it returns, so a confirmed
  // edit survives a power loss too (NORMAL may lose the last commits then); about 0.3 ms per commit.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  let writes = 0;
  const cached = withStatementCache(sqlite, () => {
    writes++;
  });
  const writer = new SqliteWriter(file, sqlite, cached);
  const database: SqliteDatabase = {
    prepare: (sqlText) => cached.prepare(sqlText),
    close() {
      writer.close();
      cached.close();
    },
  };
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const db = new Kysely<Database>({
    dialect: new (class extends SqliteDialect {
      override createDriver() {
        return new ImmediateTransactionsDriver({ database });
      }
    })({ database }),
  });
  directReaders.set(db, (sqlText, parameters) => {
    // Inside a transaction of another request the connection is that request's: wait for it.
    if (sqlite.inTransaction) return undefined;
    const statement = database.prepare(sqlText) as unknown as SQLite.Statement;
    return statement.reader && statement.readonly ? (statement.all(parameters) as unknown[]) : undefined;
  });
  changeStamps.set(db, () => `${dataVersion.get()}:${writes}`);
  sqliteWriters.set(db, writer);
  return { db, dialect: 'sqlite' };
}

/** The writer thread of a SQLite database made by createDatabase (writer-pool.ts). */
const sqliteWriters = new WeakMap<Kysely<Database>, SqliteWriter>();

export function sqliteWriter(db: Kysely<Database>): SqliteWriter | undefined {
  return sqliteWriters.get(db);
}

/**
 * A text that changes whenever the SQLite database may have changed: `data_version` moves when
 * another connection (another process, the manage CLI) commits, the counter with every writing
 * statement of this one (counted when it is prepared, so before it runs). Read it before the
 * queries of an answer: an answer kept with its stamp is current while the stamp is the same.
 * Undefined on PostgreSQL (no such cheap stamp: nothing is kept there) and for a transaction.
 */
const changeStamps = new WeakMap<Kysely<Database>, () => string>();

export function changeStamp(db: Kysely<Database>): string | undefined {
  return changeStamps.get(db)?.();
}

/**
 * Runs a read on the SQLite connection at once, without Kysely's connection queue (an await per
 * step: mutex, connection, executor), when no transaction holds the connection; undefined when it
 * does, or for a statement that writes, and the caller goes through Kysely. better-sqlite3 is
 * synchronous, so the read is over before any other request's query can start: the same isolation
 * as the queue gives. Only SQLite instances made by createDatabase are here, never a transaction.
 */
export type DirectReader = (sqlText: string, parameters: readonly unknown[]) => unknown[] | undefined;
const directReaders = new WeakMap<Kysely<Database>, DirectReader>();

export function directReader(db: Kysely<Database>): DirectReader | undefined {
  return directReaders.get(db);
}
