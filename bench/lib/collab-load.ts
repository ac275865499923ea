import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { WebSocketConnector } from '@scriptorium/common/ws/connector';
import {
  DOCUMENT_SERVER_APP_SCHEMAS,
  type DocumentServerMessage,
  documentSocketPath,
  type StepJson,
} from '@scriptorium/common/ws/document-messages';
import { createDatabase } from '../../server/src/db/database';
import { currentDocument } from '../../server/src/modules/documents/collab/store';
import type { TimingsLine } from '../../server/src/modules/documents/collab/timings';
import { createDocument as insertDocument } from '../../server/src/modules/documents/commands/create-document';
import { nodeSocketFactory } from '../../server/src/ws/node-socket';
import {
  processEnv,
  type ServerProcess,
  seedDatabase,
  stopServerProcess,
  temporaryDatabase,
} from '../../server/test/processes';
import { bodyParagraphStart, wsUrlBase } from '../../server/test/ws-support';
import { startServerProcess } from './compiled-server';
import { createBenchUser, loginHeaders } from './server';

/**
 * The co-editing load of issue 52: a server process (SQLite, or PostgreSQL + Redis) with documents,
 * and light writers in this process. A writer is the browser's connector on the document socket
 * without an editor state: each keystroke inserts a marker of its own ("w12k34.") at the start of
 * the body's first paragraph (a place no insertion moves), one diff in flight and the keys typed
 * meanwhile in the next, always asking the server to rebase, as the editor does. Markers tell
 * when each keystroke was confirmed and reached each other writer, and which survived a crash.
 */

export type Engine = 'sqlite' | 'postgres';

export interface LoadServer {
  child: ServerProcess;
  /** Where its database is (to read it, or to time bare commits beside it). */
  where: { databaseUrl: string | undefined; dataDir: string };
  /** A document nobody writes (the bare commits' baseline). */
  spare: number;
  env: Record<string, string>;
  documents: number[];
  /** The Cookie header of the user that writes each document (one user, many sockets). */
  cookies: string[];
  /** The markers in each document's stored content now (read as a restarted server would). */
  storedMarkers(): Promise<Set<string>>;
  /** Kills the server (-9) and starts it again on the same port and data. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startLoadServer(
  engine: Engine,
  documentCount: number,
  options: { pgAdmin: string; redisUrl: string; env?: Record<string, string> },
): Promise<LoadServer> {
  const postgres =
    engine === 'postgres' ? await temporaryDatabase(options.pgAdmin, 'scriptorium_bench_load') : null;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bench-load-'));
  const where = { databaseUrl: postgres?.url, dataDir };
  const users: { id: number; username: string }[] = [];
  const documents: number[] = [];
  let spare = 0;
  await seedDatabase(where, async (db) => {
    for (let index = 0; index < documentCount; index++) {
      const user = await createBenchUser({ db }, `load${index}`);
      users.push(user);
      const content = createDocument(schema, standardArticle, { title: 'Load' });
      documents.push((await insertDocument(db, user.id, { title: 'Load', path: '', content })).id);
    }
    const content = createDocument(schema, standardArticle, { title: 'Spare' });
    spare = (await insertDocument(db, users[0].id, { title: 'Spare', path: '', content })).id;
  });
  const env = {
    ...processEnv(
      dataDir,
      'bench-load',
      postgres ? { databaseUrl: postgres.url, redisUrl: options.redisUrl } : undefined,
    ),
    WS_MAX_SOCKETS_PER_USER: '2000',
    WS_MAX_SOCKETS_PER_ADDRESS: '5000',
    ...options.env,
  };
  let child = await startServerProcess(env);
  const cookies: string[] = [];
  for (const user of users) cookies.push((await loginHeaders(child.baseUrl, user.username)).Cookie);
  return {
    get child() {
      return child;
    },
    where,
    spare,
    env,
    documents,
    cookies,
    async storedMarkers() {
      const reader = createDatabase(where);
      try {
        const found = new Set<string>();
        for (const id of documents) {
          const current = await currentDocument(reader.db, id);
          for (const match of current?.doc.textContent.matchAll(/w\d+k\d+\./g) ?? []) found.add(match[0]);
        }
        return found;
      } finally {
        await reader.db.destroy();
      }
    },
    async restart() {
      await stopServerProcess(child, 'SIGKILL');
      child = await startServerProcess(env, child.port);
    },
    async close() {
      await stopServerProcess(child);
      rmSync(dataDir, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}

/** Figures of a run, shared by its writers. */
export class LoadFigures {
  /** Keystroke -> its confirmation, ms. */
  readonly confirms: number[] = [];
  /** Keystroke -> its arrival at another writer of the document, ms. */
  readonly arrivals: number[] = [];
  readonly rejects = new Map<string, number>();
  /** When each marker was typed. */
  readonly typedAt = new Map<string, number>();
  /** Markers whose confirmation arrived. */
  readonly confirmed = new Set<string>();

  reset(): void {
    this.confirms.length = 0;
    this.arrivals.length = 0;
    this.rejects.clear();
  }
}

let writerCount = 0;

export class LightWriter {
  readonly connector: WebSocketConnector;
  readonly name = `w${writerCount++}`;
  private keys = 0;
  private version = -1;
  private at = -1;
  private buffer: string[] = [];
  private inFlight: { rid: number; markers: string[] } | null = null;
  private nextRid = 1;
  private opened!: () => void;
  readonly ready = new Promise<void>((resolve) => {
    this.opened = resolve;
  });

  constructor(
    base: string,
    cookie: string,
    documentId: number,
    private readonly figures: LoadFigures,
  ) {
    this.connector = new WebSocketConnector({
      wsUrlBase: wsUrlBase(base),
      path: documentSocketPath(documentId),
      createSocket: nodeSocketFactory({ cookie, origin: base }),
      serverMessages: DOCUMENT_SERVER_APP_SCHEMAS,
      isOnline: () => true,
      events: new EventTarget(),
      onMessage: (frame) => this.receive(frame as unknown as DocumentServerMessage),
    });
  }

  open(): Promise<void> {
    this.connector.open();
    return this.ready;
  }

  close(): void {
    this.connector.close();
  }

  /** Nothing typed waits for its confirmation. */
  get idle(): boolean {
    return this.inFlight === null && this.buffer.length === 0;
  }

  type(): void {
    const marker = `${this.name}k${this.keys++}.`;
    this.figures.typedAt.set(marker, performance.now());
    this.buffer.push(marker);
    this.flush();
  }

  private flush(): void {
    if (this.inFlight || this.buffer.length === 0 || this.at < 0) return;
    const markers = this.buffer.splice(0);
    const rid = this.nextRid++;
    this.inFlight = { rid, markers };
    const ds = markers.map(
      (text) =>
        ({
          stepType: 'replace',
          from: this.at,
          to: this.at,
          slice: { content: [{ type: 'text', text }] },
        }) as StepJson,
    );
    this.connector.send({ type: 'diff', v: this.version, rid, ds, rebase: true });
  }

  private receive(message: DocumentServerMessage): void {
    const now = performance.now();
    if (message.type === 'doc_data') {
      this.version = message.doc.v;
      this.at = bodyParagraphStart(schema.nodeFromJSON(message.doc.content));
      // After a new server session what was in flight is sent again (the server rebases it).
      if (this.inFlight) this.buffer.unshift(...this.inFlight.markers);
      this.inFlight = null;
      this.opened();
      this.flush();
    } else if (message.type === 'diff') {
      this.version = Math.max(this.version, message.v + message.ds.length);
      for (const step of message.ds) {
        const text = (step as { slice?: { content?: { text?: string }[] } }).slice?.content?.[0]?.text;
        const typed = text === undefined ? undefined : this.figures.typedAt.get(text);
        if (typed !== undefined && !text?.startsWith(`${this.name}k`))
          this.figures.arrivals.push(now - typed);
      }
    } else if (message.type === 'confirm_diff' && message.rid === this.inFlight?.rid) {
      this.version = Math.max(this.version, message.v);
      for (const marker of this.inFlight.markers) {
        this.figures.confirmed.add(marker);
        this.figures.confirms.push(now - (this.figures.typedAt.get(marker) ?? now));
      }
      this.inFlight = null;
      this.flush();
    } else if (message.type === 'reject_diff' && message.rid === this.inFlight?.rid) {
      this.figures.rejects.set(message.reason, (this.figures.rejects.get(message.reason) ?? 0) + 1);
      // Stale (the server could not rebase): the missing steps came first; send again.
      if (message.reason === 'stale') this.buffer.unshift(...this.inFlight.markers);
      this.inFlight = null;
      this.flush();
    }
  }
}

/** Opens `count` writers spread over the server's documents (writer i on document i mod n). */
export async function openWriters(
  server: LoadServer,
  count: number,
  figures: LoadFigures,
): Promise<LightWriter[]> {
  const writers: LightWriter[] = [];
  for (let index = 0; index < count; index++) {
    const doc = index % server.documents.length;
    writers.push(new LightWriter(server.child.baseUrl, server.cookies[doc], server.documents[doc], figures));
  }
  // In batches: hundreds of sockets opening at once is a test of its own.
  for (let start = 0; start < writers.length; start += 50)
    await Promise.all(writers.slice(start, start + 50).map((writer) => writer.open()));
  return writers;
}

/**
 * Every writer types `rate` keys a second for `seconds`, spread over the interval as people do
 * not type in step; resolves once every key is answered (or 30 s later). `stopAt`: a moment
 * (ms after the start) at which typing stops early (the crash legs).
 */
export async function typeFor(
  writers: LightWriter[],
  rate: number,
  seconds: number,
  stopAt = Number.POSITIVE_INFINITY,
): Promise<number> {
  const interval = 1000 / rate;
  const started = performance.now();
  let typed = 0;
  await Promise.all(
    writers.map(async (writer, index) => {
      const offset = (interval * index) / writers.length;
      for (let tick = 0; tick < seconds * rate; tick++) {
        const due = started + offset + tick * interval;
        if (due - started > stopAt) break;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        writer.type();
        typed += 1;
      }
    }),
  );
  if (stopAt === Number.POSITIVE_INFINITY) {
    const deadline = performance.now() + 30_000;
    while (writers.some((writer) => !writer.idle) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return typed;
}

/**
 * The server's collaboration timings since the last call (the server runs with COLLAB_TIMINGS=1,
 * server/src/modules/documents/collab/timings.ts): SIGUSR2 makes it print them and start again.
 */
export async function serverTimings(server: LoadServer): Promise<TimingsLine | undefined> {
  const lines = () => [...(server.child.output ?? []).join('').matchAll(/^collab-timings (.*)$/gm)];
  const before = lines().length;
  server.child.child.kill('SIGUSR2');
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    const found = lines();
    if (found.length > before) return JSON.parse(found[found.length - 1][1]) as TimingsLine;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/** One line of the timings, as the benchmarks print it. */
export function timingsText(line: TimingsLine | undefined): string {
  if (!line) return 'no timings';
  const f = (value: number) => value.toFixed(1);
  const writers = Object.entries(line.writer)
    .map(([where, count]) => `${count} ${where}`)
    .join(', ');
  return (
    `event-loop delay p50 ${f(line.loop.p50)} p99 ${f(line.loop.p99)} max ${f(line.loop.max)} ms; ` +
    `${line.groups} transactions (${writers}) for ${line.diffs} diffs, each p50 ${f(line.transaction.p50)} p99 ${f(line.transaction.p99)} ms; ` +
    `COMMIT (fsync) p50 ${f(line.commit.p50)} p99 ${f(line.commit.p99)} ms, ${f(line.commit.sum)} ms in all; ` +
    `main thread held by transactions ${(line.blockedShare * 100).toFixed(1)}% of the time`
  );
}
