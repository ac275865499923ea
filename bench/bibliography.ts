// Benchmark: a generated 10,000-entry library. Import (parse, then chunked save over HTTP), the
// full biblist answer against the unchanged check (same run: ratio), the client's path to its
// first rows from the cache (IndexedDB read + row preparation + sort; fake-indexeddb in Node),
// and, when web/dist is built, the same in Debian's Chromium: first rows of a first visit (full
// list) against a reload (cache plus the cheap check).
import { benchCall, createBenchUser, loginHeaders, sessionCookies, startBenchServer } from './lib/server';
import 'fake-indexeddb/auto';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import type { Endpoint } from '@scriptorium/common/api/endpoint';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import {
  entryAuthors,
  entrySearchText,
  entryTitle,
  entryYear,
} from '@scriptorium/common/bibliography/display';
import { importBibtex } from '@scriptorium/common/bibliography/import-bibtex';
import type { BibEntry } from '@scriptorium/common/bibliography/types';
import { emptyCache, readBibCache, writeBibCache } from '../web/src/pages/bibliography/bib-cache';
import { againstGoal, median } from './lib/stats';

const COUNT = Number(process.env.BENCH_ENTRIES || 10_000);
const CHUNK = 250;
const ROUNDS = 20;
const CHECKS_PER_ROUND = 5;

const FAMILIES = [
  'Müller',
  'van der Berg',
  'O’Brien',
  'Smith',
  'García Márquez',
  'Łukasiewicz',
  'Nguyen',
  'de la Cruz',
];
const GIVEN = ['Anna', 'José', 'Jean-Luc', 'Yuki', 'Ólafur', 'Priya', 'Kwame', 'Zoë'];
const WORDS = [
  'Quantum',
  'Learning',
  'Graphs',
  'Entropy',
  'Protein',
  'Folding',
  'Networks',
  'Bayesian',
  'Climate',
  'Models',
];

function generateBib(count: number): string {
  const parts = ['@string{jphys = {Journal of Physics}}\n'];
  for (let i = 0; i < count; i++) {
    const a = i % FAMILIES.length;
    const title = `${WORDS[i % 10]} {${WORDS[(i * 7) % 10]}} of \\emph{${WORDS[(i * 3) % 10]}} Systems, Part ${i}`;
    const authors = `${FAMILIES[a]}, ${GIVEN[(i * 5) % 8]} and ${GIVEN[(i + 3) % 8]} ${FAMILIES[(a + 3) % 8]}`;
    switch (i % 4) {
      case 0:
        parts.push(
          `@article{e${i},\n  author = {${authors}},\n  title = {${title}},\n  journal = jphys,\n  year = {${1950 + (i % 70)}},\n  volume = {${i % 90}},\n  pages = {${i}--${i + 12}},\n  doi = {10.1000/e${i}}\n}\n`,
        );
        break;
      case 1:
        parts.push(
          `@book{e${i},\n  author = {${authors}},\n  title = {${title}},\n  publisher = {Springer},\n  address = {Berlin},\n  date = {${1950 + (i % 70)}-0${1 + (i % 9)}}\n}\n`,
        );
        break;
      case 2:
        parts.push(
          `@inproceedings{e${i},\n  author = {${authors}},\n  title = {${title}},\n  booktitle = {Proceedings of the {${i % 30}th} Conference},\n  year = {${1950 + (i % 70)}},\n  pages = {${i % 300}--${(i % 300) + 8}}\n}\n`,
        );
        break;
      default:
        parts.push(
          `@misc{e${i},\n  author = {{Consortium ${i % 50}}},\n  title = {${title}},\n  url = {https://example.org/${i}},\n  year = {${1950 + (i % 70)}},\n  keywords = {a, b, c}\n}\n`,
        );
    }
  }
  return parts.join('\n');
}

const bib = generateBib(COUNT);
console.log(`library: ${COUNT} entries, ${(bib.length / 1024 / 1024).toFixed(2)} MiB of BibTeX`);

let start = performance.now();
const parsed = importBibtex(bib);
const parseMs = performance.now() - start;
if (parsed.entries.length !== COUNT) throw new Error(`parsed ${parsed.entries.length} of ${COUNT}`);
console.log(`parse: ${parseMs.toFixed(0)} ms, ${Math.round(COUNT / (parseMs / 1000))} entries/s`);

const server = await startBenchServer('bib', process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {});
const { ctx, base } = server;
const user = await createBenchUser(ctx, 'bench');
const headers = await loginHeaders(base, 'bench');
const post = (target: Endpoint, input: Record<string, unknown>) => benchCall(base, target, input, headers);

start = performance.now();
for (let i = 0; i < parsed.entries.length; i += CHUNK) {
  const bibs = Object.fromEntries(
    parsed.entries.slice(i, i + CHUNK).map((e, j) => [String(-(i + j + 1)), e]),
  );
  const response = await post(bibliographyApi.save, { is_new: true, bibs });
  if (!response.ok) throw new Error(`save answered ${response.status}: ${await response.text()}`);
}
const saveMs = performance.now() - start;
console.log(
  `save (${ctx.dialect}, ${CHUNK} per request): ${saveMs.toFixed(0)} ms, ${Math.round(COUNT / (saveMs / 1000))} entries/s`,
);
console.log(`import total (parse + save): ${Math.round(COUNT / ((parseMs + saveMs) / 1000))} entries/s`);

async function timed(form: Record<string, unknown>): Promise<{ ms: number; bytes: number; text: string }> {
  const t0 = performance.now();
  const response = await post(bibliographyApi.list, form);
  const text = await response.text();
  return { ms: performance.now() - t0, bytes: Buffer.byteLength(text), text };
}

const full = JSON.parse((await timed({ last_modified: -1, number_of_entries: -1, user_id: -1 })).text) as {
  bib_list: BibEntry[];
  last_modified: number;
  number_of_entries: number;
};
const current = {
  last_modified: full.last_modified,
  number_of_entries: full.number_of_entries,
  user_id: user.id,
};
const fullTimes: number[] = [];
const checkTimes: number[] = [];
let fullBytes = 0;
let checkBytes = 0;
// Full answers and checks take turns, so that machine noise hits both alike; several checks per
// round, because server and client share this process: the check right after a 6 MiB answer also
// pays that answer's garbage collection (3-5 ms against 1.6 ms), which no browser's check does.
for (let round = 0; round < ROUNDS; round++) {
  const f = await timed({ last_modified: -1, number_of_entries: -1, user_id: -1 });
  fullTimes.push(f.ms);
  fullBytes = f.bytes;
  for (let check = 0; check < CHECKS_PER_ROUND; check++) {
    const c = await timed(current);
    checkTimes.push(c.ms);
    checkBytes = c.bytes;
    if (JSON.parse(c.text).bib_list) throw new Error('the unchanged check sent the list');
  }
}
const fullMs = median(fullTimes);
const checkMs = median(checkTimes);
console.log(
  `full biblist: ${fullMs.toFixed(1)} ms (median of ${ROUNDS}), ${(fullBytes / 1024 / 1024).toFixed(2)} MiB`,
);
console.log(
  `unchanged check: ${checkMs.toFixed(2)} ms (median of ${checkTimes.length}), ${checkBytes} bytes`,
);
console.log(
  `ratio (check / full): time ${(checkMs / fullMs).toFixed(4)}${againstGoal(checkMs / fullMs, { atMost: 0.02 })}, bytes ${(checkBytes / fullBytes).toFixed(6)}`,
);

// Client side: what a reload does before the first rows can be drawn.
await writeBibCache({
  ...emptyCache(),
  last_modified_biblist: full.last_modified,
  number_of_entries: full.number_of_entries,
  owner_id: user.id,
  biblist: full.bib_list,
});
const cacheTimes: number[] = [];
for (let round = 0; round < 5; round++) {
  const t0 = performance.now();
  const cache = await readBibCache();
  const rows = cache.biblist.map((entry) => ({
    entry,
    title: entryTitle(entry),
    authors: entryAuthors(entry),
    year: entryYear(entry),
    search: entrySearchText(entry),
  }));
  rows.sort((a, b) => a.title.localeCompare(b.title));
  cacheTimes.push(performance.now() - t0);
  if (rows.length !== COUNT) throw new Error('cache lost entries');
}
console.log(
  `first rows from cache (IndexedDB read + row texts + sort, fake-indexeddb in Node): ${median(cacheTimes).toFixed(0)} ms (median of 5)`,
);

/** What a user sees in Debian's Chromium: first rows (full list, then from the cache), and an import. */
async function inBrowser(): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(executablePath) || !existsSync(server.ctx.config.webDist)) {
    console.log('browser figures: skipped (needs Chromium and a built web/dist: npm run build)');
    return;
  }
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const pageOf = async (cookie: string) => {
    const context = await browser.newContext();
    await context.addCookies(sessionCookies(cookie, base));
    return context.newPage();
  };

  // First rows: a first visit fetches the full list; a reload draws from the cache.
  const page = await pageOf(headers.Cookie);
  // The page's resource timing keeps 250 entries by default: the list's could be dropped.
  await page.addInitScript(() => performance.setResourceTimingBufferSize(100_000));
  /** The last list answer's size as read and as it crossed the wire (compressed): the page's resource timing. */
  const listSizes = () =>
    page.evaluate((listPath) => {
      const entries = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith(listPath)) as PerformanceResourceTiming[];
      const last = entries.at(-1);
      return { bytes: last?.decodedBodySize ?? 0, wire: last?.encodedBodySize ?? 0 };
    }, bibliographyApi.list.path);
  const firstRow = async (): Promise<number> => {
    await page.locator('.bib-table tbody tr').first().waitFor({ timeout: 120_000 });
    return page.evaluate(() => performance.now());
  };
  await page.goto(`${base}/bibliography/`);
  const firstVisit = await firstRow();
  const first = await listSizes();
  // Let the cache write finish before reloading.
  await page.waitForTimeout(2000);
  const reloads: number[] = [];
  for (let round = 0; round < 5; round++) {
    await page.reload();
    reloads.push(await firstRow());
  }
  const reload = median(reloads);
  const check = await listSizes();
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
  console.log(
    `first rows in Chromium: first visit (full list, ${mib(first.bytes)} MiB, ${mib(first.wire)} MiB on the wire) ${firstVisit.toFixed(0)} ms; reload from the cache (check answer ${check.bytes} bytes) ${reload.toFixed(0)} ms (median of 5); ratio ${(reload / firstVisit).toFixed(2)}`,
  );

  // The import as a user runs it: file chosen, parsed in the worker pool, saved in chunks.
  await createBenchUser(ctx, 'importer');
  const importer = await pageOf((await loginHeaders(base, 'importer')).Cookie);
  await importer.goto(`${base}/bibliography/`);
  // The menu is usable once the (empty) list has been loaded.
  await importer.locator('.bib-table').waitFor();
  await importer.getByRole('button', { name: 'Import', exact: true }).click();
  const started = performance.now();
  await importer.getByTestId('bib-file-input').setInputFiles({
    name: 'library.bib',
    mimeType: 'application/x-bibtex',
    buffer: Buffer.from(bib, 'utf8'),
  });
  await importer.getByText(/^Saving \d+ of/).waitFor({ timeout: 300_000 });
  const parsedMs = performance.now() - started;
  await importer.locator('.bib-report-summary').waitFor({ timeout: 300_000 });
  const importMs = performance.now() - started;
  const summary = await importer.locator('.bib-report-summary').textContent();
  console.log(
    `import in Chromium: ${importMs.toFixed(0)} ms, ${Math.round(COUNT / (importMs / 1000))} entries/s ("${summary}"), of which reading the file in the worker pool ${parsedMs.toFixed(0)} ms; ratio to Node's single-thread parse + save: ${(importMs / (parseMs + saveMs)).toFixed(2)}`,
  );
  await browser.close();
}
await inBrowser();

await server.close();
