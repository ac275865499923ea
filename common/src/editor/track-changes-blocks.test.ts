import { baseKeymap, joinBackward } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { Fragment, type Node as PMNode, Slice } from 'prosemirror-model';
import { liftListItem, sinkListItem, splitListItem, wrapInList } from 'prosemirror-schema-list';
import { type Command, EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { CellSelection, fixTables, mergeCells, splitCell, TableMap } from 'prosemirror-tables';
import { ReplaceStep, Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { insertTable, liftOut, tableCommands, toggleBulletList, wrapInBlockquote } from './commands';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';
import { ada, bob, partStart, SUGGEST } from './testing';
import {
  decideChanges,
  type Reviewer,
  reviewStepAllowed,
  reviewStepsAllowed,
  trackedChanges,
  trackTransaction,
} from './track-changes';

/**
 * Lists, tables and pasted blocks in suggestion mode (issue 18): each case is tracked, then
 * accepted (the document must equal the one the untracked command makes) and rejected (the
 * document must equal the one before), every step checked with the server's rule.
 */

const p = (text = '') => schema.nodes.paragraph.create(null, text ? schema.text(text) : null);
const item = (text: string) => schema.nodes.list_item.create(null, p(text));
const bullets = (...texts: string[]) => schema.nodes.bullet_list.create(null, texts.map(item));
/** A list of `outer` whose item holds a nested list of `inner`, then the items `after`. */
const nest = (outer: string, inner: string | string[], ...after: string[]) =>
  schema.nodes.bullet_list.create(null, [
    schema.nodes.list_item.create(null, [p(outer), bullets(...[inner].flat())]),
    ...after.map(item),
  ]);

/** A state whose body holds `blocks`, the caret at `caret` (a position inside the body) or its start. */
function stateOf(blocks: PMNode[], caret?: (body: number) => number): { state: EditorState; body: number } {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  const body = partStart(empty, 'body');
  const part = empty.resolve(body).parent;
  const doc = new Transform(empty).replaceWith(body, body + part.content.size, blocks).doc;
  const state = EditorState.create({ doc, plugins: [history()] });
  const at = caret ? caret(body) : body + 1;
  return { state: state.apply(state.tr.setSelection(TextSelection.create(doc, at))), body };
}

function steps(state: EditorState, tr: Transaction, user: number): void {
  expect(
    reviewStepsAllowed(tr.steps, state.doc, user, SUGGEST),
    JSON.stringify(tr.steps.map((step) => step.toJSON())),
  ).toBe(true);
}

/** What `run` makes without tracking (what accepting must give). */
function untracked(state: EditorState, run: Command): EditorState {
  let made: Transaction | null = null;
  expect(run(state, (tr) => (made = tr))).toBe(true);
  return state.apply(made as unknown as Transaction);
}

/** Runs `run` in suggestion mode as `user`; every step must pass the server's rule. */
function suggested(state: EditorState, user: Reviewer, run: Command): EditorState {
  let made: Transaction | null = null;
  expect(run(state, (tr) => (made = tr))).toBe(true);
  const tracked = trackTransaction(made as unknown as Transaction, state, user, 1000);
  if (!tracked) throw new Error('not trackable');
  steps(state, tracked, user.id);
  return state.apply(tracked);
}

function decided(state: EditorState, accept: boolean, who?: Reviewer): EditorState {
  const tr = state.tr;
  const changes = trackedChanges(state.doc).filter((change) => !who || change.user === who.id);
  expect(decideChanges(tr, changes, accept)).toBe(changes.length);
  // The suggester withdrawing (rejecting) their own changes sends steps the server accepts.
  if (who) steps(state, tr, who.id);
  return state.apply(tr);
}

/** Tracks `run`, then checks accept = the untracked result and reject/withdraw = the start, exactly. */
function roundTrip(state: EditorState, run: Command): EditorState {
  const expected = untracked(state, run);
  const tracked = suggested(state, ada, run);
  expect(trackedChanges(tracked.doc).length).toBeGreaterThan(0);
  expect(trackedChanges(tracked.doc).every((change) => change.user === ada.id && change.date === 1000)).toBe(
    true,
  );
  expect(decided(tracked, true).doc.toJSON()).toEqual(expected.doc.toJSON());
  expect(decided(tracked, false).doc.toJSON()).toEqual(state.doc.toJSON());
  expect(decided(tracked, false, ada).doc.toJSON()).toEqual(state.doc.toJSON());
  return tracked;
}

const kinds = (state: EditorState) =>
  trackedChanges(state.doc).map((c) => `${c.type}${c.block ? `:${c.node}` : ''}`);

describe('lists as suggestions', () => {
  it('makes a paragraph a list: the list records it, reject takes the paragraph out again', () => {
    const { state } = stateOf([p('one'), p('two'), p('three')], (body) => body + 6);
    const tracked = roundTrip(state, toggleBulletList);
    expect(kinds(tracked)).toEqual(['block_change:bullet_list']);
    const list = tracked.doc.resolve(tracked.selection.from).node(-2);
    expect(list.type.name).toBe('bullet_list');
    expect(list.marks[0].attrs.before).toEqual({ structure: 'wrap' });
  });

  it('makes an ordered list and lets the suggester split items in it; reject restores one paragraph', () => {
    const { state } = stateOf([p('onetwo')], (body) => body + 4);
    let tracked = suggested(state, ada, wrapInList(schema.nodes.ordered_list));
    tracked = suggested(tracked, ada, splitListItem(schema.nodes.list_item));
    expect(kinds(tracked)).toEqual(['block_change:ordered_list', 'insertion:list_item']);
    expect(decided(tracked, false).doc.toJSON()).toEqual(state.doc.toJSON());
    expect(decided(tracked, false, ada).doc.toJSON()).toEqual(state.doc.toJSON());
    const accepted = decided(tracked, true).doc;
    const list = accepted.resolve(partStart(accepted, 'body')).parent.child(0);
    expect(list.toJSON()).toEqual(
      schema.nodes.ordered_list.create(null, [item('one'), item('two')]).toJSON(),
    );
  });

  it('puts paragraphs in a quotation the same way', () => {
    const { state, body } = stateOf([p('one'), p('two'), p('three')]);
    const both = state.apply(state.tr.setSelection(TextSelection.create(state.doc, body + 2, body + 7)));
    const quoted = roundTrip(both, wrapInBlockquote);
    expect(kinds(quoted)).toEqual(['block_change:blockquote']);
    // Lifted out again by its author: gone for real.
    expect(suggested(quoted, ada, liftOut).doc.toJSON()).toEqual(state.doc.toJSON());
  });

  it('takes the suggester’s own list back for real when they toggle it off', () => {
    const { state } = stateOf([p('one'), p('two')], (body) => body + 2);
    const listed = suggested(state, ada, toggleBulletList);
    const back = suggested(listed, ada, toggleBulletList);
    expect(back.doc.toJSON()).toEqual(state.doc.toJSON());
    // Someone else's list is only marked as lifted.
    const bobs = suggested(listed, bob, toggleBulletList);
    expect(kinds(bobs)).toEqual(['block_change:bullet_list', 'block_change:list_item']);
  });

  it('makes several paragraphs one list, an item each', () => {
    const { state, body } = stateOf([p('one'), p('two'), p('three')]);
    const both = state.apply(state.tr.setSelection(TextSelection.create(state.doc, body + 2, body + 7)));
    expect(kinds(roundTrip(both, toggleBulletList))).toEqual([
      'block_change:bullet_list',
      'insertion:list_item',
    ]);
  });

  it('lifts an item out of a list: recorded on the item, accept lifts it, reject keeps the list', () => {
    for (const index of [0, 1, 2]) {
      const { state } = stateOf([bullets('a', 'b', 'c')], (body) => body + 3 + index * 5);
      const tracked = roundTrip(state, liftListItem(schema.nodes.list_item));
      expect(kinds(tracked)).toEqual(['block_change:list_item']);
      // Nothing moved yet: the suggester still sees the item in the list.
      expect(tracked.doc.resolve(partStart(tracked.doc, 'body')).parent.child(0).childCount).toBe(3);
    }
  });

  it('records Enter in an empty last item and Backspace at the start of an item like the commands', () => {
    // p(x) is 3 long; the list's second item starts 5 after the first: its text at body + 11.
    const list = () => stateOf([p('x'), bullets('a', '')], (body) => body + 11).state;
    expect(kinds(roundTrip(list(), baseKeymap.Enter))).toEqual(['block_change:list_item']);
    expect(kinds(roundTrip(list(), baseKeymap.Backspace))).toEqual(['deletion:list_item']);
  });

  it('splits and joins list items', () => {
    const { state } = stateOf([bullets('firstsecond')], (body) => body + 8);
    roundTrip(state, splitListItem(schema.nodes.list_item));
    const two = stateOf([bullets('first', 'second')], (body) => body + 12).state;
    const tracked = roundTrip(two, joinBackward);
    expect(kinds(tracked)).toEqual(['deletion:list_item']);
  });
});

/** Whether the server's rule takes every step of `tr` from `user`. */
const check = (state: EditorState, user: number, tr: Transaction | Transform) => {
  let doc = state.doc;
  return tr.steps.every((step) => {
    const ok = reviewStepAllowed(step, doc, user, SUGGEST);
    doc = step.apply(doc).doc!;
    return ok;
  });
};

/** The transaction `run` makes (null when it does nothing). */
const made = (state: EditorState, run: Command): Transaction => {
  let tr: Transaction | null = null;
  run(state, (t) => (tr = t));
  return tr as unknown as Transaction;
};

describe('nested lists as suggestions', () => {
  const sink = sinkListItem(schema.nodes.list_item);
  const lift = liftListItem(schema.nodes.list_item);
  const bodyOf = (state: EditorState) => state.doc.resolve(partStart(state.doc, 'body')).parent;

  it('indents an item: a new nested list records it, accept = the indent, reject = the list as it was', () => {
    // a, b, c: the caret in b (body + 3 is a's text, each item 5 long).
    for (const at of [8, 13]) {
      const { state } = stateOf([bullets('a', 'b', 'c')], (body) => body + at);
      const tracked = roundTrip(state, sink);
      expect(kinds(tracked)).toEqual(['block_change:bullet_list']);
      expect(trackedChanges(tracked.doc)[0].mark.attrs.before).toEqual({ structure: 'sink' });
    }
  });

  it('indents several items at once, and into an item that holds a nested list already', () => {
    const { state, body } = stateOf([bullets('a', 'b', 'c')]);
    const two = state.apply(state.tr.setSelection(TextSelection.create(state.doc, body + 8, body + 13)));
    expect(kinds(roundTrip(two, sink))).toEqual(['block_change:bullet_list']);
    // a (b) c: c joins b's list when accepted; the suggestion is a list of its own meanwhile.
    const { state: nested } = stateOf([nest('a', 'b', 'c')], (body) => body + 15);
    const tracked = roundTrip(nested, sink);
    expect(bodyOf(tracked).child(0).child(0).childCount).toBe(3);
  });

  it('indents in an ordered list and twice in a row; accept joins both, reject restores the list', () => {
    const ordered = schema.nodes.ordered_list.create(null, [item('a'), item('b'), item('c')]);
    const { state } = stateOf([ordered], (body) => body + 8);
    roundTrip(state, sink);
    const { state: three } = stateOf([bullets('a', 'b', 'c')], (body) => body + 8);
    let tracked = suggested(three, ada, sink);
    const atC = tracked.doc.resolve(tracked.selection.from).end() + 6;
    tracked = suggested(
      tracked.apply(tracked.tr.setSelection(TextSelection.create(tracked.doc, atC))),
      ada,
      sink,
    );
    expect(kinds(tracked)).toEqual(['block_change:bullet_list', 'block_change:bullet_list']);
    expect(decided(tracked, true).doc.toJSON()).toEqual(
      stateOf([nest('a', ['b', 'c'])], (body) => body + 3).state.doc.toJSON(),
    );
    expect(decided(tracked, false).doc.toJSON()).toEqual(three.doc.toJSON());
    expect(decided(tracked, false, ada).doc.toJSON()).toEqual(three.doc.toJSON());
  });

  it('outdents an item: recorded on the item, accept = the outdent, reject = nothing moved', () => {
    // The only nested item; the first of two (the second becomes its child on accept); a selection of both.
    const cases: [PMNode, number, number?][] = [
      [nest('a', 'b', 'c'), 8],
      [nest('a', ['b', 'x'], 'c'), 8],
      [nest('a', ['b', 'x'], 'c'), 8, 13],
      [nest('a', ['b', 'x']), 13],
    ];
    for (const [list, from, to] of cases) {
      const { state, body } = stateOf([list]);
      const at = state.apply(
        state.tr.setSelection(TextSelection.create(state.doc, body + from, body + (to ?? from))),
      );
      const tracked = roundTrip(at, lift);
      expect(kinds(tracked).every((kind) => kind === 'block_change:list_item')).toBe(true);
      expect(trackedChanges(tracked.doc)[0].mark.attrs.before).toEqual({ structure: 'outdent' });
      // Nothing moved yet.
      expect(tracked.doc.eq(at.doc.type.create(at.doc.attrs, tracked.doc.content))).toBe(true);
      expect(bodyOf(tracked).child(0).childCount).toBe(list.childCount);
    }
  });

  it('takes the suggester’s own indent back for real when they outdent it; another’s is recorded', () => {
    const { state } = stateOf([bullets('a', 'b', 'c')], (body) => body + 8);
    const sunk = suggested(state, ada, sink);
    const back = suggested(sunk, ada, lift);
    expect(back.doc.toJSON()).toEqual(state.doc.toJSON());
    const bobs = suggested(sunk, bob, lift);
    expect(kinds(bobs)).toEqual(['block_change:bullet_list', 'block_change:list_item']);
    // One level only: outdenting again is refused (the editor says so).
    let tr: Transaction | null = null;
    lift(bobs, (t) => (tr = t));
    expect(tr && trackTransaction(tr, bobs, bob)).toBeNull();
  });

  it('undoes and redoes indents and outdents with steps the server accepts', () => {
    // b outdented (recorded), then c indented (into a new list after b's).
    const { state, body } = stateOf([nest('a', 'b', 'c', 'd')], (at) => at + 8);
    let current = suggested(state, ada, lift);
    current = suggested(
      current.apply(current.tr.setSelection(TextSelection.create(current.doc, body + 15))),
      ada,
      sink,
    );
    expect(kinds(current)).toEqual(['block_change:list_item', 'block_change:bullet_list']);
    const undoRedo = (run: Command) => {
      for (let done = made(current, run); done; done = made(current, run)) {
        expect(check(current, ada.id, done)).toBe(true);
        current = current.apply(done);
      }
    };
    const tracked = current.doc;
    undoRedo(undo);
    expect(current.doc.toJSON()).toEqual(state.doc.toJSON());
    undoRedo(redo);
    expect(current.doc.toJSON()).toEqual(tracked.toJSON());
  });
});

describe('tables as suggestions', () => {
  it('inserts a table in an empty paragraph and in the middle of text', () => {
    const empty = stateOf([p('before'), p()], (body) => body + 9).state;
    // The empty paragraph it replaces is a suggested join, as Backspace in it would be.
    const tracked = roundTrip(empty, insertTable(2, 2));
    expect(kinds(tracked)).toEqual(['deletion:paragraph', 'insertion:table']);
    const middle = stateOf([p('leftright')], (body) => body + 5).state;
    expect(kinds(roundTrip(middle, insertTable(2, 3)))).toEqual(['insertion:table', 'insertion:paragraph']);
  });

  /** A body with a 2×2 table after a paragraph; the caret in the first body cell. */
  function withTable(): EditorState {
    const { state } = stateOf([p('x')]);
    const made = untracked(
      state.apply(state.tr.setSelection(TextSelection.create(state.doc, state.selection.from + 1))),
      insertTable(2, 2),
    );
    let tr = made.tr;
    tr = tr.insertText('H1', made.selection.from);
    const filled = made.apply(tr);
    // Into the first cell of the body row.
    let cell = -1;
    filled.doc.descendants((node, pos) => {
      if (cell < 0 && node.type.name === 'table_cell') cell = pos + 2;
      return cell < 0;
    });
    return filled.apply(filled.tr.setSelection(TextSelection.create(filled.doc, cell)));
  }

  it('adds and removes rows and columns', () => {
    const state = withTable();
    expect(kinds(roundTrip(state, tableCommands.addRowAfter))).toEqual(['insertion:table_row']);
    expect(kinds(roundTrip(state, tableCommands.addColumnAfter))).toEqual([
      'insertion:table_header',
      'insertion:table_cell',
    ]);
    expect(kinds(roundTrip(state, tableCommands.deleteRow))).toEqual(['deletion:table_row']);
    expect(kinds(roundTrip(state, tableCommands.deleteColumn))).toEqual([
      'deletion:table_header',
      'deletion:table_cell',
    ]);
  });

  it('decides a column as one: deciding one of its cells decides them all', () => {
    const state = withTable();
    for (const run of [tableCommands.addColumnAfter, tableCommands.deleteColumn]) {
      const tracked = suggested(state, ada, run);
      const [first] = trackedChanges(tracked.doc);
      for (const accept of [true, false]) {
        const tr = tracked.tr;
        expect(decideChanges(tr, [first], accept)).toBe(2);
        expect(tracked.apply(tr).doc.toJSON()).toEqual((accept ? untracked(state, run) : state).doc.toJSON());
      }
    }
  });

  it('removes a suggested row for real when its author deletes it again', () => {
    const state = withTable();
    const added = suggested(state, ada, tableCommands.addRowAfter);
    let row = -1;
    added.doc.descendants((node, pos) => {
      if (node.type.name === 'table_row' && node.marks.length) row = pos;
      return row < 0;
    });
    const inRow = added.apply(added.tr.setSelection(TextSelection.create(added.doc, row + 3)));
    const removed = suggested(inRow, ada, tableCommands.deleteRow);
    expect(removed.doc.toJSON()).toEqual(state.doc.toJSON());
  });

  /** A body with `table` after a paragraph; the caret in the cell whose text is `text`. */
  function inTable(table: PMNode, text: string): EditorState {
    const { state } = stateOf([p('x'), table]);
    let at = -1;
    state.doc.descendants((node, pos) => {
      if (at < 0 && node.isText && node.text === text) at = pos;
      return at < 0;
    });
    return state.apply(state.tr.setSelection(TextSelection.create(state.doc, at)));
  }
  const cell = (text: string, rowspan = 1) => schema.nodes.table_cell.create({ rowspan }, p(text));
  const row = (...cells: PMNode[]) => schema.nodes.table_row.create(null, cells);
  const tableIn = (state: EditorState) => {
    let table: PMNode | null = null;
    state.doc.descendants((node) => {
      if (node.type.name === 'table') table = node;
      return !table;
    });
    return table as unknown as PMNode;
  };

  it('removes a row that a merged cell spans: the table keeps its shape until the removal is decided', () => {
    const spans = {
      // "a" spans rows 1 and 2; the second row is removed.
      'from above': [
        schema.nodes.table.create(null, [
          row(cell('a', 2), cell('b')),
          row(cell('d')),
          row(cell('e'), cell('f')),
        ]),
        'd',
      ],
      // "c" spans rows 2 and 3; the second row is removed, "c" moves down once accepted.
      'down from it': [
        schema.nodes.table.create(null, [
          row(cell('a'), cell('b')),
          row(cell('c', 2), cell('d')),
          row(cell('f')),
        ]),
        'd',
      ],
    } as const;
    for (const [table, text] of Object.values(spans)) {
      const state = inTable(table, text);
      const tracked = roundTrip(state, tableCommands.deleteRow);
      expect(kinds(tracked)).toEqual(['deletion:table_row']);
      // Only the mark: every cell and span as before, nothing for prosemirror-tables to mend.
      const shape = (node: PMNode) =>
        JSON.stringify(node.toJSON(), (key, value) => (key === 'marks' ? undefined : value));
      expect(shape(tableIn(tracked))).toBe(shape(tableIn(state)));
      expect(TableMap.get(tableIn(tracked)).problems).toBeNull();
      expect(fixTables(tracked)).toBeUndefined();
    }
  });

  it('removes two rows at once across merged cells', () => {
    const table = schema.nodes.table.create(null, [
      row(cell('a', 3), cell('b')),
      row(cell('c')),
      row(cell('d')),
      row(cell('e'), cell('f')),
    ]);
    const state = inTable(table, 'c');
    const $c = state.doc.resolve(state.selection.from);
    let dPos = -1;
    state.doc.descendants((node, pos) => {
      if (node.isText && node.text === 'd') dPos = pos;
      return dPos < 0;
    });
    const both = CellSelection.create(state.doc, $c.before(-1), state.doc.resolve(dPos).before(-1));
    const tracked = roundTrip(state.apply(state.tr.setSelection(both)), tableCommands.deleteRow);
    expect(kinds(tracked)).toEqual(['deletion:table_row', 'deletion:table_row']);
    expect(TableMap.get(tableIn(tracked)).problems).toBeNull();
  });

  it('types in cells as inserted text', () => {
    const state = withTable();
    const typed: Command = (s, dispatch) => {
      dispatch?.(s.tr.insertText('cell', s.selection.from));
      return true;
    };
    expect(kinds(roundTrip(state, typed))).toEqual(['insertion']);
    // Typing in a cell selection's cell works the same.
    const $cell = state.doc.resolve(state.selection.from - 2);
    expect(CellSelection.create(state.doc, $cell.pos).ranges.length).toBe(1);
  });
});

describe('pasted blocks as suggestions', () => {
  const table = schema.nodes.table.create(null, [
    schema.nodes.table_row.create(null, [
      schema.nodes.table_header.create(null, p('h')),
      schema.nodes.table_header.create(null, p('i')),
    ]),
  ]);
  const paste =
    (slice: Slice): Command =>
    (state, dispatch) => {
      dispatch?.(state.tr.replaceSelection(slice));
      return true;
    };

  it('pastes paragraphs, a list and a table into the middle of a paragraph', () => {
    const { state } = stateOf([p('leftright'), p('after')], (body) => body + 5);
    const slice = new Slice(
      Fragment.from([p('one'), p('two'), bullets('three', 'four'), table, p('five')]),
      1,
      1,
    );
    const tracked = roundTrip(state, paste(slice));
    expect(kinds(tracked)).toEqual([
      'insertion',
      'insertion:paragraph',
      'insertion',
      'insertion:bullet_list',
      'insertion:table',
      'insertion:paragraph',
      'insertion',
    ]);
  });

  it('pastes whole blocks between paragraphs and over a selection', () => {
    const between = stateOf([p('a'), p('b')], (body) => body + 2);
    const closed = new Slice(Fragment.from([bullets('x'), table]), 0, 0);
    expect(kinds(roundTrip(between.state, paste(closed)))).toEqual([
      'insertion:bullet_list',
      'insertion:table',
    ]);
    const { state, body } = stateOf([p('replace me')]);
    const selected = state.apply(state.tr.setSelection(TextSelection.create(state.doc, body + 1, body + 8)));
    const open = new Slice(Fragment.from([p('one'), p('two')]), 1, 1);
    expect(kinds(roundTrip(selected, paste(open)))).toEqual([
      'deletion',
      'insertion',
      'insertion:paragraph',
      'insertion',
    ]);
  });

  it('pastes list items holding several blocks into an item: rejecting leaves the item as it was', () => {
    // Into "left|right": an item of two paragraphs, then one holding a paragraph and a nested list.
    const { state } = stateOf([bullets('leftright'), p('after')], (body) => body + 7);
    const items = [
      item('one'),
      schema.nodes.list_item.create(null, [p('A'), p('B')]),
      schema.nodes.list_item.create(null, [p('C'), bullets('D')]),
      item('five'),
    ];
    const tracked = roundTrip(
      state,
      paste(new Slice(Fragment.from(schema.nodes.bullet_list.create(null, items)), 3, 3)),
    );
    // Three items split off ("one" continues "left"); in them, "B" and the nested list are new
    // blocks of their own, so that rejecting (checked by roundTrip) leaves "leftright" whole.
    const recorded = kinds(tracked).filter((kind) => kind.includes(':'));
    expect(recorded).toEqual([
      'insertion:list_item',
      'insertion:paragraph',
      'insertion:list_item',
      'insertion:bullet_list',
      'insertion:list_item',
    ]);
  });

  it('drops tracked marks the pasted blocks copied from elsewhere', () => {
    const { state } = stateOf([p('a'), p('b')], (body) => body + 2);
    const bobs = schema.marks.insertion.create({ user: bob.id, username: 'bob', date: 1 });
    const slice = new Slice(Fragment.from([table.mark([bobs]), p('x').mark([bobs])]), 0, 0);
    const tracked = suggested(state, ada, paste(slice));
    expect(trackedChanges(tracked.doc).every((change) => change.user === ada.id)).toBe(true);
  });
});

describe('the server rule for block suggestions', () => {
  it('still refuses what marks cannot record: merging and splitting table cells', () => {
    const { state } = stateOf([p('one'), p()], (body) => body + 6);
    const table = state.apply(made(state, insertTable(2, 2)));
    const cells: number[] = [];
    table.doc.descendants((node, pos) => {
      if (node.type.name === 'table_cell' || node.type.name === 'table_header') cells.push(pos);
      return node.type.name !== 'paragraph';
    });
    const two = table.apply(table.tr.setSelection(CellSelection.create(table.doc, cells[2], cells[3])));
    const merge = made(two, mergeCells);
    expect(trackTransaction(merge, two, ada)).toBeNull();
    const merged = two.apply(merge);
    expect(trackTransaction(made(merged, splitCell), merged, ada)).toBeNull();
  });

  it('takes a tracked indent and outdent, refuses them untracked', () => {
    const list = stateOf([bullets('a', 'b')], (body) => body + 8).state;
    const sink = made(list, sinkListItem(schema.nodes.list_item));
    expect(check(list, ada.id, sink)).toBe(false);
    const tracked = trackTransaction(sink, list, ada, 1)!;
    expect(check(list, ada.id, tracked)).toBe(true);
    // Bob may not send Ada's record, nor accept it.
    expect(check(list, bob.id, tracked)).toBe(false);
    const sunk = list.apply(tracked);
    const accept = sunk.tr;
    decideChanges(accept, trackedChanges(sunk.doc), true);
    expect(check(sunk, ada.id, accept)).toBe(false);
    const nested = stateOf([nest('a', 'b')], (body) => body + 8).state;
    const lift = made(nested, liftListItem(schema.nodes.list_item));
    expect(check(nested, ada.id, lift)).toBe(false);
    expect(check(nested, ada.id, trackTransaction(lift, nested, ada, 1)!)).toBe(true);
  });

  it('refuses untracked lists, tables, rows and pasted blocks', () => {
    const { state } = stateOf([p('one'), p('two')], (body) => body + 2);
    expect(check(state, ada.id, made(state, toggleBulletList))).toBe(false);
    expect(check(state, ada.id, made(state, insertTable(2, 2)))).toBe(false);
    const slice = new Slice(Fragment.from([p('x'), p('y')]), 1, 1);
    expect(check(state, ada.id, state.tr.replaceSelection(slice))).toBe(false);
    const list = stateOf([bullets('a', 'b')], (body) => body + 3).state;
    expect(check(list, ada.id, made(list, liftListItem(schema.nodes.list_item)))).toBe(false);
  });

  it('refuses another author’s suggestion sent by the wrong user, and accepting one’s own', () => {
    const { state } = stateOf([p('one'), p()], (body) => body + 6);
    const tr = trackTransaction(made(state, insertTable(2, 2)), state, bob, 1)!;
    expect(check(state, ada.id, tr)).toBe(false);
    expect(check(state, bob.id, tr)).toBe(true);
    const bobs = state.apply(tr);
    const accept = bobs.tr;
    decideChanges(accept, trackedChanges(bobs.doc), true);
    expect(check(bobs, bob.id, accept)).toBe(false);
    const listed = suggested(stateOf([p('one')]).state, ada, toggleBulletList);
    const acceptList = listed.tr;
    decideChanges(acceptList, trackedChanges(listed.doc), true);
    expect(check(listed, ada.id, acceptList)).toBe(false);
    // Bob may not withdraw Ada's list.
    const rejectList = listed.tr;
    decideChanges(rejectList, trackedChanges(listed.doc), false);
    expect(check(listed, bob.id, rejectList)).toBe(false);
    expect(check(listed, ada.id, rejectList)).toBe(true);
  });

  it('refuses an existing boundary re-made as the sender’s own split (which they could then join)', () => {
    const { state, body } = stateOf([p('a'), p('b')]);
    const mark = schema.marks.insertion.create({ user: ada.id, username: 'ada', date: 1 });
    // </p><p> replaced by a slice that closes "a" and opens a new paragraph carrying Ada's insertion.
    const slice = new Slice(Fragment.from([p(), p().mark([mark])]), 1, 1);
    const remade = new Transform(state.doc).step(new ReplaceStep(body + 2, body + 4, slice));
    expect(reviewStepAllowed(remade.steps[0], state.doc, ada.id, SUGGEST)).toBe(false);
  });

  it('undoes block suggestions with steps the server accepts', () => {
    const { state } = stateOf([p('leftright'), p()], (body) => body + 5);
    let current = suggested(state, ada, toggleBulletList);
    current = suggested(current, ada, insertTable(2, 2));
    current = suggested(current, ada, (s, d) => {
      d?.(s.tr.replaceSelection(new Slice(Fragment.from([p('x'), p('y')]), 1, 1)));
      return true;
    });
    // The history groups what came at once: undo until nothing is left.
    for (let undone = made(current, undo); undone; undone = made(current, undo)) {
      expect(check(current, ada.id, undone)).toBe(true);
      current = current.apply(undone);
    }
    expect(current.doc.toJSON()).toEqual(state.doc.toJSON());
  });
});

describe('attributes of an own new block', () => {
  it('lets the suggester set the id the editor gives a new table, not one of a table already there', () => {
    const { state } = stateOf([p('one'), p()], (body) => body + 6);
    const inserted = suggested(state, ada, insertTable(2, 2));
    let table = -1;
    inserted.doc.descendants((node, pos) => {
      if (node.type.name === 'table') table = pos;
      return table < 0;
    });
    const id = new Transform(inserted.doc).setNodeAttribute(table, 'id', 'T1');
    expect(reviewStepAllowed(id.steps[0], inserted.doc, ada.id, SUGGEST)).toBe(true);
    expect(reviewStepAllowed(id.steps[0], inserted.doc, bob.id, SUGGEST)).toBe(false);
    const accepted = decided(inserted, true);
    const again = new Transform(accepted.doc).setNodeAttribute(table, 'id', 'T2');
    expect(reviewStepAllowed(again.steps[0], accepted.doc, ada.id, SUGGEST)).toBe(false);
  });
});

describe('deleting across a table', () => {
  it('marks the text in the cells deleted, never a whole row', () => {
    const cells = (a: string, b: string) =>
      schema.nodes.table_row.create(null, [
        schema.nodes.table_cell.create(null, p(a)),
        schema.nodes.table_cell.create(null, p(b)),
      ]);
    const table = schema.nodes.table.create(null, [cells('a', 'b'), cells('c', 'd')]);
    const { state, body } = stateOf([table]);
    // From inside the first row's second cell to inside the second row's first cell.
    const from = body + 9;
    const to = body + 17;
    expect(state.doc.textBetween(from, to)).toBe('bc');
    const tracked = trackTransaction(state.tr.delete(from, to), state, ada, 1);
    expect(tracked).not.toBeNull();
    const marked = state.apply(tracked!);
    expect(kinds(marked)).toEqual(['deletion', 'deletion']);
    expect(decided(marked, false).doc.toJSON()).toEqual(state.doc.toJSON());
  });
});
