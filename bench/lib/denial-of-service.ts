import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { oneAuthorCitationsDocx } from '@scriptorium/common/import/testing/word';
import { WebSocket } from 'ws';
import { createDocument } from '../../server/src/modules/documents/commands/create-document';
import { processEnv, seedDatabase, stopServerProcess } from '../../server/test/processes';
import { wsUrlBase } from '../../server/test/ws-support';
import { startServerProcess } from './compiled-server';
import { startCpuHog } from './cpu';
import { benchCall, createBenchUser, loginHeaders } from './server';
import { againstGoal, percentiles } from './stats';

/**
 * Issue 50's denial-of-service run: one user ("heavy") runs each heavy path while a second user
 * ("calm") asks for its configuration again and again; the calm user's answer times (p50/p99,
 * goal p99 <= 100 ms) are printed per path beside a baseline of the same run with no heavy load,
 * and the peak resident memory of every process of the server (the server, its Chromium
 * processes; goal: none above 2 GiB). The server is a real process on SQLite, compiled as `npm
 * start` runs it (server/dist/main.js, built from the sources at the start of the run): under tsx
 * each worker's first start takes seconds of CPU, which would be counted in the figures.
 *
 * The calm user's requests are sent and timed by a thread of their own (`CalmTimer`): on this
 * process's event loop they waited behind the bench's own work for the heavy user (200 sockets'
 * handshakes, reading big answers), which the server's figure is not.
 */

const GIB = 1024 ** 3;
const BASELINE_REQUESTS = Number(process.env.BENCH_DOS_BASELINE || 300);
const LATEX_LOOP_MS = Number(process.env.BENCH_DOS_LATEX_MS || 15_000);
const CITATIONS = Number(process.env.BENCH_DOS_CITATIONS || 5_000);
const WORKS = Number(process.env.BENCH_DOS_WORKS || 10_000);

/** The peak resident set of a process and of every process below it, sampled from /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const all = [root];
  for (let index = 0; index < all.length; index++) all.push(...(children.get(all[index]) ?? []));
  return all;
}

function startMemoryWatch(root: number) {
  const peaks = new Map<number, { name: string; bytes: number }>();
  // The tree is read from all of /proc once a second (hundreds of processes on a shared machine:
  // CPU beside the measurement), its processes' peaks every 100 ms (VmHWM keeps the peak between).
  let tree = processTree(root);
  let samples = 0;
  const sample = () => {
    if (samples++ % 10 === 0) tree = processTree(root);
    for (const pid of tree) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        // VmHWM: the process's own peak resident set so far.
        const kib = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        const name = /Name:\s+(.+)/.exec(status)?.[1] ?? '?';
        const before = peaks.get(pid);
        if (!before || kib * 1024 > before.bytes) peaks.set(pid, { name, bytes: kib * 1024 });
      } catch {
        // gone meanwhile
      }
    }
  };
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      samples = 0;
      sample();
      return [...peaks.values()];
    },
  };
}

/** Milliseconds between the starts of the calm user's requests (a request taking longer delays the next). */
const CALM_INTERVAL_MS = Number(process.env.BENCH_DOS_CALM_INTERVAL_MS || 10);

/**
 * The body of the calm user's thread: on 'start' it asks for the configuration again and again,
 * one request every `interval` ms (a user, not a flood: back to back they were 2,000 a second, a
 * load of their own that starved the heavy work), timing each, until it has been told 'stop' and
 * has at least `minimum` answers; then it posts the times.
 */
const CALM_TIMER = `
const { parentPort, workerData } = require('node:worker_threads');
let stopped = false;
parentPort.on('message', async (message) => {
  if (message.type === 'stop') { stopped = true; return; }
  stopped = false;
  const times = [];
  while (times.length < message.minimum || !stopped) {
    const started = performance.now();
    const answer = await fetch(workerData.url, { headers: { cookie: workerData.cookie } });
    await answer.text();
    const took = performance.now() - started;
    times.push(took);
    if (took < workerData.interval)
      await new Promise((resolve) => setTimeout(resolve, workerData.interval - took));
  }
  parentPort.postMessage(times);
});
`;

/** The calm user's requests, sent and timed in a thread of their own (see above). */
class CalmTimer {
  private readonly worker: Worker;

  constructor(url: string, cookie: string) {
    this.worker = new Worker(CALM_TIMER, {
      eval: true,
      workerData: { url, cookie, interval: CALM_INTERVAL_MS },
    });
    this.worker.unref();
  }

  /** Starts timing; `stop()` ends it and answers the times (at least `minimum` of them). */
  start(minimum = 1): { stop(): Promise<number[]> } {
    const times = new Promise<number[]>((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
    });
    this.worker.postMessage({ type: 'start', minimum });
    return {
      stop: () => {
        this.worker.postMessage({ type: 'stop' });
        return times;
      },
    };
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

/** How long the socket path runs (waves of 200 sockets, one after the other), so that the calm user's p99 is of enough requests. */
const SOCKET_FLOOD_MS = Number(process.env.BENCH_DOS_SOCKETS_MS || 10_000);

/**
 * 200 app-wide sockets of one user at once: past WS_MAX_SOCKETS_PER_USER (50) they are closed
 * with 1008 before any frame is read; the others get their welcome. Each socket is counted by
 * what the server answered (a fixed wait counted a refusal that came late under load as held),
 * and all are held until every one is answered. Answers how many were admitted and refused.
 */
async function socketFlood(base: string, heavy: { Cookie: string }): Promise<string> {
  const url = `${wsUrlBase(base)}/base/`;
  const outcomes = await Promise.all(
    Array.from(
      { length: 200 },
      () =>
        new Promise<{ socket: WebSocket; outcome: 'admitted' | 'refused' | 'closed' | 'unanswered' }>(
          (resolve) => {
            const socket = new WebSocket(url, { headers: { cookie: heavy.Cookie, origin: base } });
            const unanswered = setTimeout(() => resolve({ socket, outcome: 'unanswered' }), 120_000);
            const answered = (outcome: 'admitted' | 'refused' | 'closed') => {
              clearTimeout(unanswered);
              resolve({ socket, outcome });
            };
            socket.on('message', (data) => {
              if ((JSON.parse(String(data)) as { type?: string }).type === 'welcome') answered('admitted');
            });
            socket.on('close', (code) => answered(code === 1008 ? 'refused' : 'closed'));
            socket.on('error', () => undefined);
          },
        ),
    ),
  );
  for (const { socket } of outcomes) socket.close();
  const count = (outcome: string) => outcomes.filter((entry) => entry.outcome === outcome).length;
  return `${count('admitted')} admitted, ${count('refused')} refused (1008), ${count('closed')} closed otherwise, ${count('unanswered')} unanswered`;
}

/** Waves of socketFlood for SOCKET_FLOOD_MS (at least one); answers the outcome of each kind of wave. */
async function socketFloods(base: string, heavy: { Cookie: string }): Promise<string> {
  const until = performance.now() + SOCKET_FLOOD_MS;
  const waves = new Map<string, number>();
  do {
    const outcome = await socketFlood(base, heavy);
    waves.set(outcome, (waves.get(outcome) ?? 0) + 1);
  } while (performance.now() < until);
  return [...waves].map(([outcome, count]) => `${count} waves of ${outcome}`).join('; ');
}

async function runOnce(mode: 'idle' | 'hog', niceness: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bench-dos-'));
  const paper = fixturePaper(
    { sections: 10, equations: 0, citations: CITATIONS, figures: 0, paragraphs: 10 },
    'Many citations',
  );
  const small = fixturePaper(undefined, 'Small paper');
  const ids = await seedDatabase({ databaseUrl: undefined, dataDir }, async (db) => {
    const heavy = await createBenchUser({ db }, 'heavy');
    await createBenchUser({ db }, 'calm');
    const others = [];
    for (let index = 0; index < 8; index++) others.push(await createBenchUser({ db }, `printer${index}`));
    const cited = await createDocument(db, heavy.id, {
      title: 'Many citations',
      path: '',
      content: paper.doc,
    });
    const smallPaper = await createDocument(db, heavy.id, {
      title: 'Small paper',
      path: '',
      content: small.doc,
    });
    const othersPapers = [];
    for (const other of others)
      othersPapers.push(
        (
          await createDocument(db, other.id, {
            title: 'Small paper',
            path: '',
            content: small.doc,
          })
        ).id,
      );
    return { cited: cited.id, small: smallPaper.id, othersPapers };
  });
  const env = {
    ...processEnv(dataDir, 'bench-dos'),
    HEAVY_WORK_NICENESS: String(niceness),
    ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
  };
  // BENCH_PORT: where the server listens (else a free port).
  const port = Number(process.env.BENCH_PORT) || undefined;
  const server = await startServerProcess(env, port);
  const base = server.baseUrl;
  const heavy = await loginHeaders(base, 'heavy');
  const calm = await loginHeaders(base, 'calm');
  const printers = await Promise.all(
    Array.from({ length: 8 }, (_, index) => loginHeaders(base, `printer${index}`)),
  );

  const calmTimer = new CalmTimer(`${base}${baseApi.configuration.path}`, calm.Cookie);
  /** The calm user's configuration answers, one after the other, while `running` runs and at least `minimum`. */
  async function calmTimes(running: () => Promise<unknown>, minimum = 1): Promise<number[]> {
    const timing = calmTimer.start(minimum);
    await running();
    return timing.stop();
  }

  /** Runs `work` while timing the calm user; prints the heavy answer statuses and the calm times. */
  async function during(label: string, work: () => Promise<string>): Promise<number[]> {
    const started = performance.now();
    let outcome: Promise<string> = Promise.resolve('');
    const times = await calmTimes(() => {
      outcome = work().catch((error: unknown) => `failed: ${String(error)}`);
      return outcome;
    });
    const pct = percentiles(times);
    console.log(
      `  ${label}: ${await outcome} in ${((performance.now() - started) / 1000).toFixed(1)} s; calm user p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms (${times.length} requests)${againstGoal(pct(99), { atMost: 100 })}`,
    );
    return times;
  }

  const exportAs = (who: { Cookie: string }, id: number, format: string) =>
    benchCall(base, documentsApi.export, { id: String(id), format }, { Cookie: who.Cookie }).then(
      async (answer) => {
        await answer.arrayBuffer();
        return answer.status;
      },
    );
  const counted = (statuses: number[]) =>
    [...new Set(statuses)]
      .sort()
      .map((status) => `${statuses.filter((s) => s === status).length}x ${status}`)
      .join(', ');

  const memory = startMemoryWatch(server.child.pid ?? 0);
  const hog = mode === 'hog' ? startCpuHog() : null;
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(
    `\n${mode === 'hog' ? `with a CPU hog on all ${os.cpus().length} cores` : 'idle machine'}, heavy work ${niceness ? `at nice +${niceness}` : 'at the priority of the event loop'} (load average ${load}):`,
  );
  try {
    const baseline = await calmTimes(async () => undefined, BASELINE_REQUESTS);
    const basePct = percentiles(baseline);
    console.log(
      `  baseline, no heavy load: calm user p50 ${basePct(50).toFixed(1)} ms, p99 ${basePct(99).toFixed(1)} ms (${baseline.length} requests)`,
    );
    let all: number[] = [];
    // Made before the timing: the heavy user's client is not the server.
    const bytes = oneAuthorCitationsDocx(WORKS);
    all = all.concat(
      await during(
        `import of one citation of ${WORKS.toLocaleString('en')} works by one author`,
        async () => {
          const answer = await benchCall(
            base,
            importApi.document,
            { path: '', file: new File([new Uint8Array(bytes)], 'many.docx') },
            heavy,
          );
          const body = (await answer.json()) as { entries?: number };
          return `${answer.status} (${(bytes.length / 1024).toFixed(0)} kB, ${body.entries ?? 0} entries)`;
        },
      ),
    );
    all = all.concat(
      await during(`DOCX export of ${CITATIONS.toLocaleString('en')} citations`, async () =>
        String(await exportAs(heavy, ids.cited, 'docx')),
      ),
    );
    all = all.concat(
      await during('8 parallel PDF exports by one user', async () =>
        counted(await Promise.all(Array.from({ length: 8 }, () => exportAs(heavy, ids.small, 'pdf')))),
      ),
    );
    all = all.concat(
      await during('8 PDF exports at once by 8 users', async () =>
        counted(
          await Promise.all(printers.map((who, index) => exportAs(who, ids.othersPapers[index], 'pdf'))),
        ),
      ),
    );
    all = all.concat(
      await during(`4 parallel LaTeX export loops by one user for ${LATEX_LOOP_MS / 1000} s`, async () => {
        const until = performance.now() + LATEX_LOOP_MS;
        const statuses: number[] = [];
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (performance.now() < until) statuses.push(await exportAs(heavy, ids.small, 'latex'));
          }),
        );
        return counted(statuses);
      }),
    );
    all = all.concat(
      await during('200 sockets by one user, again and again', () => socketFloods(base, heavy)),
    );
    const pct = percentiles(all);
    console.log(
      `  all heavy paths: calm user p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms against the baseline's p99 ${basePct(99).toFixed(1)} ms (ratio ${(pct(99) / basePct(99)).toFixed(2)})${againstGoal(pct(99), { atMost: 100 })}`,
    );
  } finally {
    hog?.stop();
    await calmTimer.close();
    const peaks = memory.stop().sort((a, b) => b.bytes - a.bytes);
    const top = peaks[0]?.bytes ?? 0;
    const byName = new Map<string, { count: number; bytes: number }>();
    for (const peak of peaks) {
      const seen = byName.get(peak.name) ?? { count: 0, bytes: 0 };
      byName.set(peak.name, { count: seen.count + 1, bytes: Math.max(seen.bytes, peak.bytes) });
    }
    console.log(
      `  peak resident memory per process: ${[...byName]
        .map(([name, { count, bytes }]) => `${name} (${count}) up to ${(bytes / 1024 ** 2).toFixed(0)} MiB`)
        .join(', ')}; largest ${(top / GIB).toFixed(2)} GiB${againstGoal(top / GIB, { atMost: 2 })}`,
    );
    await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The whole run, idle and then with the CPU hog (BENCH_DOS_MODES=idle or hog for one of them),
 * each with the heavy work (worker threads, the printer's Chromium) at the event loop's priority
 * and below it (HEAVY_WORK_NICENESS 0 and 10; BENCH_DOS_NICENESS to choose).
 */
export async function runDenialOfService(): Promise<void> {
  const nicenesses = (process.env.BENCH_DOS_NICENESS ?? '0,10').split(',').map(Number);
  for (const mode of (process.env.BENCH_DOS_MODES ?? 'idle,hog').split(',') as ('idle' | 'hog')[])
    for (const niceness of nicenesses) await runOnce(mode, niceness);
}
