import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely';
import type { Database } from './schema';

/**
 * SQLite's writer thread for the collaboration commits (issue 52). better-sqlite3 is synchronous:
 * on the main connection a commit's fsync (synchronous=FULL) holds the event loop, and with it
 * every relay and confirmation of the process. Here a transaction is decided on the main thread
 * against a recording executor (`recorder()`): its reads run on the main connection at once and
 * are kept with their answers, its writes are only kept. `commit()` hands both to a worker thread
 * with a connection of its own, which reads the same queries again under the write lock and, when
 * every answer is the same, writes and commits (fsync included) while the main thread goes on.
 * A different answer (someone wrote in between) is a conflict: nothing was written and the caller
 * decides again the ordinary way. Durability is the main connection's: WAL with synchronous=FULL,
 * and the caller answers only after `commit()` resolved.
 */

export interface RecordedRead {
  sql: string;
  parameters: unknown[];
  /** The rows the main connection answered, as JSON. */
  rows: string;
}

export interface RecordedWrite {
  sql: string;
  parameters: unknown[];
}

export interface WriterRequest {
  id: number;
  reads: RecordedRead[];
  writes: RecordedWrite[];
}

export type WriterReply =
  | { id: number; kind: 'committed'; commitMs: number; totalMs: number }
  | { id: number; kind: 'conflict' }
  | { id: number; kind: 'failed'; message: string };

/**
 * The writer thread's body, plain JavaScript (a worker started from TypeScript sources would need
 * the tsx loader, which a worker of a test runner does not get in time): a connection of its own
 * with the main connection's durability (WAL, synchronous=FULL). Each request is one transaction:
 * the reads its writes were decided on are read again under the write lock (a different answer is
 * a conflict: nothing is written), then the writes, then COMMIT, whose fsync holds only this thread.
 */
const WORKER_BODY = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const SQLite = require(workerData.sqlite);
const db = new SQLite(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');
const statements = new Map();
function prepared(sqlText) {
  let statement = statements.get(sqlText);
  if (!statement) {
    statement = db.prepare(sqlText);
    statements.set(sqlText, statement);
  }
  return statement;
}
function transact(request) {
  const started = performance.now();
  db.exec('begin immediate');
  try {
    for (const read of request.reads)
      if (JSON.stringify(prepared(read.sql).all(read.parameters)) !== read.rows) {
        db.exec('rollback');
        return { id: request.id, kind: 'conflict' };
      }
    for (const write of request.writes) prepared(write.sql).run(write.parameters);
    const committing = performance.now();
    db.exec('commit');
    const done = performance.now();
    return { id: request.id, kind: 'committed', commitMs: done - committing, totalMs: done - started };
  } catch (error) {
    if (db.inTransaction) db.exec('rollback');
    throw error;
  }
}
parentPort.on('message', (request) => {
  if (request.close) {
    db.close();
    parentPort.close();
    return;
  }
  let reply;
  try {
    reply = transact(request);
  } catch (error) {
    reply = { id: request.id, kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  parentPort.postMessage(reply);
});
`;

/** A transaction being recorded: a Kysely executor whose reads answer now and whose writes wait. */
export interface Recording {
  db: Kysely<Database>;
  reads: RecordedRead[];
  writes: RecordedWrite[];
  release(): void;
}

function recordingOf(target: () => Recording | null): Recording {
  const recording = target();
  if (!recording) throw new Error('a query on a released recording');
  return recording;
}

const sameValues = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

export class SqliteWriter {
  private worker: Worker | null = null;
  private readonly waiting = new Map<
    number,
    { resolve: (reply: WriterReply) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;

  constructor(
    private readonly file: string,
    private readonly main: SQLite.Database,
    /** The main connection's statement cache (database.ts). */
    private readonly statements: SqliteDatabase,
  ) {}

  /** Whether the main connection is inside a transaction now (its reads would see it uncommitted). */
  mainBusy(): boolean {
    return this.main.inTransaction;
  }

  /** The executor of the recordings, made once (a Kysely instance costs more than a query). */
  private shared: { db: Kysely<Database>; sink: { target: Recording | null } } | null = null;

  /**
   * A fresh recording executor; release() it when done. One recording at a time uses the shared
   * executor; another made meanwhile gets one of its own.
   */
  recorder(): Recording {
    if (!this.shared) {
      const sink = { target: null as Recording | null };
      this.shared = { db: this.recordingExecutor(() => sink.target), sink };
    }
    const shared = this.shared;
    const recording: Recording = { db: shared.db, reads: [], writes: [], release: () => undefined };
    if (shared.sink.target === null) {
      shared.sink.target = recording;
      recording.release = () => {
        if (shared.sink.target === recording) shared.sink.target = null;
      };
    } else recording.db = this.recordingExecutor(() => recording);
    return recording;
  }

  private recordingExecutor(target: () => Recording | null): Kysely<Database> {
    const statements = this.statements;
    const database: SqliteDatabase = {
      close() {},
      prepare(sqlText: string) {
        const statement = statements.prepare(sqlText) as unknown as SQLite.Statement;
        if (statement.reader && !statement.readonly)
          throw new Error('the writer thread takes no writes that return rows');
        return {
          reader: statement.reader,
          all(parameters: readonly unknown[]) {
            const rows = statement.all(...parameters);
            const reads = recordingOf(target).reads;
            const read = { sql: sqlText, parameters: [...parameters], rows: JSON.stringify(rows) };
            // The same read with the same answer is checked once.
            if (
              !reads.some(
                (r) =>
                  r.sql === read.sql && r.rows === read.rows && sameValues(r.parameters, read.parameters),
              )
            )
              reads.push(read);
            return rows;
          },
          run(parameters: readonly unknown[]) {
            recordingOf(target).writes.push({ sql: sqlText, parameters: [...parameters] });
            return { changes: 1, lastInsertRowid: 0 };
          },
          iterate(): IterableIterator<unknown> {
            throw new Error('the recording executor does not stream');
          },
        };
      },
    };
    return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  }

  /** Commits a recording in the writer thread; resolves once it is on disk (or conflicted). */
  commit(recording: Recording): Promise<WriterReply> {
    const worker = this.started();
    const id = this.nextId++;
    const request: WriterRequest = { id, reads: recording.reads, writes: recording.writes };
    return new Promise<WriterReply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // The thread keeps the process alive only while a commit is under way.
      worker.ref();
      worker.postMessage(request);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_BODY, {
      eval: true,
      workerData: { file: this.file, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
    worker.on('message', (reply: WriterReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      waiter?.resolve(reply);
    });
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the SQLite writer thread exited (${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Ends the thread (its connection closes; a transaction not committed is rolled back). */
  close(): void {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    worker.postMessage({ close: true });
  }
}
