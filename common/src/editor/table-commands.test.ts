import { baseKeymap } from 'prosemirror-commands';
import { GapCursor } from 'prosemirror-gapcursor';
import type { Node as PMNode } from 'prosemirror-model';
import { type Command, EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import { CellSelection } from 'prosemirror-tables';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { indent, outdent } from './commands';
import { schema } from './schema';
import {
  documentEnd,
  gapRules,
  inHeaderRow,
  leaveTable,
  selectDocumentEnd,
  tableCommand,
  tableTab,
} from './table-commands';
import { createDocument, standardArticle } from './templates';
import { ada, partStart, SUGGEST } from './testing';
import { decideChanges, reviewStepsAllowed, trackedChanges, trackTransaction } from './track-changes';

const p = (text = '') => schema.nodes.paragraph.create(null, text ? schema.text(text) : null);
const cell = (text: string, header = false) =>
  (header ? schema.nodes.table_header : schema.nodes.table_cell).create(null, p(text));
/** A table of rows of cell texts; the first row a header row when `header`. */
const table = (rows: string[][], header = true) =>
  schema.nodes.table.create(
    null,
    rows.map((texts, index) =>
      schema.nodes.table_row.create(
        null,
        texts.map((text) => cell(text, header && index === 0)),
      ),
    ),
  );

/** A standard article whose body holds `blocks`, the caret in the text `caretIn` (at its end). */
function stateOf(blocks: PMNode[], caretIn?: string): EditorState {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  const body = partStart(empty, 'body');
  const part = empty.resolve(body).parent;
  const doc = new Transform(empty).replaceWith(body, body + part.content.size, blocks).doc;
  let at = body + 1;
  if (caretIn)
    doc.descendants((node, pos) => {
      if (node.isText && node.text === caretIn) at = pos + caretIn.length;
    });
  return EditorState.create({ doc, selection: TextSelection.create(doc, at) });
}

/** Runs `command`; the state after it (the command must apply). */
function run(state: EditorState, command: Command): EditorState {
  let made: Transaction | null = null;
  expect(command(state, (tr) => (made = tr))).toBe(true);
  return state.apply(made as unknown as Transaction);
}

/** The body's tables as rows of cell texts, "H:" before a header cell's. */
function tables(state: EditorState): string[][][] {
  const out: string[][][] = [];
  state.doc.descendants((node) => {
    if (node.type.name !== 'table') return true;
    const rows: string[][] = [];
    node.forEach((row) => {
      const cells: string[] = [];
      row.forEach((c) => {
        cells.push(`${c.type.name === 'table_header' ? 'H:' : ''}${c.textContent}`);
      });
      rows.push(cells);
    });
    out.push(rows);
    return false;
  });
  return out;
}

/** The body part's blocks as `type:text`. */
function bodyBlocks(state: EditorState): string[] {
  const body = state.doc.resolve(partStart(state.doc, 'body')).parent;
  const out: string[] = [];
  body.forEach((block) => {
    out.push(`${block.type.name}:${block.textContent}`);
  });
  return out;
}

/** Types `text` at the selection as the view does for a key (insertText over the selection). */
const type = (state: EditorState, text: string) => state.apply(state.tr.insertText(text));

describe('Tab and Shift-Tab in a table', () => {
  it('Tab walks to the next cell (its text selected); in the last cell it adds a row and moves into its first cell', () => {
    let state = stateOf(
      [
        p('Intro'),
        table([
          ['A', 'B'],
          ['c', 'd'],
        ]),
      ],
      'c',
    );
    state = run(state, indent);
    state = type(state, 'D');
    state = run(state, indent);
    expect(tables(state)).toEqual([
      [
        ['H:A', 'H:B'],
        ['c', 'D'],
        ['', ''],
      ],
    ]);
    state = type(state, 'e');
    state = run(state, tableTab(1));
    state = type(state, 'f');
    expect(tables(state)[0][2]).toEqual(['e', 'f']);
  });

  it('Shift-Tab moves back; in the first cell it stays, and the key is still taken (no focus lost)', () => {
    let state = stateOf([table([['A', 'B']])], 'B');
    state = run(state, outdent);
    state = type(state, '1');
    expect(tables(state)).toEqual([[['H:1', 'H:B']]]);
    // In the first cell: taken (the browser would move the focus out), nothing changes.
    let dispatched = false;
    expect(outdent(state, () => (dispatched = true))).toBe(true);
    expect(dispatched).toBe(false);
  });

  it('outside a table Tab is not taken by the table (lists still indent)', () => {
    expect(tableTab(1)(stateOf([p('x')], 'x'))).toBe(false);
  });
});

describe('the Table menu and context menu commands', () => {
  const grid = () =>
    stateOf(
      [
        table([
          ['A', 'B'],
          ['c', 'd'],
        ]),
      ],
      'c',
    );

  it('inserts rows above and below, columns left and right', () => {
    expect(tables(run(grid(), tableCommand.addRowBefore))).toEqual([
      [
        ['H:A', 'H:B'],
        ['', ''],
        ['c', 'd'],
      ],
    ]);
    expect(tables(run(grid(), tableCommand.addRowAfter))).toEqual([
      [
        ['H:A', 'H:B'],
        ['c', 'd'],
        ['', ''],
      ],
    ]);
    expect(tables(run(grid(), tableCommand.addColumnBefore))).toEqual([
      [
        ['H:', 'H:A', 'H:B'],
        ['', 'c', 'd'],
      ],
    ]);
    expect(tables(run(grid(), tableCommand.addColumnAfter))).toEqual([
      [
        ['H:A', 'H:', 'H:B'],
        ['c', '', 'd'],
      ],
    ]);
  });

  it('deletes a row, a column, the table', () => {
    expect(tables(run(grid(), tableCommand.deleteRow))).toEqual([[['H:A', 'H:B']]]);
    expect(tables(run(grid(), tableCommand.deleteColumn))).toEqual([[['H:B'], ['d']]]);
    expect(tables(run(grid(), tableCommand.deleteTable))).toEqual([]);
  });

  it('merges selected cells and splits them again', () => {
    const state = grid();
    let cells: number[] = [];
    state.doc.descendants((node, pos) => {
      if (node.type.name === 'table_cell') cells.push(pos);
    });
    const both = state.apply(state.tr.setSelection(CellSelection.create(state.doc, cells[0], cells[1])));
    expect(tableCommand.mergeCells(state)).toBe(false);
    const merged = run(both, tableCommand.mergeCells);
    expect(tables(merged)[0][1]).toEqual(['cd']);
    cells = [];
    merged.doc.descendants((node, pos) => {
      if (node.type.name === 'table_cell') cells.push(pos);
    });
    const inMerged = merged.apply(merged.tr.setSelection(TextSelection.create(merged.doc, cells[0] + 2)));
    expect(tables(run(inMerged, tableCommand.splitCell))[0][1]).toEqual(['cd', '']);
  });

  it('toggles the header row', () => {
    const state = stateOf(
      [
        table(
          [
            ['A', 'B'],
            ['c', 'd'],
          ],
          false,
        ),
      ],
      'A',
    );
    expect(inHeaderRow(state)).toBe(false);
    const headed = run(state, tableCommand.toggleHeaderRow);
    expect(tables(headed)[0][0]).toEqual(['H:A', 'H:B']);
    expect(inHeaderRow(headed)).toBe(true);
    expect(tables(run(headed, tableCommand.toggleHeaderRow))[0][0]).toEqual(['A', 'B']);
  });

  it('refuses every command outside a table', () => {
    const state = stateOf([p('x')], 'x');
    for (const command of Object.values(tableCommand)) expect(command(state)).toBe(false);
  });
});

describe('text after a table, a figure or a code block at the end of the document', () => {
  it('Ctrl+End puts a gap cursor after a final table; typing there makes a paragraph', () => {
    let state = stateOf([p('Intro'), table([['A']])], 'Intro');
    state = run(state, selectDocumentEnd);
    expect(state.selection).toBeInstanceOf(GapCursor);
    state = type(state, 'After');
    expect(bodyBlocks(state)).toEqual(['paragraph:Intro', 'table:A', 'paragraph:After']);
  });

  it('Enter at that gap cursor makes a paragraph to type in', () => {
    let state = run(stateOf([table([['A']])], 'A'), selectDocumentEnd);
    state = run(state, baseKeymap.Enter);
    state = type(state, 'Next');
    expect(bodyBlocks(state)).toEqual(['table:A', 'paragraph:Next']);
  });

  it('after a final figure and a final code block too; after text, the end of that text', () => {
    const figure = schema.nodes.figure.create({ category: 'equation', equation: 'x' });
    expect(documentEnd(stateOf([p('a'), figure]).doc)).toBeInstanceOf(GapCursor);
    const code = schema.nodes.code_block.create(null, schema.text('let x'));
    expect(documentEnd(stateOf([p('a'), code]).doc)).toBeInstanceOf(GapCursor);
    const end = documentEnd(stateOf([table([['A']]), p('last')]).doc);
    expect(end).toBeInstanceOf(TextSelection);
    expect(end?.$from.parent.textContent).toBe('last');
  });

  it('an arrow key out of a final (first) table gives a gap cursor after (before) it; elsewhere it is left to the table', () => {
    const atEdge = () => true;
    const last = stateOf(
      [
        p('Intro'),
        table([
          ['A', 'B'],
          ['c', 'd'],
        ]),
      ],
      'c',
    );
    expect(leaveTable(1, false, atEdge)(last)).toBe(false);
    const down = run(last, leaveTable(1, true, atEdge));
    expect(down.selection).toBeInstanceOf(GapCursor);
    expect(bodyBlocks(type(down, 'x'))).toEqual(['paragraph:Intro', 'table:ABcd', 'paragraph:x']);
    // The caret not yet at the cell's edge (a wrapped line): the browser moves it first.
    expect(leaveTable(1, true, () => false)(last)).toBe(false);
    // A paragraph follows: prosemirror-tables' own arrow goes there.
    expect(leaveTable(1, true, atEdge)(stateOf([table([['A']]), p('next')], 'A'))).toBe(false);
    const up = run(stateOf([table([['A', 'B']]), p('after')], 'A'), leaveTable(-1, false, atEdge));
    expect(bodyBlocks(type(up, 'y'))).toEqual(['paragraph:y', 'table:AB', 'paragraph:after']);
  });

  it('the document itself has no gap between parts (typing there would add a part)', () => {
    const state = stateOf([table([['A']])]);
    expect(gapRules.valid(state.doc.resolve(state.doc.content.size))).toBe(false);
  });

  it('a write-tracked author typing after a final table makes a tracked paragraph, decided like any other', () => {
    const state = run(stateOf([p('Intro'), table([['A']])]), selectDocumentEnd);
    const typed = state.tr.insertText('New');
    const tracked = trackTransaction(typed, state, ada, 1000);
    if (!tracked) throw new Error('not trackable');
    expect(reviewStepsAllowed(tracked.steps, state.doc, ada.id, SUGGEST)).toBe(true);
    const after = state.apply(tracked);
    expect(bodyBlocks(after)).toEqual(['paragraph:Intro', 'table:A', 'paragraph:New']);
    const changes = trackedChanges(after.doc);
    expect(changes.length).toBeGreaterThan(0);
    const reject = after.tr;
    decideChanges(reject, changes, false);
    expect(bodyBlocks(after.apply(reject))).toEqual(['paragraph:Intro', 'table:A']);
  });

  it('a write-tracked author adding a row with Tab makes a tracked row', () => {
    const state = stateOf([table([['A'], ['b']])], 'b');
    let made: Transaction | null = null;
    tableTab(1)(state, (tr) => (made = tr));
    const tracked = trackTransaction(made as unknown as Transaction, state, ada, 1000);
    if (!tracked) throw new Error('not trackable');
    const after = state.apply(tracked);
    expect(tables(after)).toEqual([[['H:A'], ['b'], ['']]]);
    expect(trackedChanges(after.doc).map((change) => `${change.type}:${change.node}`)).toEqual([
      'insertion:table_row',
    ]);
    // The caret is in the new row.
    expect(after.selection.$from.node(-2)).toBe(after.doc.resolve(after.selection.from).node(-2));
    expect(after.selection.$from.node(-2).textContent).toBe('');
  });
});
