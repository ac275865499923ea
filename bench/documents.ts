// Benchmark of the document overview, each figure against a baseline measured in the same run:
//  1. the answer time of POST /api/documents/list/ for a user who sees 5,000 documents in 200
//     folders (4,000 own, 1,000 shared with them) against a user with 50 documents, and the same
//     list when a document was saved before each call (no kept answer);
//  2. the overview's first render (list answer parsed, rows of the top folder computed, table
//     drawn in jsdom) with those 5,000 documents against the same with 50.

import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { JSDOM } from 'jsdom';
import { EMPTY_CONTENT } from '../server/src/modules/documents/commands/create-document';
import { benchCall, createBenchUser, loginHeaders, startBenchServer } from './lib/server';
import { againstGoal } from './lib/stats';
// jsdom lacks CSS.escape (the tables use it): the widgets' own test polyfill supplies it.
import '../web/src/components/test-polyfills';

const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const RENDERS = Number(process.env.BENCH_RENDERS || 7);
const FOLDERS = 200;
const OWN = 4000;
const SHARED = 1000;
const SMALL = 50;

const server = await startBenchServer('documents');
const { ctx, base } = server;
const { db } = ctx;

const big = await createBenchUser(ctx, 'big');
const other = await createBenchUser(ctx, 'other');
const small = await createBenchUser(ctx, 'small');

async function seed(ownerId: number, count: number, folders: number): Promise<number[]> {
  const now = Date.now();
  const ids: number[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, offset) => {
      const index = start + offset;
      return {
        owner_id: ownerId,
        title: `Paper ${index} on topic ${index % 37}`,
        path: `/folder-${String(index % folders).padStart(3, '0')}/`,
        content: EMPTY_CONTENT,
        version: 0,
        created_at: now - index * 60000,
        updated_at: now - index * 30000,
      };
    });
    const inserted = await db.insertInto('documents').values(rows).returning('id').execute();
    ids.push(...inserted.map((row) => row.id));
  }
  return ids;
}

await seed(big.id, OWN, FOLDERS);
const sharedIds = await seed(other.id, SHARED, FOLDERS);
for (let start = 0; start < sharedIds.length; start += 500) {
  await db
    .insertInto('document_access')
    .values(
      sharedIds.slice(start, start + 500).map((id, offset) => ({
        document_id: id,
        user_id: big.id,
        invite_id: null,
        rights: 'write',
        path: `/folder-${String((start + offset) % FOLDERS).padStart(3, '0')}/`,
        created_at: Date.now(),
      })),
    )
    .execute();
}
await seed(small.id, SMALL, 2);

const login = (username: string) => loginHeaders(base, username);

interface ListLoad {
  perSecond: number;
  p50: number;
  p99: number;
  bytes: number;
  count: number;
}

/** One client posting the list call back to back for SECONDS seconds: the answer time itself. */
async function listLoad(
  headers: Record<string, string>,
  beforeEach?: () => Promise<unknown>,
): Promise<ListLoad & { body: string }> {
  const latencies: number[] = [];
  let body = '';
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 1 }, async () => {
      while (performance.now() < deadline) {
        await beforeEach?.();
        const t0 = performance.now();
        const answer = await benchCall(base, documentsApi.list, {}, headers);
        body = await answer.text();
        if (answer.status !== 200) throw new Error(`list answered ${answer.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  const count = (JSON.parse(body) as { documents: unknown[] }).documents.length;
  return {
    perSecond: latencies.length / seconds,
    p50: pick(0.5),
    p99: pick(0.99),
    bytes: body.length,
    count,
    body,
  };
}

const bigHeaders = await login('big');
const smallHeaders = await login('small');
// Warm both paths (JIT, statement cache) before measuring.
await listLoad(smallHeaders);
const smallList = await listLoad(smallHeaders);
// Compressed, as a browser asks (Node's fetch sends Accept-Encoding: gzip, deflate): the kept
// answer's gzip copy, decoded by the client in this same process.
const bigList = await listLoad(bigHeaders);
// The same answer not compressed: what the answer costs on loopback without the client's decoding.
const bigListIdentity = await listLoad({ ...bigHeaders, 'Accept-Encoding': 'identity' });
// The same list when the database changed since the last answer (one of the documents saved, not
// timed): the kept answer (SQLite) cannot be sent, every query runs.
let saves = 0;
const changedList = await listLoad(bigHeaders, () =>
  db
    .updateTable('documents')
    .set({ updated_at: Date.now() + saves++ })
    .where('id', '=', sharedIds[0])
    .execute(),
);

function describeList(name: string, r: ListLoad): string {
  return `${name}: ${r.count} documents, ${(r.bytes / 1024).toFixed(0)} KiB, ${r.perSecond.toFixed(0)} answers/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`;
}
console.log(`POST ${documentsApi.list.path}`);
console.log(`  ${describeList('5,000 documents', bigList)}${againstGoal(bigList.p50, { atMost: 15 })}`);
console.log(
  `  ${describeList('5,000 documents, not compressed (Accept-Encoding: identity)', bigListIdentity)}`,
);
console.log(`  ${describeList('5,000 documents, after a write each time', changedList)}`);
console.log(`  ${describeList('50 documents (baseline)', smallList)}`);
console.log(`  ratio p50 5,000 / 50: ${(bigList.p50 / smallList.p50).toFixed(1)}x`);

await server.close();

// --- The overview's first render in jsdom ---------------------------------------------------------

// The page imports its stylesheets, which only Vite understands: here they load as nothing.
// The lazy locale loader's import.meta.glob is Vite's too: here it finds no files (the bench gives
// i18next the two namespaces the page needs itself).
register(
  `data:text/javascript,${encodeURIComponent(
    "export async function load(url, context, next) { if (url.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true }; const loaded = await next(url, context); if (url.includes('/web/src/i18n/i18n.ts')) return { ...loaded, source: String(loaded.source).replace('import.meta.glob(', '((() => ({})))(') }; return loaded; }",
  )}`,
);

const dom = new JSDOM('<!doctype html><html><body></body></html>', {
  url: 'http://127.0.0.1/',
  pretendToBeVisual: true,
});
const globals = globalThis as unknown as Record<string, unknown>;
for (const key of Object.getOwnPropertyNames(dom.window)) {
  if (!(key in globalThis)) globals[key] = (dom.window as unknown as Record<string, unknown>)[key];
}
globals.window = dom.window;
globals.document = dom.window.document;
Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });

// The render in React's production build, the one users run (its development build takes about
// twice as long, and a change that helps one need not help the other). The server is done by now.
process.env.NODE_ENV = 'production';
const { default: i18next } = await import('i18next');
const { initReactI18next } = await import('react-i18next');
const locales = path.join(import.meta.dirname, '../common/src/i18n/locales/en');
const readLocale = (name: string) => JSON.parse(readFileSync(path.join(locales, `${name}.json`), 'utf8'));
await i18next.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { documents: readLocale('documents'), components: readLocale('components') } },
  ns: ['documents', 'components'],
  defaultNS: 'documents',
  interpolation: { escapeValue: false },
});
const { createElement } = await import('react');
const { createRoot } = await import('react-dom/client');
const { DocumentsPage } = await import('../web/src/pages/documents/documents-page');

async function firstRender(body: string): Promise<number> {
  globals.fetch = async () =>
    new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const started = performance.now();
  root.render(createElement(DocumentsPage, { path: '/' }));
  while (container.querySelectorAll('tr.data-table-row').length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (performance.now() - started > 30000) throw new Error('the overview did not render');
  }
  const elapsed = performance.now() - started;
  root.unmount();
  container.remove();
  return elapsed;
}

async function medianRender(body: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RENDERS; i++) times.push(await firstRender(body));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

await firstRender(smallList.body); // warm-up
const smallRender = await medianRender(smallList.body);
const bigRender = await medianRender(bigList.body);
console.log('Overview first render (jsdom, top folder, median of runs)');
console.log(`  5,000 documents in ${FOLDERS} folders: ${bigRender.toFixed(1)} ms`);
console.log(`  50 documents (baseline): ${smallRender.toFixed(1)} ms`);
console.log(`  ratio 5,000 / 50: ${(bigRender / smallRender).toFixed(1)}x`);
process.exit(0);
