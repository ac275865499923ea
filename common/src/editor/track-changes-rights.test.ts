import type { Mark, Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { AddNodeMarkStep, Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';
import { ada, bob, firstParagraphStart, SUGGEST } from './testing';
import {
  decideChanges,
  type Reviewer,
  reviewStepsAllowed,
  trackedChanges,
  trackTransaction,
} from './track-changes';

// Issue 50, finding 4: the rule for suggesters covers every mark and every attribute, and a
// suggestion belongs to its author.

/** A document whose first paragraph holds `text` with `marks`; where the text starts. */
function withText(text: string, marks: readonly Mark[] = []): { doc: PMNode; at: number } {
  const empty = createDocument(schema, standardArticle, { title: 'Rule' });
  const at = firstParagraphStart(empty);
  return { doc: new Transform(empty).insert(at, schema.text(text, marks)).doc, at };
}

const formatChange = (user: Reviewer, before: string[] = [], after: string[] = []) =>
  schema.marks.format_change.create({ user: user.id, username: user.username, date: 1, before, after });
const deletion = (user: Reviewer) =>
  schema.marks.deletion.create({ user: user.id, username: user.username, date: 1 });

/** Whether `user` may send the steps `change` makes on `doc`. */
function allowed(doc: PMNode, user: Reviewer, change: (tr: Transform) => void, may = SUGGEST): boolean {
  const tr = new Transform(doc);
  change(tr);
  return reviewStepsAllowed(tr.steps, doc, user.id, may);
}

describe('formatting by a suggester is recorded, or refused', () => {
  const { doc, at } = withText('hello world');
  const bold = schema.marks.strong.create();

  it('refuses formatting under an empty format change of their own', () => {
    const marked = (tr: Transform) => tr.addMark(at, at + 5, formatChange(ada));
    expect(allowed(doc, ada, marked)).toBe(true);
    expect(allowed(doc, ada, (tr) => marked(tr).addMark(at, at + 5, bold))).toBe(false);
    const withEmpty = new Transform(doc).addMark(at, at + 5, formatChange(ada)).doc;
    expect(allowed(withEmpty, ada, (tr) => tr.addMark(at, at + 5, bold))).toBe(false);
    const link = schema.marks.link.create({ href: 'javascript:alert(1)' });
    expect(allowed(withEmpty, ada, (tr) => tr.addMark(at, at + 5, link))).toBe(false);
  });

  it('refuses removing formatting the text had, and records that claim nothing happened', () => {
    const { doc: boldDoc, at: start } = withText('bold', [bold]);
    const empty = new Transform(boldDoc).addMark(start, start + 4, formatChange(ada)).doc;
    expect(allowed(empty, ada, (tr) => tr.removeMark(start, start + 4, schema.marks.strong))).toBe(false);
    // A record saying bold was added, on text that was bold already: rejecting it would unbold it.
    expect(
      allowed(boldDoc, ada, (tr) => tr.addMark(start, start + 4, formatChange(ada, [], ['strong']))),
    ).toBe(false);
    // A record saying bold was removed, on text that never was bold: rejecting it would add bold.
    expect(allowed(doc, ada, (tr) => tr.addMark(at, at + 5, formatChange(ada, ['strong'], [])))).toBe(false);
  });

  it('lets suggestion mode add and remove formatting and links, and reject takes them all back', () => {
    let state = EditorState.create({ doc });
    const link = schema.marks.link.create({ href: 'https://example.org/' });
    for (const change of [
      (tr: Transform) => tr.addMark(at, at + 5, bold),
      (tr: Transform) => tr.addMark(at + 6, at + 11, link),
      (tr: Transform) => tr.removeMark(at, at + 3, schema.marks.strong),
    ]) {
      const tr = state.tr;
      change(tr);
      const tracked = trackTransaction(tr, state, ada, 1000);
      if (!tracked) throw new Error('not trackable');
      expect(reviewStepsAllowed(tracked.steps, state.doc, ada.id, SUGGEST)).toBe(true);
      state = state.apply(tracked);
    }
    const reject = state.tr;
    decideChanges(reject, trackedChanges(state.doc), false);
    expect(reject.doc.eq(doc)).toBe(true);
  });

  it("lets suggestion mode change an existing link's address, recorded as removed and added", () => {
    const old = schema.marks.link.create({ href: 'https://example.org/old' });
    const { doc: linked, at: start } = withText('here', [old]);
    const state = EditorState.create({ doc: linked });
    const tr = state.tr.addMark(
      start,
      start + 4,
      schema.marks.link.create({ href: 'https://example.org/new' }),
    );
    const tracked = trackTransaction(tr, state, ada, 1000);
    if (!tracked) throw new Error('not trackable');
    expect(reviewStepsAllowed(tracked.steps, linked, ada.id, SUGGEST)).toBe(true);
    const record = tracked.doc.nodeAt(start)?.marks.find((m) => m.type.name === 'format_change');
    expect(record?.attrs).toMatchObject({ before: ['link'], after: ['link'] });
    // Changed without a record, the address would change for good.
    const silent = (t: Transform) =>
      t.addMark(start, start + 4, schema.marks.link.create({ href: 'https://example.org/new' }));
    expect(allowed(linked, ada, silent)).toBe(false);
  });

  it("never replaces another author's format change", () => {
    const bobs = new Transform(doc)
      .addMark(at, at + 5, formatChange(bob, [], ['strong']))
      .addMark(at, at + 5, bold).doc;
    expect(allowed(bobs, ada, (tr) => tr.addMark(at, at + 5, formatChange(ada)))).toBe(false);
    expect(allowed(bobs, ada, (tr) => tr.addMark(at, at + 5, formatChange(ada, [], ['strong'])))).toBe(false);
  });
});

describe('a suggestion belongs to its author', () => {
  it("refuses marking another author's deletion as one's own, and so withdrawing it", () => {
    const { doc, at } = withText('hello', [deletion(bob)]);
    expect(allowed(doc, ada, (tr) => tr.addMark(at, at + 5, deletion(ada)))).toBe(false);
    expect(
      allowed(doc, ada, (tr) => tr.addMark(at, at + 5, deletion(ada)).removeMark(at, at + 5, deletion(ada))),
    ).toBe(false);
    expect(allowed(doc, ada, (tr) => tr.removeMark(at, at + 5, schema.marks.deletion))).toBe(false);
    // Their own deletion they may withdraw.
    const own = withText('hello', [deletion(ada)]);
    expect(allowed(own.doc, ada, (tr) => tr.removeMark(own.at, own.at + 5, deletion(ada)))).toBe(true);
  });

  it("refuses inserting text that carries someone else's suggestion", () => {
    const { doc, at } = withText('hello');
    const mine = schema.marks.insertion.create({ user: ada.id, username: 'ada', date: 1 });
    expect(allowed(doc, ada, (tr) => tr.insert(at, schema.text('x', [mine])))).toBe(true);
    expect(allowed(doc, ada, (tr) => tr.insert(at, schema.text('x', [mine, deletion(bob)])))).toBe(false);
    expect(allowed(doc, ada, (tr) => tr.insert(at, schema.text('x', [mine, formatChange(bob)])))).toBe(false);
  });

  it("refuses replacing another author's suggestion on a block", () => {
    const { doc, at } = withText('hello');
    const paragraph = at - 1;
    const bobs = new Transform(doc).step(new AddNodeMarkStep(paragraph, deletion(bob))).doc;
    expect(allowed(bobs, ada, (tr) => tr.step(new AddNodeMarkStep(paragraph, deletion(ada))))).toBe(false);
    expect(allowed(doc, ada, (tr) => tr.step(new AddNodeMarkStep(paragraph, deletion(ada))))).toBe(true);
  });

  it('lets a commenter remove the anchors of their own threads only', () => {
    const anchor = (id: number) => schema.marks.comment.create({ id });
    const { doc, at } = withText('hello', [anchor(7), anchor(8)]);
    const may = { comments: true, suggestions: false, othersThreads: new Set([8]) };
    expect(allowed(doc, ada, (tr) => tr.removeMark(at, at + 5, anchor(7)), may)).toBe(true);
    expect(allowed(doc, ada, (tr) => tr.removeMark(at, at + 5, anchor(8)), may)).toBe(false);
    expect(allowed(doc, ada, (tr) => tr.addMark(at, at + 2, anchor(9)), may)).toBe(true);
  });
});
