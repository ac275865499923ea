import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { addCommentAnchor, decideChanges, trackedChanges } from '@scriptorium/common/editor/track-changes';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, type Transaction } from 'prosemirror-state';
import { Transform } from 'prosemirror-transform';
import type { Decoration, DecorationSet } from 'prosemirror-view';
import { describe, expect, it } from 'vitest';
import { reviewKey, reviewPlugin } from './review-plugin';

const bob = { user: 2, username: 'Bob', date: 1 };

/** Six paragraphs in the body; the second has Bob's insertion and thread 1, the fifth thread 2. */
function reviewed(): { doc: PMNode; paragraphs: number[] } {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  let at = -1;
  empty.forEach((part, offset) => {
    if (part.attrs.id === 'body') at = offset + 1;
  });
  const tr = new Transform(empty);
  const texts = ['one two', 'three four', 'five six', 'seven eight', 'nine ten', 'eleven twelve'];
  // The body holds an empty paragraph: replace it.
  tr.replaceWith(
    at,
    at + (tr.doc.nodeAt(at)?.nodeSize ?? 0),
    texts.map((text) => schema.nodes.paragraph.create(null, schema.text(text))),
  );
  const paragraphs: number[] = [];
  tr.doc.nodesBetween(at, tr.doc.content.size, (node, pos) => {
    if (node.type.name === 'paragraph') paragraphs.push(pos + 1);
    return node.type.name !== 'paragraph';
  });
  tr.addMark(paragraphs[1], paragraphs[1] + 5, schema.marks.insertion.create(bob));
  tr.addMark(paragraphs[1] + 6, paragraphs[1] + 10, schema.marks.comment.create({ id: 1 }));
  tr.addMark(paragraphs[4], paragraphs[4] + 4, schema.marks.comment.create({ id: 2 }));
  tr.addMark(paragraphs[5], paragraphs[5] + 6, schema.marks.deletion.create(bob));
  return { doc: tr.doc, paragraphs };
}

function setUp() {
  const highlight = { shown: new Set([1, 2]) as ReadonlySet<number>, active: null as number | null };
  const options = {
    suggesting: () => false,
    highlighted: () => highlight.shown,
    activeThread: () => highlight.active,
    colour: (user: number) => `#00000${user}`,
  };
  const plugin = reviewPlugin(options);
  const { doc, paragraphs } = reviewed();
  const state = EditorState.create({ doc, plugins: [plugin] });
  /** What the view draws: the decorations prop. */
  const drawn = (s: EditorState) => plugin.props.decorations?.call(plugin, s) as DecorationSet;
  /** The same made from scratch, by a new plugin on the same document. */
  const fresh = (s: EditorState) => {
    const other = reviewPlugin(options);
    return other.props.decorations?.call(
      other,
      EditorState.create({ doc: s.doc, plugins: [other] }),
    ) as DecorationSet;
  };
  return { highlight, state, drawn, fresh, paragraphs };
}

/** Decorations as comparable text (sorted). */
function listed(set: DecorationSet): string[] {
  return set
    .find()
    .map(
      (d) => `${d.from}-${d.to} ${JSON.stringify((d as unknown as { type: { attrs: unknown } }).type.attrs)}`,
    )
    .sort();
}

/** What the decorations in [from, to] are made of (find copies them; their type stays the same object). */
function within(set: DecorationSet, from: number, to: number): unknown[] {
  return set.find(from, to).map((d: Decoration) => (d as unknown as { type: unknown }).type);
}

describe('the review plugin', () => {
  it('draws typed text like a fresh start: marks moved by text typed before them', () => {
    let { state, drawn, fresh, paragraphs } = setUp();
    const before = listed(drawn(state));
    state = state.apply(state.tr.insertText('xyz', paragraphs[0]));
    expect(listed(drawn(state))).toEqual(listed(fresh(state)));
    // Everything after the typing moved by three.
    expect(listed(drawn(state))).not.toEqual(before);
    expect(drawn(state).find(paragraphs[1] + 3, paragraphs[1] + 8).length).toBeGreaterThan(0);
    expect(reviewKey.getState(state)?.index.anchors.get(1)).toEqual({
      id: 1,
      from: paragraphs[1] + 9,
      to: paragraphs[1] + 13,
    });
    // Typed inside the insertion: it grows, the comment after it moves.
    state = state.apply(state.tr.insertText('q', paragraphs[1] + 5));
    expect(listed(drawn(state))).toEqual(listed(fresh(state)));
    expect(reviewKey.getState(state)?.index.changes.map((c) => [c.type, c.from, c.to])).toEqual([
      ['insertion', paragraphs[1] + 3, paragraphs[1] + 9],
      ['deletion', paragraphs[5] + 4, paragraphs[5] + 10],
    ]);
  });

  it('removes an accepted change and a removed comment', () => {
    let { state, drawn, fresh } = setUp();
    const tr: Transaction = state.tr;
    decideChanges(tr, trackedChanges(state.doc).slice(0, 1), true);
    state = state.apply(tr);
    expect(listed(drawn(state))).toEqual(listed(fresh(state)));
    expect(listed(drawn(state)).some((text) => text.includes('review-insertion'))).toBe(false);
    const anchor = reviewKey.getState(state)?.index.anchors.get(2);
    if (!anchor) throw new Error('thread 2 has an anchor');
    state = state.apply(state.tr.removeMark(anchor.from, anchor.to, schema.marks.comment));
    expect(listed(drawn(state))).toEqual(listed(fresh(state)));
    expect(listed(drawn(state)).some((text) => text.includes('"data-thread":"2"'))).toBe(false);
  });

  it('highlights a thread anew without drawing the other paragraphs again', () => {
    let { highlight, state, drawn, fresh, paragraphs } = setUp();
    const far = within(drawn(state), paragraphs[5], paragraphs[5] + 6);
    expect(far).toHaveLength(1);
    // Thread 2 resolved (an answer from the server, no transaction), thread 1 in focus.
    highlight.shown = new Set([1]);
    highlight.active = 1;
    expect(listed(drawn(state))).toEqual(listed(fresh(state)));
    expect(listed(drawn(state)).some((text) => text.includes('review-comment-active'))).toBe(true);
    expect(within(drawn(state), paragraphs[5], paragraphs[5] + 6)[0]).toBe(far[0]);
    // The next keystroke goes on from what is drawn: still the same objects, and still right.
    state = state.apply(state.tr.insertText('a', paragraphs[2]));
    expect(listed(drawn(state))).toEqual(listed(fresh(state)));
    expect(within(drawn(state), paragraphs[5] + 1, paragraphs[5] + 7)[0]).toBe(far[0]);
    // A new comment on the first paragraph, highlighted once its thread is shown.
    highlight.shown = new Set([1, 3]);
    state = state.apply(addCommentAnchor(state.tr, paragraphs[0], paragraphs[0] + 3, 3));
    expect(listed(drawn(state))).toEqual(listed(fresh(state)));
    expect(listed(drawn(state)).some((text) => text.includes('"data-thread":"3"'))).toBe(true);
  });
});
