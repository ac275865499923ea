// Benchmark: the capacity of one document (issue 56). 50 editors type into one document and 100
// viewers (read right) watch it, spread over two server processes on PostgreSQL + Redis; every
// viewer must get every step. Prints the relay time from an editor's keystroke to each viewer's
// receipt of that step (p50, p99; goal p99 <= 200 ms), against the baseline of the same run: the
// editors' own keystroke -> confirmation time. Once on an idle machine, once with a CPU hog on
// every core. It asserts nothing. Needs PostgreSQL and Redis (BENCH_PG_URL, BENCH_REDIS_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { WebSocketConnector } from '@scriptorium/common/ws/connector';
import {
  DOCUMENT_SERVER_APP_SCHEMAS,
  type DocumentServerMessage,
  documentSocketPath,
} from '@scriptorium/common/ws/document-messages';
import { DocumentClient } from '../server/src/ws/document-client';
import { nodeSocketFactory } from '../server/src/ws/node-socket';
import {
  processEnv,
  type ServerProcess,
  seedDatabase,
  stopServerProcess,
  temporaryDatabase,
} from '../server/test/processes';
import { insertSharedDocument, shareDocument } from '../server/test/seed';
import { postgresAndRedisReachable } from '../server/test/services';
import { bodyParagraphStart, wsUrlBase } from '../server/test/ws-support';
import { startServerProcess } from './lib/compiled-server';
import { startCpuHog } from './lib/cpu';
import { createBenchUser, loginHeaders } from './lib/server';
import { againstGoal, percentiles } from './lib/stats';

const EDITORS = Number(process.env.BENCH_EDITORS || 50);
const VIEWERS = Number(process.env.BENCH_VIEWERS || 100);
/** Viewers are tabs of this many users (one login each). */
const VIEWER_USERS = 10;
/** Keystrokes a second of each editor (one diff each when confirmations keep up). */
const RATE = Number(process.env.BENCH_KEYS_PER_S || 2);
const SECONDS = Number(process.env.BENCH_SECONDS || 15);
const PG_ADMIN = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';

const ms = (value: number) => `${value.toFixed(0)} ms`;

interface Editor {
  client: DocumentClient;
  /** When each of its keystrokes was made, in order: the k-th step of its session is the k-th. */
  typedAt: number[];
  /** When each unconfirmed keystroke was made, oldest first. */
  pending: number[];
}

/** A viewer: the connector alone (no editor state), noting when each step reaches it. */
class Viewer {
  readonly connector: WebSocketConnector;
  version = -1;
  /** Steps received per session id. */
  readonly seen = new Map<string, number>();
  missed = 0;
  private opened!: () => void;
  readonly ready = new Promise<void>((resolve) => {
    this.opened = resolve;
  });

  constructor(
    base: string,
    cookie: string,
    documentId: number,
    onStep: (cid: string, index: number) => void,
  ) {
    this.connector = new WebSocketConnector({
      wsUrlBase: wsUrlBase(base),
      path: documentSocketPath(documentId),
      createSocket: nodeSocketFactory({ cookie, origin: base }),
      serverMessages: DOCUMENT_SERVER_APP_SCHEMAS,
      isOnline: () => true,
      events: new EventTarget(),
      onMessage: (frame) => {
        const message = frame as unknown as DocumentServerMessage;
        if (message.type === 'doc_data') {
          this.version = message.doc.v;
          this.opened();
        } else if (message.type === 'diff' && this.version >= 0) {
          if (message.v > this.version) this.missed += message.v - this.version;
          for (let index = 0; index < message.ds.length; index++) {
            const version = message.v + index + 1;
            if (version <= this.version) continue;
            this.version = version;
            const cid = message.cids[index];
            const count = this.seen.get(cid) ?? 0;
            this.seen.set(cid, count + 1);
            onStep(cid, count);
          }
        }
      },
    });
  }
}

interface Deployment {
  processes: ServerProcess[];
  editors: Editor[];
  viewers: Viewer[];
  /** Keystroke -> viewer receipt, ms, of the leg running now. */
  relays: number[];
  close(): Promise<void>;
}

async function deploy(): Promise<Deployment> {
  const postgres = await temporaryDatabase(PG_ADMIN, 'scriptorium_bench_capacity');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bench-capacity-'));
  const processes: ServerProcess[] = [];
  const close = async () => {
    await Promise.all(processes.map((child) => stopServerProcess(child)));
    rmSync(dataDir, { recursive: true, force: true });
    await postgres.drop();
  };
  try {
    const editorNames = Array.from({ length: EDITORS }, (_, index) => `editor${index}`);
    const viewerNames = Array.from({ length: VIEWER_USERS }, (_, index) => `viewer${index}`);
    const documentId = await seedDatabase({ databaseUrl: postgres.url, dataDir }, async (db) => {
      const editorIds = [];
      for (const name of editorNames) editorIds.push((await createBenchUser({ db }, name)).id);
      const id = await insertSharedDocument(
        db,
        editorIds[0],
        { userId: editorIds[1] },
        { title: 'Capacity' },
      );
      for (const userId of editorIds.slice(2)) await shareDocument(db, id, { userId });
      for (const name of viewerNames)
        await shareDocument(db, id, { userId: (await createBenchUser({ db }, name)).id }, 'read');
      return id;
    });
    const env = {
      ...processEnv(dataDir, 'bench', { databaseUrl: postgres.url, redisUrl: REDIS_URL }),
      WS_MAX_SOCKETS_PER_USER: '200',
    };
    processes.push(await startServerProcess(env), await startServerProcess(env));
    const bases = processes.map((child) => child.baseUrl);
    const deployment: Deployment = { processes, editors: [], viewers: [], relays: [], close };
    const bySession = new Map<string, Editor>();
    for (const [index, name] of editorNames.entries()) {
      const base = bases[index % 2];
      const headers = await loginHeaders(base, name);
      const editor: Editor = { typedAt: [], pending: [], client: null as unknown as DocumentClient };
      editor.client = new DocumentClient({
        wsUrlBase: wsUrlBase(base),
        documentId,
        headers: { cookie: headers.Cookie, origin: base },
        onConfirmed: (steps) => {
          const now = performance.now();
          for (const started of editor.pending.splice(0, steps)) confirmations.push(now - started);
        },
      });
      deployment.editors.push(editor);
    }
    for (const [index, name] of viewerNames.entries()) {
      const base = bases[index % 2];
      const headers = await loginHeaders(base, name);
      for (let tab = 0; tab < VIEWERS / VIEWER_USERS; tab++) {
        // Alternate processes by tab too: each user watches through both.
        const tabBase = bases[(index + tab) % 2];
        deployment.viewers.push(
          new Viewer(tabBase, headers.Cookie, documentId, (cid, count) => {
            const typedAt = bySession.get(cid)?.typedAt[count];
            if (typedAt !== undefined) deployment.relays.push(performance.now() - typedAt);
          }),
        );
      }
    }
    const data = await Promise.all(deployment.editors.map((editor) => editor.client.open()));
    for (const [index, message] of data.entries())
      bySession.set(message.session_id, deployment.editors[index]);
    for (const viewer of deployment.viewers) viewer.connector.open();
    await Promise.all(deployment.viewers.map((viewer) => viewer.ready));
    return deployment;
  } catch (error) {
    await close();
    throw error;
  }
}

/** Keystroke -> own confirmation, ms, of the leg running now. */
let confirmations: number[] = [];

async function leg(deployment: Deployment, label: string): Promise<void> {
  confirmations = [];
  deployment.relays.length = 0;
  const missedBefore = deployment.viewers.reduce((sum, viewer) => sum + viewer.missed, 0);
  const interval = 1000 / RATE;
  const started = performance.now();
  let typed = 0;
  await Promise.all(
    deployment.editors.map(async (editor, index) => {
      const offset = (interval * index) / deployment.editors.length;
      for (let tick = 0; tick < SECONDS * RATE; tick++) {
        const due = started + offset + tick * interval;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        const now = performance.now();
        editor.typedAt.push(now);
        editor.pending.push(now);
        editor.client.edit((tr) => tr.insertText('x', bodyParagraphStart(tr.doc)));
        typed += 1;
      }
      await editor.client.settled();
    }),
  );
  // Every viewer has every step (or the leg says how many it missed).
  const target = Math.max(...deployment.editors.map((editor) => editor.client.version));
  const deadline = performance.now() + 30_000;
  while (deployment.viewers.some((viewer) => viewer.version < target) && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const elapsed = (performance.now() - started) / 1000;
  const behind = deployment.viewers.filter((viewer) => viewer.version < target).length;
  const missed = deployment.viewers.reduce((sum, viewer) => sum + viewer.missed, 0) - missedBefore;
  const relay = percentiles(deployment.relays);
  const confirm = percentiles(confirmations);
  console.log(
    `${label}: ${deployment.editors.length} editors x ${RATE} keys/s for ${SECONDS} s (${typed} keystrokes, document at version ${target}), ` +
      `${deployment.viewers.length} viewers, 2 processes, in ${elapsed.toFixed(1)} s; load ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    `    relay keystroke -> viewer  p50 ${ms(relay(50))}  p99 ${ms(relay(99))}${againstGoal(relay(99), { atMost: 200 })}` +
      `  (${deployment.relays.length.toLocaleString('en')} deliveries; ${missed} steps missed, ${behind} viewers behind at the end)`,
  );
  console.log(`    keystroke -> own confirm   p50 ${ms(confirm(50))}  p99 ${ms(confirm(99))}  (baseline)`);
  console.log(
    `    ratio relay / confirm      p50 ${(relay(50) / confirm(50)).toFixed(2)}x  p99 ${(relay(99) / confirm(99)).toFixed(2)}x`,
  );
}

if (!(await postgresAndRedisReachable(PG_ADMIN, REDIS_URL, 2000))) {
  console.log('PostgreSQL or Redis not reachable: the capacity bench is skipped.');
} else {
  const deployment = await deploy();
  try {
    await leg(deployment, 'Idle machine');
    const hog = startCpuHog();
    try {
      await leg(deployment, `CPU hog on all ${os.cpus().length} cores`);
    } finally {
      hog.stop();
    }
  } finally {
    for (const editor of deployment.editors) editor.client.close();
    for (const viewer of deployment.viewers) viewer.connector.close();
    await deployment.close();
  }
}
