// Benchmark: the live connection. One Scriptorium server process (in-memory fan-out) takes as many
// authenticated sockets as we open (goal 2,000); we report memory per socket (server RSS growth),
// ping round trips (p50, p99) and the time for a system message to reach every socket. A bare
// `ws` echo server, measured in the same run with the same clients, is the baseline. It prints
// figures and ratios; it asserts no times.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { staffApi } from '@scriptorium/common/api/endpoints/staff';
import { WebSocket, WebSocketServer } from 'ws';
import { createUser } from '../server/src/modules/user/commands/create-user';
import { stopServerProcess } from '../server/test/processes';
import { baseSocketUrl } from '../server/test/ws-support';
import { BENCH_PASSWORD, benchCall, createBenchUser, loginHeaders, startBenchServer } from './lib/server';

const SOCKETS = Number(process.env.BENCH_SOCKETS || 2000);
const USERS = Number(process.env.BENCH_USERS || 40);
const PINGS = Number(process.env.BENCH_PINGS || 1000);
const BROADCASTS = Number(process.env.BENCH_BROADCASTS || 5);
const OPEN_BATCH = 100;

// ---------------------------------------------------------------------------------------------

interface Target {
  name: string;
  child: ChildProcess;
  base: string;
  wsUrl: string;
  /** Headers per socket index (session cookies), or none. */
  headers(index: number): Record<string, string>;
  /** Sends a system message to every socket. */
  broadcast(): Promise<void>;
  /** Whether this server speaks our protocol (handshake, counters) or just echoes. */
  protocol: boolean;
}

interface Client {
  socket: WebSocket;
  /** Counted frames taken from the server (s) and sent by us (c). */
  received: number;
  sent: number;
  onFrame: ((frame: Record<string, unknown>) => void) | null;
}

interface Memory {
  /** Live JS heap plus buffers outside it, after a full garbage collection. */
  liveKiB: number;
  rssKiB: number;
}

/** Asks a server child (started with --expose-gc) for its memory after a full collection. */
function memoryOf(child: ChildProcess): Promise<Memory> {
  return new Promise((resolve) => {
    child.once('message', (usage) => {
      const { heapUsed, external, rss } = usage as NodeJS.MemoryUsage;
      resolve({ liveKiB: (heapUsed + external) / 1024, rssKiB: rss / 1024 });
    });
    child.send('memory');
  });
}

/** In a server child: answer memory questions from the benchmark. */
function answerMemoryQuestions(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (message) => {
    if (message !== 'memory') return;
    gc?.();
    gc?.();
    process.send?.(process.memoryUsage());
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Opens one client; for our protocol it completes the handshake and confirms every counted frame. */
function openClient(target: Target, index: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(target.wsUrl, { headers: target.headers(index), perMessageDeflate: false });
    const client: Client = { socket, received: 0, sent: 0, onFrame: null };
    socket.once('error', reject);
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (target.protocol && typeof frame.s === 'number' && frame.type !== 'ack') {
        if (frame.type === 'access_denied') {
          reject(new Error('access denied'));
          return;
        }
        // A replay of something we have (the server resends when we are slow to confirm).
        if (frame.s !== client.received + 1) {
          socket.send(JSON.stringify({ type: 'ack', c: client.sent, s: client.received }));
          return;
        }
        client.received = frame.s;
        if (frame.type === 'welcome') {
          client.sent += 1;
          socket.send(
            JSON.stringify({
              type: 'subscribe',
              c: client.sent,
              s: client.received,
              session: `bench-${index.toString().padStart(8, '0')}`,
              seen: 0,
              next: 1,
            }),
          );
          return;
        }
        // Confirm at once so that the server never resends (the real client waits 20 ms).
        socket.send(JSON.stringify({ type: 'ack', c: client.sent, s: client.received }));
        if (frame.type === 'subscribed') {
          resolve(client);
          return;
        }
      }
      client.onFrame?.(frame);
    });
    if (!target.protocol) socket.once('open', () => resolve(client));
  });
}

async function openAll(target: Target): Promise<{ clients: Client[]; seconds: number; failed: number }> {
  const clients: Client[] = [];
  let failed = 0;
  const started = performance.now();
  for (let from = 0; from < SOCKETS; from += OPEN_BATCH) {
    const batch = await Promise.allSettled(
      Array.from({ length: Math.min(OPEN_BATCH, SOCKETS - from) }, (_, offset) =>
        openClient(target, from + offset),
      ),
    );
    for (const result of batch) {
      if (result.status === 'fulfilled') clients.push(result.value);
      else failed += 1;
    }
  }
  return { clients, seconds: (performance.now() - started) / 1000, failed };
}

/** Round trips of single pings, one at a time, each on another socket. */
async function pingRoundTrips(clients: Client[]): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < PINGS; index++) {
    const client = clients[(index * 7919) % clients.length];
    const started = performance.now();
    await new Promise<void>((resolve) => {
      client.onFrame = (frame) => {
        if (frame.type === 'pong' || frame.type === 'ping') {
          client.onFrame = null;
          resolve();
        }
      };
      client.socket.send('{"type":"ping"}');
    });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** From the request to the last socket's arrival, per broadcast. */
async function fanOutTimes(target: Target, clients: Client[]): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < BROADCASTS; round++) {
    let arrived = 0;
    let last = 0;
    const all = new Promise<void>((resolve) => {
      for (const client of clients) {
        client.onFrame = (frame) => {
          if (frame.type !== 'system_message') return;
          client.onFrame = null;
          arrived += 1;
          last = performance.now();
          if (arrived === clients.length) resolve();
        };
      }
    });
    const started = performance.now();
    await target.broadcast();
    await all;
    times.push(last - started);
    await sleep(200);
  }
  return times;
}

interface Figures {
  opened: number;
  failed: number;
  openSeconds: number;
  perSocketKiB: number;
  perSocketRssKiB: number;
  pingP50: number;
  pingP99: number;
  fanOutMs: number;
}

async function measure(target: Target): Promise<Figures> {
  const step = (what: string) => process.stderr.write(`[${target.name}] ${what}\n`);
  step('warm-up');
  // Warm up the path (JIT, first allocations) with a few sockets, then take the baseline memory.
  const warm = await Promise.all(Array.from({ length: 10 }, (_, index) => openClient(target, index)));
  for (const client of warm) client.socket.close();
  await sleep(500);
  const before = await memoryOf(target.child);
  step('opening');
  const { clients, seconds, failed } = await openAll(target);
  step(`opened ${clients.length}`);
  await sleep(1000);
  const after = await memoryOf(target.child);
  const pings = await pingRoundTrips(clients);
  step('pinged');
  const fanOut = await fanOutTimes(target, clients);
  for (const client of clients) client.socket.terminate();
  return {
    opened: clients.length,
    failed,
    openSeconds: seconds,
    perSocketKiB: (after.liveKiB - before.liveKiB) / Math.max(1, clients.length),
    perSocketRssKiB: (after.rssKiB - before.rssKiB) / Math.max(1, clients.length),
    pingP50: percentile(pings, 50),
    pingP99: percentile(pings, 99),
    fanOutMs: median(fanOut),
  };
}

async function startEcho(): Promise<Target> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', import.meta.filename, '--echo-server'],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  const port = await childPort(child);
  const base = `http://127.0.0.1:${port}`;
  return {
    name: 'bare ws echo',
    child,
    base,
    wsUrl: `ws://127.0.0.1:${port}/`,
    headers: () => ({}),
    broadcast: async () => {
      await fetch(`${base}/broadcast`, { method: 'POST' });
    },
    protocol: false,
  };
}

/** In a child: the real app (as main.ts builds it, without request logs), users included. */
async function runScriptoriumServer(): Promise<void> {
  // The bench opens all its sockets from one address, as many per user as it takes.
  const limit = String(SOCKETS);
  const server = await startBenchServer('ws', {
    SECRET_KEY: 'bench',
    WS_MAX_SOCKETS_PER_USER: limit,
    WS_MAX_SOCKETS_PER_ADDRESS: limit,
  });
  for (let index = 0; index < USERS; index++) await createBenchUser(server.ctx, `bench${index}`);
  await createUser(server.ctx, {
    username: 'benchstaff',
    email: 'staff@example.org',
    password: BENCH_PASSWORD,
    emailVerified: true,
    isStaff: true,
  });
  process.once('SIGTERM', () => void server.close().finally(() => process.exit(0)));
  answerMemoryQuestions();
  console.log(`PORT ${server.port}`);
}

function childPort(child: ChildProcess): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error('server child exited')));
  });
}

async function startScriptorium(): Promise<Target> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', import.meta.filename, '--scriptorium-server'],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const port = await childPort(child);
  const base = `http://127.0.0.1:${port}`;
  const names = Array.from({ length: USERS }, (_, index) => `bench${index}`);
  const cookies = await Promise.all(
    names.map(async (username) => (await loginHeaders(base, username)).Cookie),
  );
  const staff = await loginHeaders(base, 'benchstaff');
  return {
    name: 'scriptorium',
    child,
    base,
    wsUrl: baseSocketUrl(base),
    // Every user has several tabs open: sockets are spread over the users' sessions.
    headers: (index) => ({ cookie: cookies[index % cookies.length], origin: base }),
    broadcast: async () => {
      const response = await benchCall(
        base,
        staffApi.sendSystemMessage,
        { message: 'Maintenance at 18:00.' },
        staff,
      );
      if (response.status !== 200) throw new Error(`system message failed: ${response.status}`);
    },
    protocol: true,
  };
}

function row(label: string, ours: string, baseline: string, ratio: string): string {
  return `${label.padEnd(30)}${ours.padStart(14)}${baseline.padStart(16)}${ratio.padStart(10)}`;
}

/** The figures of a target just started, which is stopped after them (also when measuring fails). */
async function measureAndStop(target: Target): Promise<Figures> {
  try {
    return await measure(target);
  } finally {
    await stopServerProcess(target);
  }
}

async function main(): Promise<void> {
  const baseline = await measureAndStop(await startEcho());
  const ours = await measureAndStop(await startScriptorium());

  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');
  console.log(`websocket: ${SOCKETS} sockets per process asked (goal 2,000), ${os.cpus().length} CPUs,`);
  console.log(`${USERS} users' sessions, ${PINGS} sequential pings, median of ${BROADCASTS} broadcasts`);
  console.log(row('', 'scriptorium', 'bare ws echo', 'ratio'));
  console.log(row('sockets open', `${ours.opened}`, `${baseline.opened}`, ''));
  console.log(row('failed opens', `${ours.failed}`, `${baseline.failed}`, ''));
  const compared: [label: string, figure: (figures: Figures) => number, digits: number][] = [
    ['open all (s, in batches of 100)', (figures) => figures.openSeconds, 2],
    ['memory per socket (KiB, live)', (figures) => figures.perSocketKiB, 1],
    ['memory per socket (KiB, RSS)', (figures) => figures.perSocketRssKiB, 1],
    ['ping p50 (ms)', (figures) => figures.pingP50, 3],
    ['ping p99 (ms)', (figures) => figures.pingP99, 3],
    ['system message to all (ms)', (figures) => figures.fanOutMs, 1],
  ];
  for (const [label, figure, digits] of compared) {
    const [mine, theirs] = [figure(ours), figure(baseline)];
    console.log(row(label, mine.toFixed(digits), theirs.toFixed(digits), ratio(mine, theirs)));
  }
}

// ---------------------------------------------------------------------------------------------
// The baseline server, run as a child of this same file: echo every frame, broadcast on request.

if (process.argv[2] === '--echo-server') {
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/broadcast') {
      const frame = JSON.stringify({ type: 'system_message', message: 'Maintenance at 18:00.', c: 0, s: 1 });
      for (const client of wss.clients) client.send(frame);
      response.end('{}');
      return;
    }
    response.statusCode = 404;
    response.end();
  });
  server.on('upgrade', (request, socket, head) => {
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.on('message', (data) => ws.send(data.toString()));
    });
  });
  server.listen(0, '127.0.0.1', () => {
    answerMemoryQuestions();
    console.log(`PORT ${(server.address() as net.AddressInfo).port}`);
  });
} else if (process.argv[2] === '--scriptorium-server') {
  await runScriptoriumServer();
} else {
  await main();
}
