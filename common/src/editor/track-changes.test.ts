import { joinBackward, joinForward, setBlockType, splitBlock } from 'prosemirror-commands';
import { history, undo } from 'prosemirror-history';
import { splitListItem, wrapInList } from 'prosemirror-schema-list';
import { type Command, EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';
import { ada, bob, firstParagraphStart, SUGGEST } from './testing';
import {
  addCommentAnchor,
  commentAnchors,
  currentChanges,
  decideChanges,
  type Reviewer,
  removeCommentAnchor,
  reviewStepAllowed,
  reviewStepsAllowed,
  trackedChanges,
  trackTransaction,
} from './track-changes';

/** A document whose first paragraph holds `text`; the caret at its start. */
function stateWith(text: string): { state: EditorState; at: number } {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  const at = firstParagraphStart(empty);
  const doc = new Transform(empty).insert(at, schema.text(text)).doc;
  const state = EditorState.create({ doc, plugins: [history()] });
  return { state: state.apply(state.tr.setSelection(TextSelection.create(doc, at))), at };
}

/** Runs `change` on the state in suggestion mode as `user`; checks each produced step with the server's rule. */
function suggest(state: EditorState, user: Reviewer, change: (tr: Transaction) => void): EditorState {
  const tr = state.tr;
  change(tr);
  const tracked = trackTransaction(tr, state, user, 1000);
  if (!tracked) throw new Error('not trackable');
  expect(
    reviewStepsAllowed(tracked.steps, state.doc, user.id, SUGGEST),
    JSON.stringify(tracked.steps.map((step) => step.toJSON())),
  ).toBe(true);
  return state.apply(tracked);
}

/** The paragraph's text as runs: 'text' plus +ins / -del markers with the author. */
function runs(state: EditorState, at: number): string[] {
  const paragraph = state.doc.resolve(at).parent;
  const out: string[] = [];
  paragraph.forEach((node) => {
    const tags = node.marks
      .map((m) =>
        m.type.name === 'insertion'
          ? `+${m.attrs.username}`
          : m.type.name === 'deletion'
            ? `-${m.attrs.username}`
            : m.type.name === 'format_change'
              ? `~${(m.attrs.after as string[]).join(',')}/${(m.attrs.before as string[]).join(',')}`
              : m.type.name,
      )
      .sort();
    out.push(`${node.text}${tags.length ? `[${tags.join(' ')}]` : ''}`);
  });
  return out;
}

describe('suggestion mode', () => {
  it('records typed text as an insertion, extending the same author’s insertion', () => {
    let { state, at } = stateWith('hello');
    state = suggest(state, ada, (tr) => tr.insertText('X', at + 2));
    state = suggest(state, ada, (tr) => tr.insertText('Y', at + 3));
    expect(runs(state, at)).toEqual(['he', 'XY[+ada]', 'llo']);
    expect(trackedChanges(state.doc)).toHaveLength(1);
  });

  it('places a later step of one transaction inside text an earlier step inserted (a typo mended)', () => {
    let { state, at } = stateWith('x');
    state = suggest(state, ada, (tr) => {
      tr.insertText('helo ', at);
      tr.insertText('l', at + 3);
      // Text written where a deletion was goes after the text kept as deleted.
      tr.delete(at + 6, at + 7);
      tr.insertText('!', at + 6);
    });
    expect(runs(state, at)).toEqual(['hello [+ada]', 'x[-ada]', '![+ada]']);
  });

  it('keeps deleted text with a deletion mark, and really deletes an own insertion', () => {
    let { state, at } = stateWith('hello');
    state = suggest(state, ada, (tr) => tr.delete(at + 1, at + 3));
    expect(runs(state, at)).toEqual(['h', 'el[-ada]', 'lo']);
    state = suggest(state, ada, (tr) => tr.insertText('ZZ', at + 5));
    state = suggest(state, ada, (tr) => tr.delete(at + 5, at + 6));
    expect(runs(state, at)).toEqual(['h', 'el[-ada]', 'lo', 'Z[+ada]']);
  });

  it('puts text typed over a selection after the text it marks as deleted', () => {
    let { state, at } = stateWith('hello');
    state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, at, at + 5)));
    state = suggest(state, ada, (tr) => tr.replaceSelectionWith(schema.text('bye')));
    expect(runs(state, at)).toEqual(['hello[-ada]', 'bye[+ada]']);
    expect(state.selection.head).toBe(at + 8);
  });

  it('leaves the caret before the marked character on Backspace and after it on Delete', () => {
    let { state, at } = stateWith('abc');
    state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, at + 2)));
    state = suggest(state, ada, (tr) => tr.delete(at + 1, at + 2));
    expect(state.selection.head).toBe(at + 1);
    state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, at + 2)));
    state = suggest(state, ada, (tr) => tr.delete(at + 2, at + 3));
    expect(state.selection.head).toBe(at + 3);
    expect(runs(state, at)).toEqual(['a', 'bc[-ada]']);
  });

  it('records a format change with what was added and removed, and forgets it when undone by hand', () => {
    let { state, at } = stateWith('hello');
    state = suggest(state, ada, (tr) => tr.addMark(at, at + 5, schema.marks.strong.create()));
    expect(runs(state, at)).toEqual(['hello[strong ~strong/]']);
    state = suggest(state, ada, (tr) => tr.removeMark(at, at + 5, schema.marks.strong));
    expect(runs(state, at)).toEqual(['hello']);
  });

  it('lets another author delete a suggested insertion (both marks), and decides them separately', () => {
    let { state, at } = stateWith('hello');
    state = suggest(state, ada, (tr) => tr.insertText('NEW', at + 5));
    state = suggest(state, bob, (tr) => tr.delete(at + 6, at + 7));
    expect(runs(state, at)).toEqual(['hello', 'N[+ada]', 'E[+ada -bob]', 'W[+ada]']);
    // Rejecting bob's deletion keeps ada's insertion whole.
    const tr = state.tr;
    const bobs = trackedChanges(state.doc).filter((c) => c.user === bob.id);
    expect(decideChanges(tr, bobs, false)).toBe(1);
    state = state.apply(tr);
    expect(runs(state, at)).toEqual(['hello', 'NEW[+ada]']);
  });

  it('undoes a suggestion with steps the server accepts', () => {
    let { state, at } = stateWith('hello');
    state = suggest(state, ada, (tr) => tr.insertText('X', at + 1));
    state = suggest(state, ada, (tr) => tr.delete(at + 3, at + 4));
    let undone: Transaction | null = null;
    undo(state, (tr) => {
      undone = tr;
    });
    expect(undone).not.toBeNull();
    let doc = state.doc;
    for (const step of (undone as unknown as Transaction).steps) {
      expect(reviewStepAllowed(step, doc, ada.id, SUGGEST)).toBe(true);
      doc = step.apply(doc).doc!;
    }
  });
});

describe('accepting and rejecting', () => {
  function withChanges() {
    let { state, at } = stateWith('one two three');
    state = suggest(state, ada, (tr) => tr.insertText('big ', at + 4));
    state = suggest(state, bob, (tr) => tr.delete(at + 12, at + 17));
    state = suggest(state, ada, (tr) => tr.addMark(at, at + 3, schema.marks.em.create()));
    return { state, at };
  }

  it('lists changes in document order with author and type', () => {
    const { state } = withChanges();
    expect(trackedChanges(state.doc).map((c) => `${c.type}:${c.username}`)).toEqual([
      'format_change:ada',
      'insertion:ada',
      'deletion:bob',
    ]);
  });

  it('accepts all: insertions stay plain, deletions go, formats stay', () => {
    let { state, at } = withChanges();
    const tr = state.tr;
    expect(decideChanges(tr, trackedChanges(state.doc), true)).toBe(3);
    state = state.apply(tr);
    expect(state.doc.resolve(at).parent.textContent).toBe('one big two ');
    expect(trackedChanges(state.doc)).toEqual([]);
    expect(runs(state, at)[0]).toBe('one[em]');
  });

  it('rejects all: insertions go, deletions stay, formats are undone', () => {
    let { state, at } = withChanges();
    const tr = state.tr;
    decideChanges(tr, trackedChanges(state.doc), false);
    state = state.apply(tr);
    expect(runs(state, at)).toEqual(['one two three']);
  });

  it('decides all of one author only', () => {
    let { state, at } = withChanges();
    const tr = state.tr;
    expect(
      decideChanges(
        tr,
        trackedChanges(state.doc).filter((c) => c.user === ada.id),
        false,
      ),
    ).toBe(2);
    state = state.apply(tr);
    expect(runs(state, at)).toEqual(['one two ', 'three[-bob]']);
  });

  it('decides a change listed before later edits where it is now, not at its old place', () => {
    let { state, at } = stateWith('one two three');
    state = suggest(state, ada, (tr) => tr.insertText('big ', at + 4));
    const listed = trackedChanges(state.doc).filter((c) => c.type === 'insertion');
    // The owner writes before it (untracked) after the card was drawn: at the old positions the
    // change is no longer found, and deciding them would do nothing.
    state = state.apply(state.tr.insertText('Oh, ', at));
    expect(runs(state, at)).toEqual(['Oh, one ', 'big [+ada]', 'two three']);
    expect(decideChanges(state.tr, listed, false)).toBe(0);
    const current = currentChanges(state.doc, listed);
    expect(current.map((c) => state.doc.textBetween(c.from, c.to))).toEqual(['big ']);
    const tr = state.tr;
    expect(decideChanges(tr, current, false)).toBe(1);
    state = state.apply(tr);
    expect(runs(state, at)).toEqual(['Oh, one two three']);
    // Decided: it is no longer found.
    expect(currentChanges(state.doc, listed)).toEqual([]);
  });

  it('skips a change someone else decided meanwhile', () => {
    const { state } = withChanges();
    const [, insertion] = trackedChanges(state.doc);
    const first = state.tr;
    decideChanges(first, [insertion], true);
    const after = state.apply(first);
    expect(decideChanges(after.tr, [insertion], true)).toBe(0);
  });
});

describe('the rule for suggestions (server side)', () => {
  const { state, at } = stateWith('hello');
  const doc = state.doc;
  const check = (user: number, change: (tr: Transform) => void, may = SUGGEST) => {
    const tr = new Transform(doc);
    change(tr);
    return reviewStepsAllowed(tr.steps, doc, user, may);
  };
  const ins = (user: Reviewer) => schema.marks.insertion.create({ user: user.id, username: user.username });

  it('allows own insertions and deletion marks only', () => {
    expect(check(1, (tr) => tr.insert(at, schema.text('x', [ins(ada)])))).toBe(true);
    expect(check(1, (tr) => tr.insert(at, schema.text('x', [ins(bob)])))).toBe(false);
    expect(check(1, (tr) => tr.insert(at, schema.text('x')))).toBe(false);
    expect(check(1, (tr) => tr.delete(at, at + 2))).toBe(false);
    expect(check(1, (tr) => tr.addMark(at, at + 2, schema.marks.deletion.create({ user: 1 })))).toBe(true);
    expect(check(1, (tr) => tr.addMark(at, at + 2, schema.marks.deletion.create({ user: 2 })))).toBe(false);
    expect(check(1, (tr) => tr.addMark(at, at + 2, schema.marks.strong.create()))).toBe(false);
    expect(check(1, (tr) => tr.split(at + 2))).toBe(false);
  });

  it('does not let a suggester accept: removing an insertion mark is refused', () => {
    const marked = new Transform(doc).addMark(at, at + 2, ins(bob)).doc;
    const tr = new Transform(marked).removeMark(at, at + 2, ins(bob));
    expect(reviewStepAllowed(tr.steps[0], marked, 1, SUGGEST)).toBe(false);
    // Nor delete another author's insertion outright.
    const del = new Transform(marked).delete(at, at + 2);
    expect(reviewStepAllowed(del.steps[0], marked, 1, SUGGEST)).toBe(false);
  });

  it('gives comment-only rights comment anchors and nothing else', () => {
    const comment = { comments: true, suggestions: false };
    expect(check(1, (tr) => tr.addMark(at, at + 2, schema.marks.comment.create({ id: 5 })), comment)).toBe(
      true,
    );
    expect(check(1, (tr) => tr.insert(at, schema.text('x', [ins(ada)])), comment)).toBe(false);
    expect(check(1, (tr) => tr.addMark(at, at + 2, schema.marks.deletion.create({ user: 1 })), comment)).toBe(
      false,
    );
  });
});

describe('block structure in suggestion mode', () => {
  /** Runs an editor command as `user` in suggestion mode, checking each step with the server's rule. */
  function command(state: EditorState, user: Reviewer, run: Command): EditorState {
    let made: Transaction | null = null;
    expect(run(state, (tr) => (made = tr))).toBe(true);
    return suggest(state, user, (tr) => {
      for (const step of (made as unknown as Transaction).steps) tr.step(step);
      tr.setSelection(
        (made as unknown as Transaction).selection.map(tr.doc, tr.mapping.slice(tr.steps.length)),
      );
    });
  }
  const caret = (state: EditorState, pos: number) =>
    state.apply(state.tr.setSelection(TextSelection.create(state.doc, pos)));
  const tag = (marks: readonly { type: { name: string }; attrs: Record<string, unknown> }[]) => {
    const tags = marks.map((m) =>
      m.type.name === 'insertion'
        ? `+${m.attrs.username}`
        : m.type.name === 'deletion'
          ? `-${m.attrs.username}`
          : `~${(m.attrs.before as { type: string }).type}`,
    );
    return tags.length ? `[${tags.join(' ')}]` : '';
  };
  /** The blocks of the part around `at`: type (and level), text, the block's marks. */
  function blocks(state: EditorState, at: number): string[] {
    const part = state.doc.resolve(Math.min(at, state.doc.content.size)).node(1);
    const out: string[] = [];
    part.forEach((block) => {
      const name = block.type.name === 'heading' ? `h${block.attrs.level}` : block.type.name;
      if (block.isTextblock) out.push(`${name}:${block.textContent}${tag(block.marks)}`);
      else {
        const items: string[] = [];
        block.forEach((item) => {
          items.push(`${item.textContent}${tag(item.marks)}`);
        });
        out.push(`${name}(${items.join('|')})${tag(block.marks)}`);
      }
    });
    return out;
  }
  const decideAll = (state: EditorState, accept: boolean) => {
    const tr = state.tr;
    decideChanges(tr, trackedChanges(state.doc), accept);
    return state.apply(tr);
  };

  it('records Enter as a suggested new paragraph; accept keeps it, reject joins it again', () => {
    let { state, at } = stateWith('hello');
    state = command(caret(state, at + 2), ada, splitBlock);
    expect(blocks(state, at)).toEqual(['paragraph:he', 'paragraph:llo[+ada]']);
    expect(state.selection.head).toBe(at + 4);
    state = suggest(state, ada, (tr) => tr.insertText('New ', state.selection.head));
    expect(trackedChanges(state.doc).map((c) => `${c.type}${c.block ? ' block' : ''}`)).toEqual([
      'insertion block',
      'insertion',
    ]);
    expect(blocks(decideAll(state, true), at)).toEqual(['paragraph:he', 'paragraph:New llo']);
    expect(trackedChanges(decideAll(state, true).doc)).toEqual([]);
    const rejected = decideAll(state, false);
    expect(blocks(rejected, at)).toEqual(['paragraph:hello']);
    expect(trackedChanges(rejected.doc)).toEqual([]);
  });

  it('records Backspace at the start of a paragraph as a suggested join; accept joins, reject keeps both', () => {
    let { state, at } = stateWith('onetwo');
    state = state.apply(state.tr.split(at + 3));
    state = command(caret(state, at + 5), bob, joinBackward);
    expect(blocks(state, at)).toEqual(['paragraph:one', 'paragraph:two[-bob]']);
    expect(state.selection.head).toBe(at + 3);
    // Delete at the end of the first paragraph says the same once.
    state = command(state, bob, joinForward);
    expect(blocks(state, at)).toEqual(['paragraph:one', 'paragraph:two[-bob]']);
    expect(blocks(decideAll(state, true), at)).toEqual(['paragraph:onetwo']);
    expect(blocks(decideAll(state, false), at)).toEqual(['paragraph:one', 'paragraph:two']);
  });

  it('really joins an own new paragraph again (Enter then Backspace leaves no trace)', () => {
    let { state, at } = stateWith('hello');
    state = command(caret(state, at + 2), ada, splitBlock);
    state = command(state, ada, joinBackward);
    expect(blocks(state, at)).toEqual(['paragraph:hello']);
    expect(trackedChanges(state.doc)).toEqual([]);
  });

  it('records a heading level as a block change keeping the first type; reject restores it', () => {
    let { state, at } = stateWith('Title');
    state = command(caret(state, at + 1), ada, setBlockType(schema.nodes.heading, { level: 2 }));
    expect(blocks(state, at)).toEqual(['h2:Title[~paragraph]']);
    state = command(state, ada, setBlockType(schema.nodes.heading, { level: 3 }));
    expect(blocks(state, at)).toEqual(['h3:Title[~paragraph]']);
    expect(blocks(decideAll(state, false), at)).toEqual(['paragraph:Title']);
    expect(blocks(decideAll(state, true), at)).toEqual(['h3:Title']);
    // Changed back by hand: nothing left to decide.
    state = command(state, ada, setBlockType(schema.nodes.paragraph));
    expect(blocks(state, at)).toEqual(['paragraph:Title']);
    // Another author's recorded change is not overwritten.
    const changed = command(state, ada, setBlockType(schema.nodes.heading, { level: 1 }));
    let made: Transaction | null = null;
    setBlockType(schema.nodes.heading, { level: 4 })(changed, (tr) => (made = tr));
    expect(trackTransaction(made as unknown as Transaction, changed, bob)).toBeNull();
  });

  it('records Enter in a list item as a suggested item; reject joins the items again', () => {
    let { state, at } = stateWith('firstsecond');
    wrapInList(schema.nodes.bullet_list)(state, (tr) => (state = state.apply(tr)));
    const inside = at + 2;
    state = command(caret(state, inside + 5), ada, splitListItem(schema.nodes.list_item));
    expect(blocks(state, inside)).toEqual(['bullet_list(first|second[+ada])']);
    expect(blocks(decideAll(state, false), inside)).toEqual(['bullet_list(firstsecond)']);
    expect(blocks(decideAll(state, true), inside)).toEqual(['bullet_list(first|second)']);
  });

  it('marks a deletion across paragraphs as deleted text and a deleted boundary', () => {
    let { state, at } = stateWith('abcdef');
    state = state.apply(state.tr.split(at + 3));
    state = suggest(state, bob, (tr) => tr.delete(at + 2, at + 6));
    expect(blocks(state, at)).toEqual(['paragraph:abc', 'paragraph:def[-bob]']);
    expect(blocks(decideAll(state, true), at)).toEqual(['paragraph:abef']);
    expect(blocks(decideAll(state, false), at)).toEqual(['paragraph:abc', 'paragraph:def']);
  });

  it('undoes structural suggestions with steps the server accepts', () => {
    let { state, at } = stateWith('onetwo');
    state = state.apply(state.tr.split(at + 3));
    state = command(caret(state, at + 2), ada, splitBlock);
    state = command(caret(state, at + 7), ada, joinBackward);
    state = command(state, ada, setBlockType(schema.nodes.heading, { level: 2 }));
    for (let count = 0; count < 3; count++) {
      let undone: Transaction | null = null;
      undo(state, (tr) => (undone = tr));
      expect(undone).not.toBeNull();
      const steps = (undone as unknown as Transaction).steps;
      expect(
        reviewStepsAllowed(steps, state.doc, ada.id, SUGGEST),
        JSON.stringify(steps.map((step) => step.toJSON())),
      ).toBe(true);
      state = state.apply(undone as unknown as Transaction);
    }
    expect(blocks(state, at)).toEqual(['paragraph:one', 'paragraph:two']);
  });

  it('refuses on the server what is not the sender’s own structural suggestion', () => {
    const { state, at } = stateWith('onetwo');
    const split = (user: Reviewer) => {
      const tr = state.tr.split(at + 3);
      return trackTransaction(tr, state, user, 1)!;
    };
    // Bob's split sent by Ada; a split without any record.
    expect(reviewStepAllowed(split(bob).steps[0], state.doc, ada.id, SUGGEST)).toBe(false);
    expect(reviewStepAllowed(state.tr.split(at + 3).steps[0], state.doc, ada.id, SUGGEST)).toBe(false);
    expect(reviewStepAllowed(split(ada).steps[0], state.doc, ada.id, SUGGEST)).toBe(true);
    // Joining Bob's suggested paragraph is deciding it: not Ada's to do.
    const bobs = split(bob).doc;
    const join = new Transform(bobs).join(at + 4);
    expect(reviewStepAllowed(join.steps[0], bobs, ada.id, SUGGEST)).toBe(false);
    expect(reviewStepAllowed(join.steps[0], bobs, bob.id, SUGGEST)).toBe(true);
    // A block type change without a record; a deletion mark in someone else's name.
    const heading = new Transform(state.doc).setBlockType(at, at, schema.nodes.heading, { level: 1 });
    expect(reviewStepAllowed(heading.steps[0], state.doc, ada.id, SUGGEST)).toBe(false);
    const split2 = state.apply(state.tr.split(at + 3));
    const mark = new Transform(split2.doc).addNodeMark(
      at + 4,
      schema.marks.deletion.create({ user: bob.id }),
    );
    expect(reviewStepAllowed(mark.steps[0], split2.doc, ada.id, SUGGEST)).toBe(false);
    expect(reviewStepAllowed(mark.steps[0], split2.doc, bob.id, SUGGEST)).toBe(true);
    expect(reviewStepAllowed(mark.steps[0], split2.doc, bob.id, { comments: true, suggestions: false })).toBe(
      false,
    );
  });
});

describe('comment anchors', () => {
  it('overlap, move with the text and disappear with it', () => {
    let { state, at } = stateWith('abcdefgh');
    state = state.apply(addCommentAnchor(state.tr, at + 1, at + 5, 7));
    state = state.apply(addCommentAnchor(state.tr, at + 3, at + 7, 8));
    expect(commentAnchors(state.doc)).toEqual([
      { id: 7, from: at + 1, to: at + 5 },
      { id: 8, from: at + 3, to: at + 7 },
    ]);
    state = state.apply(state.tr.insertText('XYZ', at));
    expect(commentAnchors(state.doc)[0]).toEqual({ id: 7, from: at + 4, to: at + 8 });
    // Typing at the anchor's end does not extend it (inclusive: false).
    state = state.apply(state.tr.insertText('!', at + 8));
    expect(commentAnchors(state.doc)[0].to).toBe(at + 8);
    state = state.apply(state.tr.delete(at + 3, at + 9));
    expect(commentAnchors(state.doc).map((a) => a.id)).toEqual([8]);
    state = state.apply(removeCommentAnchor(state.tr, 8));
    expect(commentAnchors(state.doc)).toEqual([]);
  });

  it('survive suggestion mode: a deletion inside an anchor keeps the anchor', () => {
    let { state, at } = stateWith('abcdef');
    state = state.apply(addCommentAnchor(state.tr, at, at + 6, 3));
    state = suggest(state, ada, (tr) => tr.delete(at + 1, at + 3));
    expect(commentAnchors(state.doc)).toEqual([{ id: 3, from: at, to: at + 6 }]);
  });
});
