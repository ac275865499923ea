// Review (issue 18): a document with 2,000 tracked changes and 500 comment threads against the
// same text without them, in Chromium: time to editable (median of BENCH_OPENS opens) and
// keystroke to paint (p50, p95). Goal: <= 1.5x on both. Uses the current build (web/dist, or
// WEB_DIST). Prints figures and ratios; asserts nothing.
import { schema } from '@scriptorium/common/editor/schema';
import type { Mark, Node as PMNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { OPENS, profiled, timesToEditableInTurns, timeToEditable, withBrowserBench } from './lib/browser';
import { articleWithBody, createBenchDocument } from './lib/documents';
import { measureKeystrokes } from './lib/keystrokes';
import { loggedInPage } from './lib/server';
import { percentiles } from './lib/stats';

const PARAGRAPHS = 500;
const WORDS_PER_PARAGRAPH = 20;
const CHANGES = 2000;
const COMMENTS = 500;
const KEYSTROKES = 150;

/** The standard article with PARAGRAPHS paragraphs of plain words. */
function plainDocument(): PMNode {
  const paragraphs: PMNode[] = [];
  for (let p = 0; p < PARAGRAPHS; p++) {
    const words = Array.from({ length: WORDS_PER_PARAGRAPH }, (_, w) => `word${(p * 31 + w * 7) % 97}`);
    paragraphs.push(schema.nodes.paragraph.create(null, schema.text(`${words.join(' ')}.`)));
  }
  return articleWithBody('Reviewed manuscript', paragraphs);
}

/** Word ranges of the body, in document order. */
function wordRanges(doc: PMNode): { from: number; to: number }[] {
  const ranges: { from: number; to: number }[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name !== 'paragraph') return true;
    let offset = 0;
    for (const word of node.textContent.split(' ')) {
      ranges.push({ from: pos + 1 + offset, to: pos + 1 + offset + word.length });
      offset += word.length + 1;
    }
    return false;
  });
  return ranges;
}

/** The same text with CHANGES tracked changes by three authors and COMMENTS comment anchors. */
function reviewedDocument(plain: PMNode): PMNode {
  const tr = new Transform(plain);
  const words = wordRanges(plain).filter((_, index) => index % 2 === 0);
  const authors = [
    { user: 2, username: 'Bob' },
    { user: 3, username: 'Cleo' },
    { user: 4, username: 'Dan' },
  ];
  for (let i = 0; i < CHANGES; i++) {
    const { from, to } = words[i];
    const author = authors[i % authors.length];
    const kind = i % 3;
    const mark: Mark =
      kind === 0
        ? schema.marks.insertion.create({ ...author, date: 1_700_000_000_000 + i })
        : kind === 1
          ? schema.marks.deletion.create({ ...author, date: 1_700_000_000_000 + i })
          : schema.marks.format_change.create({ ...author, date: 1_700_000_000_000 + i, after: ['strong'] });
    tr.addMark(from, to, mark);
    if (kind === 2) tr.addMark(from, to, schema.marks.strong.create());
  }
  const all = wordRanges(plain);
  for (let i = 0; i < COMMENTS; i++) {
    const { from } = all[i * 9 + 1];
    const { to } = all[i * 9 + 3];
    tr.addMark(from, to, schema.marks.comment.create({ id: i + 1 }));
  }
  return tr.doc;
}

async function main(): Promise<void> {
  await withBrowserBench('review', 'reviewer', async ({ server, browser, user: owner, headers }) => {
    const db = server.ctx.db;
    const store = (doc: PMNode) => createBenchDocument(server, headers, doc);
    const plain = plainDocument();
    const plainId = await store(plain);
    const reviewedId = await store(reviewedDocument(plain));
    const now = Date.now();
    for (let i = 0; i < COMMENTS; i++) {
      await db
        .insertInto('document_threads')
        .values({
          document_id: reviewedId,
          thread_id: i + 1,
          user_id: owner.id,
          resolved: 0,
          assigned_to: null,
          created_at: now,
        })
        .execute();
      await db
        .insertInto('document_comments')
        .values({
          document_id: reviewedId,
          thread_id: i + 1,
          user_id: owner.id,
          user_name: 'Reviewer',
          text: `Comment ${i + 1}: please check this sentence.`,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }

    const { context, page } = await loggedInPage(browser, server.base, headers);
    const openTime = (id: number) => timeToEditable(page, server.base, id);
    await openTime(plainId);
    // Where the time goes (self time by function, top 15): BENCH_PROFILE=open or =keys.
    if (process.env.BENCH_PROFILE === 'open') {
      console.log('profile of opening the reviewed document:');
      await profiled(page, () => openTime(reviewedId));
    }
    await openTime(reviewedId);
    const opens = await timesToEditableInTurns(page, server.base, [plainId, reviewedId], OPENS);
    const [openPlain, openReviewed] = opens.medians;
    console.log(
      `time to editable, ${PARAGRAPHS} paragraphs: with ${CHANGES} changes and ${COMMENTS} comments median ` +
        `${openReviewed.toFixed(0)} ms; without ${openPlain.toFixed(0)} ms; ratio ${(openReviewed / openPlain).toFixed(2)}x (goal <= 1.5x)`,
    );

    const keys = async (id: number) => {
      await openTime(id);
      const paragraphs = page.locator('.editor-document p');
      await paragraphs.nth(Math.floor((await paragraphs.count()) / 2)).click();
      return percentiles(await measureKeystrokes(page, KEYSTROKES));
    };
    if (process.env.BENCH_PROFILE === 'keys') {
      console.log('profile of typing in the reviewed document:');
      await profiled(page, () => keys(reviewedId));
    }
    const plainKeys = await keys(plainId);
    const reviewedKeys = await keys(reviewedId);
    console.log(
      `keystroke to paint (${KEYSTROKES} keys): with review p50 ${reviewedKeys(50).toFixed(1)} ms, p95 ` +
        `${reviewedKeys(95).toFixed(1)} ms; without p50 ${plainKeys(50).toFixed(1)} ms, p95 ${plainKeys(95).toFixed(1)} ms; ` +
        `p95 ratio ${(reviewedKeys(95) / plainKeys(95)).toFixed(2)}x (goal <= 1.5x)`,
    );
    await context.close();
  });
}

await main();
