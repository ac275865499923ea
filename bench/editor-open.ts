// The editor in Chromium on a long document (issue 16, bench items 3 and 4):
//   (3) time to editable of a 50,000-word document with a 10,000-step history, against the same
//       content stored as a snapshot alone (no steps). Goal: <= 1.5 s and <= 1.3x.
//   (4) keystroke to paint in that document, p95. Goal: <= 16 ms. Idle, and again with a CPU hog
//       on every core (the short document typed under the same hog as its baseline).
//   (5) keystroke to paint by length (BENCH_KEY_WORDS, default 5,000 and 25,000 words), p50 and
//       p95, idle and under the hog, each against a new short document typed in the same state
//       of the machine. BENCH_KEYS_ONLY=1 runs (5) alone.
// Uses the current build (web/dist, or WEB_DIST). Prints figures and ratios; asserts nothing.
import os from 'node:os';
import type { Page } from '@playwright/test';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import type { StepJson } from '@scriptorium/common/ws/document-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { appendSteps, SNAPSHOT_EVERY } from '../server/src/modules/documents/collab/store';
import {
  OPENS,
  profiled,
  timesToEditableInTurns,
  timeToEditable,
  traced,
  withBrowserBench,
} from './lib/browser';
import { startCpuHog } from './lib/cpu';
import { articleWithBody, createBenchDocument } from './lib/documents';
import { measureKeystrokes } from './lib/keystrokes';
import { loggedInPage } from './lib/server';
import { percentiles } from './lib/stats';

const WORDS = 50_000;
const WORDS_PER_PARAGRAPH = 50;
const STEPS = 10_000;
/** Steps per diff while the history is written (a few keystrokes coalesced, as the client does). */
const STEPS_PER_DIFF = 3;
const KEYSTROKES = 200;

const VOCABULARY =
  'the of manuscript evidence method results analysis figure table citation model data sample theory'.split(
    ' ',
  );

/** A document of the standard template whose body holds `words` words in paragraphs. */
function longDocument(words_ = WORDS): PMNode {
  const paragraphs: PMNode[] = [];
  let word = 0;
  while (word < words_) {
    const words: string[] = [];
    for (let i = 0; i < WORDS_PER_PARAGRAPH && word < words_; i++, word++)
      words.push(VOCABULARY[(word * 7) % VOCABULARY.length]);
    paragraphs.push(schema.nodes.paragraph.create(null, schema.text(`${words.join(' ')}.`)));
  }
  return articleWithBody('A long manuscript', paragraphs);
}

/** Text positions inside the body's paragraphs (start and end of each), to type into. */
function paragraphStarts(doc: PMNode): number[] {
  const starts: number[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'paragraph' && node.textContent.length > 0) starts.push(pos + 1);
    return node.type.name !== 'paragraph';
  });
  return starts;
}

/**
 * Keystroke to paint by the document's length (BENCH_KEY_WORDS, words, comma-separated): each a
 * snapshot alone, typed in its middle paragraph, idle and under a CPU hog, against a new short
 * document typed in the same state of the machine. BENCH_KEYS_ONLY=1 runs this part alone.
 */
async function keystrokesBySize(page: Page, base: string, create: (content?: PMNode) => Promise<number>) {
  const sizes = (process.env.BENCH_KEY_WORDS ?? '5000,25000').split(',').map(Number).filter(Boolean);
  const shortId = await create();
  /** Opens the document, clicks its middle (or last) paragraph and types there; `watch` wraps the typing. */
  const typeIn = async (id: number, middle: boolean, watch = <T>(work: () => Promise<T>) => work()) => {
    await timeToEditable(page, base, id);
    const blocks = page.locator('.editor-document p');
    await (middle ? blocks.nth(Math.floor((await blocks.count()) / 2)) : blocks.last()).click();
    return percentiles(await watch(() => measureKeystrokes(page, KEYSTROKES)));
  };
  const line = (name: string, pct: (p: number) => number, short: (p: number) => number) =>
    `${name}: p50 ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms (short document p95 ` +
    `${short(95).toFixed(1)} ms, ratio ${(pct(95) / short(95)).toFixed(2)}x; p95 / 16 ms goal = ${(pct(95) / 16).toFixed(2)}x)`;
  for (const words of sizes) {
    const id = await create(longDocument(words));
    await timeToEditable(page, base, id);
    const idle = await typeIn(id, true, (work) => profiled(page, () => traced(page, work), `keys-${words}`));
    const idleShort = await typeIn(shortId, false, (work) => traced(page, work));
    console.log(line(`keystroke to paint, ${words} words, idle`, idle, idleShort));
    const hog = startCpuHog();
    try {
      const busy = await typeIn(id, true);
      const busyShort = await typeIn(shortId, false);
      console.log(
        line(`keystroke to paint, ${words} words, CPU hog on all ${os.cpus().length} cores`, busy, busyShort),
      );
    } finally {
      hog.stop();
    }
  }
}

async function main(): Promise<void> {
  await withBrowserBench('editor-open', 'writer', async ({ server, browser, user: owner, headers }) => {
    const db = server.ctx.db;
    const create = (content?: PMNode) => createBenchDocument(server, headers, content);
    if (process.env.BENCH_KEYS_ONLY) {
      const { context, page } = await loggedInPage(browser, server.base, headers);
      await keystrokesBySize(page, server.base, create);
      await context.close();
      return;
    }

    // The history: the long document as its first diff, then single-character insertions spread
    // over the paragraphs, snapshots as the server writes them (every SNAPSHOT_EVERY steps).
    const started = performance.now();
    const historyId = await create();
    const blank = createDocument(schema, standardArticle, { title: 'A long manuscript' });
    const first = new Transform(blank).replaceWith(0, blank.content.size, longDocument().content);
    let doc = first.doc;
    let version = 0;
    let contentVersion = 0;
    const write = async (steps: StepJson[], next: PMNode) => {
      const snapshot = version === 0 || version + steps.length - contentVersion >= SNAPSHOT_EVERY;
      await appendSteps(db, {
        documentId: historyId,
        baseVersion: version,
        steps,
        clientId: 'bench-writer-0001',
        userId: owner.id,
        doc: next,
        snapshot,
        now: Date.now(),
      });
      version += steps.length;
      if (snapshot) contentVersion = version;
    };
    await write(
      first.steps.map((step) => step.toJSON()),
      doc,
    );
    // Where each paragraph's text starts; an insertion shifts the paragraphs after it.
    const starts = paragraphStarts(doc);
    let seed = 1;
    while (version < STEPS) {
      const tr = new Transform(doc);
      for (let i = 0; i < STEPS_PER_DIFF && version + i < STEPS; i++) {
        seed = (seed * 48271) % 2147483647;
        const k = seed % starts.length;
        tr.insert(starts[k] + 3, schema.text('x'));
        for (let j = k + 1; j < starts.length; j++) starts[j] += 1;
      }
      doc = tr.doc;
      await write(
        tr.steps.map((step) => step.toJSON()),
        doc,
      );
    }
    const tail = version - contentVersion;
    console.log(
      `history: ${version} steps written in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `the last snapshot at ${contentVersion}, ${tail} steps after it`,
    );

    // The same content as a snapshot alone.
    const snapshotId = await create(doc);

    const { context, page } = await loggedInPage(browser, server.base, headers);

    const openTime = (id: number) => timeToEditable(page, server.base, id);
    // A first open of each warms the server's caches and the browser's (as a returning user).
    await openTime(historyId);
    await openTime(snapshotId);
    const opens = await timesToEditableInTurns(page, server.base, [historyId, snapshotId], OPENS);
    const [withHistory] = opens.times;
    const [history, alone] = opens.medians;
    console.log(
      `time to editable, ${WORDS} words: with ${STEPS} steps of history median ${history.toFixed(0)} ms ` +
        `(runs ${withHistory.map((v) => v.toFixed(0)).join(', ')}); snapshot alone ${alone.toFixed(0)} ms; ` +
        `ratio ${(history / alone).toFixed(2)}x (goal <= 1500 ms and <= 1.3x)`,
    );

    // Keystroke to paint in the document with history: from the key event's time stamp to the
    // frame after it (requestAnimationFrame, then the task after that frame).
    await openTime(historyId);
    const paragraphs = await page.locator('.editor-document p').count();
    console.log(`paragraphs on the page: ${paragraphs}`);
    await page
      .locator('.editor-document p')
      .nth(Math.floor(paragraphs / 2))
      .click();
    // BENCH_PROFILE=1: where the time of the keystrokes goes (BENCH_TRACE=1, below: the browser's own work).
    const pct = percentiles(await profiled(page, () => measureKeystrokes(page, KEYSTROKES)));
    console.log(
      `keystroke to paint (${KEYSTROKES} keys): p50 ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms, ` +
        `max ${pct(100).toFixed(1)} ms; p95 / 16 ms goal = ${(pct(95) / 16).toFixed(2)}x`,
    );

    // Baseline: the same keystrokes in a new, short document, on the same page and machine.
    const shortId = await create();
    await openTime(shortId);
    await page.locator('.editor-document p').last().click();
    const short = percentiles(await traced(page, () => measureKeystrokes(page, KEYSTROKES)));
    console.log(
      `keystroke to paint in a new short document: p50 ${short(50).toFixed(1)} ms, ` +
        `p95 ${short(95).toFixed(1)} ms; long / short p95 = ${(pct(95) / short(95)).toFixed(2)}x`,
    );

    // The floor of this measurement: a plain textarea on an empty page in the same browser.
    const plain = await context.newPage();
    await plain.setContent('<textarea aria-label="plain"></textarea>');
    await plain.locator('textarea').focus();
    const floor = percentiles(await measureKeystrokes(plain, KEYSTROKES));
    console.log(
      `keystroke to paint in a plain textarea (the floor): p50 ${floor(50).toFixed(1)} ms, ` +
        `p95 ${floor(95).toFixed(1)} ms; long document / textarea p95 = ${(pct(95) / floor(95)).toFixed(2)}x`,
    );
    await plain.close();

    // The same keys with a CPU hog on every core (a busy laptop): the long document against the
    // short one, both typed while the hog runs.
    const hog = startCpuHog();
    try {
      const typeIn = async (id: number, middle: boolean) => {
        await openTime(id);
        const blocks = page.locator('.editor-document p');
        await (middle ? blocks.nth(Math.floor((await blocks.count()) / 2)) : blocks.last()).click();
        return percentiles(await measureKeystrokes(page, KEYSTROKES));
      };
      const busyLong = await typeIn(historyId, true);
      const busyShort = await typeIn(shortId, false);
      console.log(
        `with a CPU hog on all ${os.cpus().length} cores: long document p50 ${busyLong(50).toFixed(1)} ms, ` +
          `p95 ${busyLong(95).toFixed(1)} ms; short p95 ${busyShort(95).toFixed(1)} ms; long / short p95 = ` +
          `${(busyLong(95) / busyShort(95)).toFixed(2)}x; p95 / 16 ms goal = ${(busyLong(95) / 16).toFixed(2)}x`,
      );
    } finally {
      hog.stop();
    }
    await keystrokesBySize(page, server.base, create);
    await context.close();
  });
}

await main();
