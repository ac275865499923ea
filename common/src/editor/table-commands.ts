import { GapCursor } from 'prosemirror-gapcursor';
import type { Node as PMNode, ResolvedPos } from 'prosemirror-model';
import { type Command, type EditorState, Selection, TextSelection } from 'prosemirror-state';
import {
  addColumnAfter,
  addColumnBefore,
  addRow,
  addRowAfter,
  addRowBefore,
  deleteColumn,
  deleteRow,
  deleteTable,
  goToNextCell,
  isInTable,
  mergeCells,
  selectedRect,
  splitCell,
  TableMap,
  toggleHeaderRow,
} from 'prosemirror-tables';

/**
 * Table commands as Google Docs users expect them (issue 55): Tab walks the cells and adds a row
 * after the last one, the row/column/merge commands of the Table menu and the cell's context
 * menu, and the document's end as a place to type even when a table ends it.
 */

/** GapCursor's own rules (typed here: the package marks them internal). */
export const gapRules = GapCursor as unknown as {
  /** Whether a gap cursor may stand at `$pos`. */
  valid($pos: ResolvedPos): boolean;
  /** The next place for a gap cursor from `$pos` in `dir`, or null. */
  findGapCursorFrom($pos: ResolvedPos, dir: number, mustMove?: boolean): ResolvedPos | null;
};

/** Only inside a table: a command of prosemirror-tables that would otherwise act on nothing. */
function inTable(command: Command): Command {
  return (state, dispatch, view) => isInTable(state) && command(state, dispatch, view);
}

/**
 * Tab (dir 1) or Shift-Tab (-1) in a table: the next or previous cell; Tab in the last cell adds
 * a row and moves into its first cell. In a table the key is always handled, so it never moves
 * the focus out of the editor (where the next keystrokes would be lost).
 */
export function tableTab(dir: 1 | -1): Command {
  return (state, dispatch) => {
    if (!isInTable(state)) return false;
    if (goToNextCell(dir)(state, dispatch)) return true;
    if (dir > 0) addRowAtEnd(state, dispatch);
    return true;
  };
}

/** A new last row, with the caret in its first cell. */
const addRowAtEnd: Command = (state, dispatch) => {
  const rect = selectedRect(state);
  if (dispatch) {
    const tr = addRow(state.tr, rect, rect.map.height);
    const table = tr.doc.nodeAt(rect.tableStart - 1);
    if (!table) return false;
    const map = TableMap.get(table);
    const cell = rect.tableStart + map.map[rect.map.height * map.width];
    dispatch(tr.setSelection(TextSelection.near(tr.doc.resolve(cell + 1))).scrollIntoView());
  }
  return true;
};

export const tableCommand = {
  addRowBefore: inTable(addRowBefore),
  addRowAfter: inTable(addRowAfter),
  addColumnBefore: inTable(addColumnBefore),
  addColumnAfter: inTable(addColumnAfter),
  deleteRow: inTable(deleteRow),
  deleteColumn: inTable(deleteColumn),
  deleteTable: inTable(deleteTable),
  mergeCells: inTable(mergeCells),
  splitCell: inTable(splitCell),
  toggleHeaderRow: inTable(toggleHeaderRow),
} satisfies Record<string, Command>;

export type TableCommandName = keyof typeof tableCommand;

/** Whether the row of the selection's first cell is a header row. */
export function inHeaderRow(state: EditorState): boolean {
  if (!isInTable(state)) return false;
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (node.type.spec.tableRole === 'row')
      return node.childCount > 0 && node.firstChild?.type.spec.tableRole === 'header_cell';
  }
  return false;
}

/**
 * Where the document ends for typing: the end of the last shown rich-text part. Its last block
 * may be a table, a figure or a code block: the caret is then a gap cursor after it, where typed
 * text or Enter makes a new paragraph. Null when no such part exists.
 */
export function documentEnd(doc: PMNode): Selection | null {
  let end = -1;
  doc.forEach((part, offset) => {
    if (part.type.name === 'richtext_part' && !part.attrs.hidden) end = offset + part.nodeSize - 1;
  });
  if (end < 0) return null;
  const $end = doc.resolve(end);
  const last = $end.parent.lastChild;
  if (last && (!last.isTextblock || last.type.spec.code) && gapRules.valid($end)) return new GapCursor($end);
  return Selection.near($end, -1);
}

/** Ctrl+End: the end of the document as above (the browser's own goes into a final table's cell). */
export const selectDocumentEnd: Command = (state, dispatch) => {
  const selection = documentEnd(state.doc);
  if (!selection) return false;
  if (dispatch) dispatch(state.tr.setSelection(selection).scrollIntoView());
  return true;
};

/**
 * An arrow key out of a table at its part's edge (dir 1: down or right from its last row, -1: up
 * or left from its first): a gap cursor after (before) the table, where text can be typed. Only
 * where the browser's caret is at the cell's edge (`atEdge`), and where a gap cursor may stand.
 */
export function leaveTable(dir: 1 | -1, vertical: boolean, atEdge: () => boolean): Command {
  return (state, dispatch) => {
    const { selection } = state;
    if (!(selection instanceof TextSelection) || !selection.empty || !isInTable(state)) return false;
    const { $head } = selection;
    let depth = $head.depth;
    while (depth > 0 && $head.node(depth).type.spec.tableRole !== 'table') depth--;
    if (depth === 0) return false;
    const table = $head.node(depth);
    const row = $head.index(depth);
    const rowNode = table.child(row);
    const lastRow = dir > 0 ? row === table.childCount - 1 : row === 0;
    const cellIndex = $head.index(depth + 1);
    const lastCell = dir > 0 ? cellIndex === rowNode.childCount - 1 : cellIndex === 0;
    if (!lastRow || (!vertical && !lastCell)) return false;
    const $gap = state.doc.resolve(dir > 0 ? $head.after(depth) : $head.before(depth));
    if (!gapRules.valid($gap) || !atEdge()) return false;
    if (dispatch) dispatch(state.tr.setSelection(new GapCursor($gap)).scrollIntoView());
    return true;
  };
}
