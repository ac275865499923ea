// Benchmark: the collaboration server (issue 16).
//   (1) 20 writers x 5 diffs/s on one document, one process, on SQLite and on PostgreSQL, on an
//       idle machine and with a CPU hog on every core: p50 and p99 from an edit to its
//       confirmation, against the same commit done bare in the same run (lock, insert the step
//       row, update the version; no websocket, no step checks), and how many diffs the server
//       rebased and how many it answered 'stale'. Goals (issue 52): p99 <= 50 ms idle, <= 150 ms
//       with the hog, no 'stale'.
//   (2) Two server processes on PostgreSQL + Redis against one, over 20 documents, writers
//       sending as fast as confirmations come back: confirmed diffs per second. Goal >= 1.7x.
// It prints figures and ratios; it asserts no times. PostgreSQL and Redis legs run when
// BENCH_PG_URL (an admin URL, default postgres://postgres@127.0.0.1:5432/postgres) and
// BENCH_REDIS_URL (default redis://127.0.0.1:6379) answer.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import type { Node as PMNode } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import type { Db, Dialect } from '../server/src/db/database';
import { appendSteps, withDocumentLock } from '../server/src/modules/documents/collab/store';
import { createDocument as insertDocument } from '../server/src/modules/documents/commands/create-document';
import { DocumentClient } from '../server/src/ws/document-client';
import {
  processEnv,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
  stopServerProcess,
  temporaryDatabase,
} from '../server/test/processes';
import { insertSharedDocument, shareDocument } from '../server/test/seed';
import { postgresAndRedisReachable } from '../server/test/services';
import { bodyParagraphStart, wsUrlBase } from '../server/test/ws-support';
import { type CpuGroup, processesNamed, startCpuCount, startCpuHog } from './lib/cpu';
import { createBenchUser, loginHeaders, startBenchServer } from './lib/server';
import { againstGoal, percentile } from './lib/stats';

const WRITERS = Number(process.env.BENCH_WRITERS || 20);
const RATE = Number(process.env.BENCH_DIFFS_PER_S || 5);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS || 20);
const PG_ADMIN = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A fresh PostgreSQL database for one leg; dropped afterwards. */
const tempPostgres = () => temporaryDatabase(PG_ADMIN, 'scriptorium_bench');

function initialContent(): PMNode {
  return createDocument(schema, standardArticle, { title: 'Bench' });
}

/** Position inside the body's first paragraph of a client's current document. */
const bodyStart = (client: DocumentClient) => bodyParagraphStart(client.state!.doc);

// ---------------------------------------------------------------------------------------------
// (1) Writers on one document, and the bare commit.

async function bareCommits(db: Db, dialect: Dialect, documentId: number, count: number): Promise<number[]> {
  let doc = createDocument(schema, standardArticle, { title: 'Bench' });
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const step = Step.fromJSON(schema, {
      stepType: 'replace',
      from: 1,
      to: 1,
      slice: { content: [{ type: 'text', text: 'x' }] },
    });
    doc = step.apply(doc).doc!;
    const started = performance.now();
    await withDocumentLock(db, dialect, documentId, (trx) =>
      appendSteps(trx, {
        documentId,
        baseVersion: index,
        steps: [step.toJSON()],
        clientId: 'bare-baseline',
        userId: 1,
        doc,
        snapshot: false,
        now: Date.now(),
      }),
    );
    times.push(performance.now() - started);
  }
  return times;
}

async function writersLeg(engine: 'sqlite' | 'postgres', mode: 'idle' | 'hog'): Promise<void> {
  const postgres = engine === 'postgres' ? await tempPostgres() : null;
  const server = await startBenchServer(`collab-${engine}`, postgres ? { DATABASE_URL: postgres.url } : {});
  try {
    const { db, dialect } = server.ctx;
    const users: { id: number; username: string }[] = [];
    for (let index = 0; index < WRITERS; index++)
      users.push(await createBenchUser(server.ctx, `writer${index}`));
    const insertDoc = async () =>
      (await insertDocument(db, users[0].id, { title: 'Bench', path: '', content: initialContent() })).id;
    const documentId = await insertDoc();
    const bareId = await insertDoc();
    for (const user of users.slice(1)) await shareDocument(db, documentId, { userId: user.id });

    const latencies: number[] = [];
    const clients: DocumentClient[] = [];
    /** Per writer: when each of its unconfirmed edits was made, oldest first. */
    const pendingOf = new Map<DocumentClient, number[]>();
    for (const user of users) {
      const headers = await loginHeaders(server.base, user.username);
      const pending: number[] = [];
      const client = new DocumentClient({
        wsUrlBase: wsUrlBase(server.base),
        documentId,
        headers: { cookie: headers.Cookie, origin: server.base },
        onConfirmed: (steps) => {
          const now = performance.now();
          for (const started of pending.splice(0, steps)) latencies.push(now - started);
        },
      });
      pendingOf.set(client, pending);
      clients.push(client);
    }
    await Promise.all(clients.map((client) => client.open()));

    const hog = mode === 'hog' ? startCpuHog() : null;
    const interval = 1000 / RATE;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client, index) => {
        const pending = pendingOf.get(client)!;
        // Spread the writers over the interval, as people do not type in step.
        await new Promise((resolve) => setTimeout(resolve, (interval * index) / WRITERS));
        for (let tick = 0; tick < SECONDS * RATE; tick++) {
          const due = started + (interval * index) / WRITERS + tick * interval;
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
          pending.push(performance.now());
          client.edit((tr) => tr.insertText(String.fromCharCode(97 + (index % 26)), bodyStart(client)));
        }
        await client.settled();
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const versions = clients.map((client) => client.version);
    const count = (type: string) =>
      clients.reduce((sum, client) => sum + client.messages.filter((m) => m.type === type).length, 0);
    const confirms = count('confirm_diff');
    const stale = clients.reduce(
      (sum, client) =>
        sum + client.messages.filter((m) => m.type === 'reject_diff' && m.reason === 'stale').length,
      0,
    );
    const rebased = clients.reduce(
      (sum, client) =>
        sum + client.messages.filter((m) => m.type === 'confirm_diff' && m.base !== undefined).length,
      0,
    );
    for (const client of clients) client.close();

    // The baseline under the same conditions: the hog stops after it.
    const bare = await bareCommits(db, dialect, bareId, 1000);
    hog?.stop();
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const bareP50 = percentile(bare, 50);
    const bareP99 = percentile(bare, 99);
    const goal = mode === 'hog' ? 150 : 50;
    console.log(
      `(1) ${engine}, ${mode === 'hog' ? `CPU hog on all ${os.cpus().length} cores` : 'idle'}: ${WRITERS} writers x ${RATE} diffs/s for ${SECONDS} s: ${latencies.length} edits confirmed in ${elapsed.toFixed(1)} s` +
        ` (document at version ${Math.max(...versions)})`,
    );
    console.log(
      `    ${confirms} diffs confirmed (${rebased} rebased by the server), ${stale} answered 'stale'${againstGoal(stale, { atMost: 0 })}`,
    );
    console.log(
      `    edit -> confirm_diff  p50 ${ms(p50)}  p99 ${ms(p99)}${againstGoal(p99, { atMost: goal })}`,
    );
    console.log(
      `    bare commit           p50 ${ms(bareP50)}  p99 ${ms(bareP99)}  (1,000 single-step commits)`,
    );
    console.log(
      `    ratio to bare         p50 ${(p50 / bareP50).toFixed(1)}x  p99 ${(p99 / bareP99).toFixed(1)}x`,
    );
  } finally {
    await server.close();
    await postgres?.drop();
  }
}

// ---------------------------------------------------------------------------------------------
// (2) Two processes against one, PostgreSQL + Redis, 20 documents.

interface ProcessesLegResult {
  perSecond: number;
  /** CPU milliseconds per confirmed diff of each part of the system, and the machine's busy share. */
  cpuPerDiff: { label: string; ms: number }[];
  machineBusy: number;
}

async function processesLeg(processCount: number): Promise<ProcessesLegResult> {
  const postgres = await tempPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bench-procs-'));
  const children: ServerProcess[] = [];
  try {
    const users: { id: number; username: string }[] = [];
    const documents: number[] = [];
    await seedDatabase({ databaseUrl: postgres.url, dataDir }, async (db) => {
      for (let index = 0; index < DOCUMENTS * 2; index++)
        users.push(await createBenchUser({ db }, `p${index}`));
      for (let index = 0; index < DOCUMENTS; index++) {
        const id = await insertSharedDocument(
          db,
          users[2 * index].id,
          { userId: users[2 * index + 1].id },
          { title: 'Bench', content: initialContent() },
        );
        documents.push(id);
      }
    });
    const servers = [];
    for (let index = 0; index < processCount; index++) {
      const started = await startServerProcess({
        ...processEnv(dataDir, 'bench', { databaseUrl: postgres.url, redisUrl: REDIS_URL }),
        // Capacity, not a typist: each writer sends as fast as it is confirmed, far past the
        // flood limit meant for editors (50 diffs/s), which would refuse them.
        DOCUMENT_DIFF_RATE: '100000',
      });
      children.push(started);
      servers.push(started.baseUrl);
    }
    // Two writers per document; with two processes half of the documents are served by each (a
    // document's writers share a process, as a balancer keyed on the document would place them).
    const clients: DocumentClient[] = [];
    for (let index = 0; index < users.length; index++) {
      const base = servers[Math.floor(index / 2) % servers.length];
      const headers = await loginHeaders(base, users[index].username);
      clients.push(
        new DocumentClient({
          wsUrlBase: wsUrlBase(base),
          documentId: documents[Math.floor(index / 2)],
          headers: { cookie: headers.Cookie, origin: base },
        }),
      );
    }
    await Promise.all(clients.map((client) => client.open()));
    let confirmed = 0;
    // Where the cores went: the writers live in this process, the servers in their children.
    const groups: CpuGroup[] = [
      { label: 'servers', pids: () => children.flatMap(({ child }) => (child.pid ? [child.pid] : [])) },
      processesNamed('PostgreSQL', 'postgres'),
      processesNamed('Redis', 'redis-server'),
      { label: 'writers (this process)', pids: () => [process.pid] },
    ];
    const cpu = startCpuCount(groups);
    const deadline = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < deadline) {
          client.edit((tr) => tr.insertText('x', bodyStart(client)));
          await client.settled();
          confirmed += 1;
        }
      }),
    );
    const perSecond = confirmed / ((performance.now() - started) / 1000);
    const { byGroup, machineBusy } = cpu.stop();
    for (const client of clients) client.close();
    return {
      perSecond,
      cpuPerDiff: byGroup.map(({ label, ms }) => ({ label, ms: ms / Math.max(1, confirmed) })),
      machineBusy,
    };
  } finally {
    await Promise.all(children.map((child) => stopServerProcess(child)));
    rmSync(dataDir, { recursive: true, force: true });
    await postgres.drop();
  }
}

// ---------------------------------------------------------------------------------------------

const services = await postgresAndRedisReachable(PG_ADMIN, REDIS_URL, 2000);
for (const mode of ['idle', 'hog'] as const) await writersLeg('sqlite', mode);
if (services) {
  for (const mode of ['idle', 'hog'] as const) await writersLeg('postgres', mode);
  const one = await processesLeg(1);
  const two = await processesLeg(2);
  console.log(`(2) PostgreSQL + Redis, ${DOCUMENTS} documents, 2 writers each, as fast as confirmed:`);
  console.log(
    `    one process ${one.perSecond.toFixed(0)} diffs/s, two processes ${two.perSecond.toFixed(0)} diffs/s: ` +
      `${(two.perSecond / one.perSecond).toFixed(2)}x (goal >= 1.7x)`,
  );
  const cores = os.cpus().length;
  for (const [name, leg] of [
    ['one process', one],
    ['two processes', two],
  ] as const) {
    const parts = leg.cpuPerDiff.map(({ label, ms }) => `${label} ${ms.toFixed(3)}`).join(', ');
    console.log(
      `    ${name}: CPU ms per confirmed diff: ${parts}; the machine's ${cores} cores ${(leg.machineBusy * 100).toFixed(0)}% busy`,
    );
  }
  // A server process is one thread: it confirms at most 1 / (its CPU per diff) diffs a second.
  // Two of them reach 1.7x one only if the machine can also run everything else a diff costs
  // (databases, writers) at 1.7 times the rate one process can serve alone.
  const total = one.cpuPerDiff.reduce((sum, part) => sum + part.ms, 0);
  const server = one.cpuPerDiff.find((part) => part.label === 'servers')?.ms ?? Number.NaN;
  console.log(
    `    cores needed for 1.7x at these costs: ${((1.7 * total) / server).toFixed(1)} ` +
      `(1.7 x all CPU per diff / the server's); this machine has ${cores}`,
  );
} else {
  console.log('PostgreSQL or Redis not reachable: legs (1) on PostgreSQL and (2) skipped.');
}
