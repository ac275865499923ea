import { splitBlock } from 'prosemirror-commands';
import { EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import {
  firstChangeFrom,
  indexReview,
  type ReviewIndex,
  touchedRanges,
  updateReviewIndex,
} from './review-index';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';
import { addCommentAnchor, decideChanges, trackedChanges, trackTransaction } from './track-changes';

const ada = { id: 1, username: 'ada' };

function start(): { state: EditorState; at: number } {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  let at = -1;
  empty.forEach((part, offset) => {
    if (part.attrs.id === 'body') at = offset + 2;
  });
  const tr = new Transform(empty).insert(at, schema.text('alpha beta gamma delta epsilon'));
  return { state: EditorState.create({ doc: tr.doc }), at };
}

const plain = (index: ReviewIndex) => ({
  changes: index.changes.map((c) => `${c.block ? 'block ' : ''}${c.type} ${c.from}-${c.to} ${c.username}`),
  anchors: [...index.anchors.values()].sort((a, b) => a.id - b.id),
});

describe('the review index', () => {
  it('stays equal to a full scan through tracked edits, splits, comments and decisions', () => {
    let { state, at } = start();
    let index = indexReview(state.doc);
    const apply = (tr: Transaction) => {
      index = updateReviewIndex(index, tr.doc, tr.mapping, tr.steps, touchedRanges(tr));
      state = state.apply(tr);
      expect(plain(index)).toEqual(plain(indexReview(state.doc)));
    };
    const suggest = (change: (tr: Transaction) => void) => {
      const tr = state.tr;
      change(tr);
      apply(trackTransaction(tr, state, ada, 5)!);
    };
    suggest((tr) => tr.insertText('new ', at + 6));
    suggest((tr) => tr.delete(at + 15, at + 20));
    apply(addCommentAnchor(state.tr, at, at + 5, 7));
    suggest((tr) => tr.addMark(at + 21, at + 26, schema.marks.strong.create()));
    state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, at + 10)));
    let split: Transaction | null = null;
    splitBlock(state, (tr) => (split = tr));
    suggest((tr) => {
      for (const step of (split as unknown as Transaction).steps) tr.step(step);
    });
    suggest((tr) => tr.insertText('typed', at + 2));
    // Someone else's edit far away, then a decision on all changes.
    apply(state.tr.insertText('x', state.doc.content.size - 3));
    const decided = state.tr;
    decideChanges(decided, trackedChanges(state.doc).slice(0, 2), true);
    apply(decided);
    expect(index.changes.length).toBeGreaterThan(0);
    expect(index.anchors.get(7)).toBeDefined();
  });

  it('keeps order and overlapping changes through typing before, inside and after them', () => {
    let { state, at } = start();
    const bob = { id: 2, username: 'bob' };
    // A second paragraph with Bob's insertion, and Ada's deletion of the same text (two changes at
    // one place); typing in the first moves them.
    const second = state.doc.resolve(at).after();
    let tr = state.tr.insert(second, schema.nodes.paragraph.create(null, schema.text('zeta eta theta iota')));
    const p = second + 1;
    tr.addMark(p + 5, p + 8, schema.marks.insertion.create({ user: 2, username: 'bob' }));
    tr.addMark(p + 5, p + 8, schema.marks.deletion.create({ user: 1, username: 'ada' }));
    tr.addMark(p + 9, p + 14, schema.marks.insertion.create({ user: 2, username: 'bob' }));
    state = state.apply(tr);
    let index = indexReview(state.doc);
    // Some text typed by ada, tracked or not, at many places (a seeded sequence, the same each run).
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 60; i++) {
      // In the first paragraph mostly, sometimes in the second.
      const start = i % 5 === 4 ? state.doc.resolve(at).after() + 1 : at;
      const pos = start + random(state.doc.resolve(start).end() - start + 1);
      tr = state.tr.insertText(i % 7 === 0 ? ' ' : 'x', pos);
      if (i % 3 === 0) tr = trackTransaction(tr, state, i % 2 ? ada : bob, i) ?? tr;
      index = updateReviewIndex(index, tr.doc, tr.mapping, tr.steps, touchedRanges(tr));
      state = state.apply(tr);
      expect(plain(index)).toEqual(plain(indexReview(state.doc)));
    }
    expect(index.changes.length).toBeGreaterThan(3);
  });

  it('finds the first change at or after a position', () => {
    const changes = [10, 20, 20, 35].map((from) => ({ from }) as ReviewIndex['changes'][number]);
    expect([0, 10, 11, 20, 21, 36].map((pos) => firstChangeFrom(changes, pos))).toEqual([0, 0, 1, 1, 3, 4]);
  });
});
