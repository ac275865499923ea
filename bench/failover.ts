// Benchmark: failover (issue 56). Two server processes on PostgreSQL + Redis behind the shipped
// deploy/nginx.conf in Debian's nginx, two co-authors typing through it (one keystroke each per
// 50 ms). Each round takes away the process that serves them: the gap is the time from the kill
// to the next confirmed edit of an editor that had to move (p50 and max over the rounds). Then the
// same with SIGTERM (a deploy: the process sends its editors away at once) instead of kill -9,
// and kill -9 again with a CPU hog on every core. The victim is restarted on its port between
// rounds. Baselines of the same run: a keystroke's confirmation while nothing fails, and the
// connector's reconnect delay (2 s) that a kill -9 must wait out. It asserts nothing. Needs
// PostgreSQL, Redis (BENCH_PG_URL, BENCH_REDIS_URL) and nginx.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { RECONNECT_DELAY_MS } from '@scriptorium/common/ws/timing';
import { DocumentClient } from '../server/src/ws/document-client';
import { loggedInClient } from '../server/test/harness';
import { NGINX, type RunningNginx, startNginx } from '../server/test/nginx';
import {
  freePort,
  processEnv,
  type ServerProcess,
  seedDatabase,
  stopServerProcess,
  temporaryDatabase,
} from '../server/test/processes';
import { seedTwoAuthors } from '../server/test/seed';
import { postgresAndRedisReachable } from '../server/test/services';
import { bodyParagraphStart, cookieHeader, wsUrlBase } from '../server/test/ws-support';
import { startServerProcess } from './lib/compiled-server';
import { startCpuHog } from './lib/cpu';
import { percentiles } from './lib/stats';

const KILL_ROUNDS = Number(process.env.BENCH_FAILOVER_ROUNDS || 10);
const TERM_ROUNDS = Number(process.env.BENCH_FAILOVER_TERM_ROUNDS || 5);
const HOG_ROUNDS = Number(process.env.BENCH_FAILOVER_HOG_ROUNDS || 5);
const PG_ADMIN = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const PASSWORD = 'bench-failover-password';
const TYPING_MS = 50;
/** Typing between rounds, after the restart. */
const BETWEEN_ROUNDS_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Typist {
  client: DocumentClient;
  letter: string;
  typed: number;
  pending: number[];
}

async function main(): Promise<void> {
  const database = await temporaryDatabase(PG_ADMIN, 'scriptorium_bench_failover');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bench-failover-'));
  const processes: ServerProcess[] = [];
  let nginx: RunningNginx | undefined;
  const typists: Typist[] = [];
  let typing = true;
  let typingDone: Promise<unknown> = Promise.resolve();
  try {
    const documentId = await seedDatabase({ databaseUrl: database.url, dataDir }, (db) =>
      seedTwoAuthors(db, PASSWORD, 'Failover'),
    );
    const env = {
      ...processEnv(dataDir, 'bench-failover', { databaseUrl: database.url, redisUrl: REDIS_URL }),
      TRUST_PROXY: '127.0.0.1',
    };
    const ports = [await freePort(), await freePort()];
    for (const port of ports) processes.push(await startServerProcess(env, port));
    nginx = await startNginx([ports[0], ports[1]]);
    const base = nginx.baseUrl;
    const confirmations: number[] = [];
    for (const [username, letter] of [
      ['ada', 'q'],
      ['emmy', 'z'],
    ] as const) {
      const cookie = cookieHeader(await loggedInClient(base, username, PASSWORD));
      const typist: Typist = { letter, typed: 0, pending: [], client: null as unknown as DocumentClient };
      typist.client = new DocumentClient({
        wsUrlBase: wsUrlBase(base),
        documentId,
        headers: { cookie, origin: base },
        onConfirmed: (steps) => {
          const now = performance.now();
          for (const started of typist.pending.splice(0, steps)) confirmations.push(now - started);
        },
      });
      typists.push(typist);
    }
    await Promise.all(typists.map((typist) => typist.client.open()));
    typingDone = Promise.all(
      typists.map(async (typist) => {
        while (typing) {
          typist.pending.push(performance.now());
          typist.client.edit((tr) => tr.insertText(typist.letter, bodyParagraphStart(tr.doc)));
          typist.typed += 1;
          await sleep(TYPING_MS);
        }
      }),
    );
    await sleep(2000);

    // The process serving the editors: the one whose log shows their sockets (nginx placed them).
    const upgrades = processes.map(
      ({ output }) => output.join('').split(`/ws/document/${documentId}/`).length - 1,
    );
    let victim = upgrades[0] >= upgrades[1] ? 0 : 1;

    async function rounds(count: number, signal: NodeJS.Signals): Promise<number[]> {
      const gaps: number[] = [];
      for (let round = 0; round < count; round++) {
        const opened = typists.map(
          (typist) => typist.client.messages.filter((m) => m.type === 'doc_data').length,
        );
        const next = typists.map((typist) =>
          typist.client.next((message) => message.type === 'confirm_diff').then(() => performance.now()),
        );
        const reopened = typists.map((typist) =>
          typist.client.next((message) => message.type === 'doc_data').then(() => performance.now()),
        );
        const stoppedAt = performance.now();
        await stopServerProcess(processes[victim], signal);
        const times = await Promise.all(next);
        if (process.env.BENCH_DEBUG)
          for (const [index, typist] of typists.entries())
            void reopened[index].then((at) =>
              console.log(
                `  ${typist.letter}: doc_data +${(at - stoppedAt).toFixed(0)} confirm +${(times[index] - stoppedAt).toFixed(0)}`,
              ),
            );
        const moved = typists
          .map((typist, index) => ({
            index,
            now: typist.client.messages.filter((m) => m.type === 'doc_data').length,
          }))
          .filter(({ index, now }) => now > opened[index]);
        // Only an editor that had to move: one on the other process never paused.
        if (moved.length > 0) gaps.push(Math.max(...moved.map(({ index }) => times[index] - stoppedAt)));
        processes[victim] = await startServerProcess(env, ports[victim]);
        await sleep(BETWEEN_ROUNDS_MS);
        // Everyone is on the other process now: it goes next.
        victim = 1 - victim;
      }
      return gaps;
    }

    const report = (label: string, gaps: number[], confirmed: number[]) => {
      const gap = percentiles(gaps);
      const confirm = percentiles(confirmed);
      console.log(
        `${label}: gap from the stop to the next confirmed edit over ${gaps.length} rounds: p50 ${gap(50).toFixed(0)} ms, max ${Math.max(...gaps).toFixed(0)} ms`,
      );
      console.log(
        `    baselines: keystroke -> confirm p50 ${confirm(50).toFixed(0)} ms (gap p50 ${(gap(50) / confirm(50)).toFixed(1)}x it); ` +
          `the connector's reconnect delay ${RECONNECT_DELAY_MS} ms (gap p50 ${(gap(50) / RECONNECT_DELAY_MS).toFixed(2)}x it)`,
      );
    };
    confirmations.length = 0;
    const killGaps = await rounds(KILL_ROUNDS, 'SIGKILL');
    report('kill -9, idle machine', killGaps, confirmations.splice(0));
    const termGaps = await rounds(TERM_ROUNDS, 'SIGTERM');
    report('SIGTERM, idle machine', termGaps, confirmations.splice(0));
    const hog = startCpuHog();
    try {
      const hogGaps = await rounds(HOG_ROUNDS, 'SIGKILL');
      report(`kill -9, CPU hog on all ${os.cpus().length} cores`, hogGaps, confirmations.splice(0));
    } finally {
      hog.stop();
    }

    typing = false;
    await typingDone;
    await Promise.all(typists.map((typist) => typist.client.settled()));
    const doc = typists[0].client.state!.doc;
    const text = doc.textBetween(doc.child(0).nodeSize, doc.content.size, '\n');
    const inDocument = typists.map((typist) => text.split(typist.letter).length - 1);
    const whole = typists.every((typist, index) => inDocument[index] === typist.typed);
    console.log(
      `    after ${KILL_ROUNDS + TERM_ROUNDS + HOG_ROUNDS} stops: ${typists.map((t) => t.typed).join(' + ')} keystrokes, ` +
        `each in the document once: ${whole ? 'yes' : `NO (${inDocument.join(' + ')} in the document)`}`,
    );
  } finally {
    typing = false;
    await typingDone;
    for (const typist of typists) typist.client.close();
    await nginx?.stop();
    await Promise.all(processes.map((child) => stopServerProcess(child)));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!NGINX) console.log('nginx is not installed: the failover bench is skipped.');
else if (!(await postgresAndRedisReachable(PG_ADMIN, REDIS_URL, 2000)))
  console.log('PostgreSQL or Redis not reachable: the failover bench is skipped.');
else await main();
