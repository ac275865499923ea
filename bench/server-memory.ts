// Benchmark: the resident memory of a server process (issue 52, benchmark 4).
//   - idle, as `npm start` runs it (compiled JavaScript, plain node) against the same server run
//     from the TypeScript sources by tsx (development and tests) in the same run: goal <= 120 MiB;
//   - with 100 open documents of 5,000 words (one editor each): goal <= 60 KiB per open document.
//   - idle after a forced GC (bench/lib/memory-probe.mjs), 5 s and 30 s after the start (V8 keeps
//     the young generation at its boot size until its memory reducer runs): resident memory, heap
//     and its spaces, the CommonJS packages loaded; BENCH_HEAP_SNAPSHOT=1 adds the heap by kind.
// Memory does not depend on how busy the cores are, so this bench runs no CPU hog. It prints
// figures and ratios; it asserts nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument } from '../server/src/modules/documents/commands/create-document';
import { createUser } from '../server/src/modules/user/commands/create-user';
import { DocumentClient } from '../server/src/ws/document-client';
import { loggedInClient } from '../server/test/harness';
import {
  processEnv,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
  stopServerProcess,
} from '../server/test/processes';
import { bodyParagraphStart, cookieHeader, wsUrlBase } from '../server/test/ws-support';
import { articleWithBody } from './lib/documents';
import { againstGoal } from './lib/stats';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS || 100);
/** BENCH_MEMORY_PARTS=open (or idle) runs one part only. */
const PARTS = new Set((process.env.BENCH_MEMORY_PARTS || 'idle,open').split(','));
const WORDS = Number(process.env.BENCH_WORDS || 5000);
const PASSWORD = 'bench-password';
const ROOT = path.resolve(import.meta.dirname, '..');
const MiB = 1024 * 1024;

/** Resident memory of a process in bytes (Linux /proc). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) * 1024;
}

/** The server's resident memory once it has settled: the smallest of a few readings a second apart. */
async function settledResident(server: ServerProcess): Promise<number> {
  const readings: number[] = [];
  for (let index = 0; index < 5; index++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    readings.push(residentBytes(server.child.pid as number));
  }
  return Math.min(...readings);
}

/** A 5,000-word article: paragraphs of 100 words. */
function paper(index: number) {
  const paragraphs = [];
  for (let words = 0; words < WORDS; words += 100) {
    const text = Array.from({ length: 100 }, (_, w) => `word${(index + words + w) % 997}`).join(' ');
    paragraphs.push(schema.nodes.paragraph.create(null, schema.text(text)));
  }
  return articleWithBody(`Paper ${index}`, paragraphs);
}

/** A SQLite site with one user and `documents` papers of theirs; its data folder. */
async function site(documents: number): Promise<string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-memory-'));
  await seedDatabase({ databaseUrl: undefined, dataDir }, async (db) => {
    const user = await createUser(
      { db },
      { username: 'ada', email: 'ada@example.org', password: PASSWORD, emailVerified: true },
    );
    for (let index = 0; index < documents; index++)
      await createDocument(db, user.id, { title: `Paper ${index}`, path: '', content: paper(index) });
  });
  return dataDir;
}

interface Probe {
  memory: NodeJS.MemoryUsage;
  modules: string[];
  spaces: { space_name: string; space_size: number; space_used_size: number; physical_space_size: number }[];
}

/** Makes the server (started with the probe) collect garbage and report; its report. */
async function probe(server: ServerProcess, out: string): Promise<Probe> {
  rmSync(out, { force: true });
  server.child.kill('SIGWINCH');
  // A heap snapshot of a server with 100 papers takes minutes on a busy machine.
  const deadline = Date.now() + 300_000;
  while (!existsSync(out)) {
    if (Date.now() > deadline) throw new Error('no memory probe report');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  return JSON.parse(readFileSync(out, 'utf8')) as Probe;
}

/** A heap snapshot summed by kind (strings, code, ...) and by constructor for objects. */
function snapshotSummary(file: string): string {
  return [...snapshotSums(file)]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([key, bytes]) => `${key} ${(bytes / MiB).toFixed(1)}`)
    .join(', ');
}

/** The bytes of a heap snapshot by kind, objects by constructor. */
function snapshotSums(file: string): Map<string, number> {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const meta = snapshot.snapshot.meta;
  const width = meta.node_fields.length;
  const kinds: string[] = meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) =>
    meta.node_fields.indexOf(field),
  );
  const sums = new Map<string, number>();
  for (let index = 0; index < snapshot.nodes.length; index += width) {
    const kind = kinds[snapshot.nodes[index + typeAt]];
    const key = kind === 'object' ? `object ${snapshot.strings[snapshot.nodes[index + nameAt]]}` : kind;
    sums.set(key, (sums.get(key) ?? 0) + snapshot.nodes[index + sizeAt]);
  }
  return sums;
}

/** The compiled server idle on an empty site, read after a forced GC at 5 s and at 30 s. */
async function idleAfterGc(main: string): Promise<void> {
  const dataDir = await site(0);
  folders.push(dataDir);
  const out = path.join(dataDir, 'memory-probe.json');
  const server = await startServerProcess(
    {
      ...processEnv(dataDir, 'memory-bench'),
      NODE_OPTIONS: `--import ${path.join(import.meta.dirname, 'lib/memory-probe.mjs')}`,
      MEMORY_PROBE_OUT: out,
    },
    undefined,
    main,
  );
  try {
    await fetch(`${server.baseUrl}/api/base/configuration/`);
    const started = Date.now();
    for (const at of [5_000, 30_000]) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + at - Date.now())));
      const before = residentBytes(server.child.pid as number);
      const { memory, spaces } = await probe(server, out);
      const young = spaces.find((space) => space.space_name === 'new_space');
      console.log(
        `idle after a forced GC, ${at / 1000} s after the start: resident ${(before / MiB).toFixed(1)} -> ${(memory.rss / MiB).toFixed(1)} MiB; ` +
          `heap used ${(memory.heapUsed / MiB).toFixed(1)} of ${(memory.heapTotal / MiB).toFixed(1)} MiB ` +
          `(young generation ${((young?.physical_space_size ?? 0) / MiB).toFixed(1)} MiB resident), external ${(memory.external / MiB).toFixed(1)} MiB` +
          againstGoal(memory.rss / MiB, { atMost: 120 }),
      );
    }
    const { modules } = await probe(server, out);
    const packages = new Map<string, number>();
    for (const file of modules) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? 'ours';
      packages.set(name, (packages.get(name) ?? 0) + 1);
    }
    console.log(
      `    CommonJS modules loaded: ${modules.length}, by package: ${[...packages]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ')}`,
    );
    if (process.env.BENCH_HEAP_SNAPSHOT === '1') {
      await stopServerProcess(server);
      const snapshotting = await startServerProcess(
        {
          ...processEnv(dataDir, 'memory-bench'),
          NODE_OPTIONS: `--import ${path.join(import.meta.dirname, 'lib/memory-probe.mjs')}`,
          MEMORY_PROBE_OUT: out,
          MEMORY_PROBE_SNAPSHOT: '1',
        },
        undefined,
        main,
      );
      await probe(snapshotting, out);
      await stopServerProcess(snapshotting);
      console.log(`    heap by kind (MiB): ${snapshotSummary(`${out}.heapsnapshot`)}`);
    }
  } finally {
    await stopServerProcess(server);
  }
}

const outdir = path.join(ROOT, 'server/dist', `bench-memory-${process.pid}`);
const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), outdir], {
  encoding: 'utf8',
});
if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);

const folders: string[] = [];
try {
  if (PARTS.has('idle')) await idleParts();
  if (PARTS.has('open')) await openDocuments();
} finally {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
}

async function idleParts(): Promise<void> {
  await idleAfterGc(path.join(outdir, 'main.js'));
  // Idle: the same empty site, the server from the sources (tsx) and compiled (npm start).
  const idle: Record<'tsx' | 'compiled', number> = { tsx: 0, compiled: 0 };
  for (const how of ['tsx', 'compiled'] as const) {
    const dataDir = await site(0);
    folders.push(dataDir);
    const server = await startServerProcess(
      processEnv(dataDir, 'memory-bench'),
      undefined,
      how === 'compiled' ? path.join(outdir, 'main.js') : undefined,
    );
    // One answered page, as a balancer's health check would have asked before any user comes.
    await fetch(`${server.baseUrl}/api/base/configuration/`);
    idle[how] = await settledResident(server);
    await stopServerProcess(server);
  }
  console.log(
    `load ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `idle server: compiled ${(idle.compiled / MiB).toFixed(1)} MiB, tsx ${(idle.tsx / MiB).toFixed(1)} MiB, ` +
      `ratio ${(idle.compiled / idle.tsx).toFixed(2)}${againstGoal(idle.compiled / MiB, { atMost: 120 })}`,
  );
}

async function openDocuments(): Promise<void> {
  // Open documents: one editor on each of DOCUMENTS papers. Read after a forced GC (the probe), as
  // resident memory without one moves by more than the documents add.
  const dataDir = await site(DOCUMENTS);
  folders.push(dataDir);
  const out = path.join(dataDir, 'memory-probe.json');
  const snapshots = process.env.BENCH_HEAP_SNAPSHOT === '1';
  const server = await startServerProcess(
    {
      ...processEnv(dataDir, 'memory-bench'),
      // One user holds every editor here: past the default limit of sockets per user.
      WS_MAX_SOCKETS_PER_USER: String(DOCUMENTS + 10),
      NODE_OPTIONS: `--import ${path.join(import.meta.dirname, 'lib/memory-probe.mjs')}`,
      MEMORY_PROBE_OUT: out,
      ...(snapshots ? { MEMORY_PROBE_SNAPSHOT: '1' } : {}),
    },
    undefined,
    path.join(outdir, 'main.js'),
  );
  const ada = await loggedInClient(server.baseUrl, 'ada', PASSWORD);
  // A first editor opened and closed: what the first socket and the first document load bring
  // (the collaboration code, the schema) is not counted per document.
  const editor = (documentId: number) =>
    new DocumentClient({
      wsUrlBase: wsUrlBase(server.baseUrl),
      documentId,
      headers: { cookie: cookieHeader(ada), origin: server.baseUrl },
    });
  const warmup = editor(1);
  await warmup.open();
  const unedited = await settledResident(server);
  // One edit starts the SQLite writer thread (docs/collaboration.md): counted before, not per document.
  warmup.edit((tr) => tr.insertText('x', bodyParagraphStart(tr.doc)));
  await warmup.settled();
  warmup.close();
  const before = await settledResident(server);
  console.log(
    `first edit (the SQLite writer thread starts): ${(unedited / MiB).toFixed(1)} -> ${(before / MiB).toFixed(1)} MiB`,
  );
  const probedBefore = await probe(server, out);
  const snapshotBefore = snapshots ? snapshotSums(`${out}.heapsnapshot`) : null;
  const editors: DocumentClient[] = [];
  // Half of them first: the second half's growth is what one more open document costs, without
  // what the first opens bring once (code the JIT compiles, tables that grow in steps).
  const half = Math.floor(DOCUMENTS / 2);
  let probedHalf: Probe | null = null;
  for (let id = 1; id <= DOCUMENTS; id++) {
    const client = editor(id);
    await client.open();
    editors.push(client);
    if (id === half && !snapshots) probedHalf = await probe(server, out);
  }
  const open = await settledResident(server);
  const perDocument = (open - before) / DOCUMENTS / 1024;
  console.log(
    `${DOCUMENTS} open documents of ${WORDS} words: ${(open / MiB).toFixed(1)} MiB, ` +
      `${perDocument.toFixed(1)} KiB per document over ${(before / MiB).toFixed(1)} MiB before` +
      againstGoal(perDocument, { atMost: 60 }),
  );
  const probedOpen = await probe(server, out);
  const perDocumentAfterGc = (field: 'rss' | 'heapUsed' | 'external') =>
    (probedOpen.memory[field] - probedBefore.memory[field]) / DOCUMENTS / 1024;
  console.log(
    `    after a forced GC: resident ${(probedBefore.memory.rss / MiB).toFixed(1)} -> ${(probedOpen.memory.rss / MiB).toFixed(1)} MiB, ` +
      `${perDocumentAfterGc('rss').toFixed(1)} KiB per document` +
      againstGoal(perDocumentAfterGc('rss'), { atMost: 60 }) +
      `; heap used ${perDocumentAfterGc('heapUsed').toFixed(1)} KiB, external ${perDocumentAfterGc('external').toFixed(1)} KiB per document`,
  );
  if (probedHalf) {
    const marginal = (field: 'rss' | 'heapUsed') =>
      (probedOpen.memory[field] - (probedHalf as Probe).memory[field]) / (DOCUMENTS - half) / 1024;
    console.log(
      `    documents ${half + 1}-${DOCUMENTS} alone, after a forced GC: resident ${marginal('rss').toFixed(1)} KiB per document` +
        againstGoal(marginal('rss'), { atMost: 60 }) +
        `; heap used ${marginal('heapUsed').toFixed(1)} KiB per document`,
    );
  }
  if (snapshotBefore) {
    const after = snapshotSums(`${out}.heapsnapshot`);
    const grown = [...after]
      .map(([key, bytes]) => [key, (bytes - (snapshotBefore.get(key) ?? 0)) / DOCUMENTS / 1024] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20);
    console.log(
      `    heap per open document by kind (KiB): ${grown.map(([key, kib]) => `${key} ${kib.toFixed(1)}`).join(', ')}`,
    );
  }
  for (const client of editors) client.close();
  await stopServerProcess(server);
}
