import { type EditorState, Selection, TextSelection, type Transaction } from 'prosemirror-state';

/**
 * Leaving a footnote's editor from the keyboard (issue 55): Escape puts the caret right after the
 * footnote's number in the text; ArrowLeft at the note's start and ArrowUp on its first line go
 * before the number, ArrowRight at its end and ArrowDown on its last line after it. With Shift (or
 * another modifier) the keys extend or move the selection inside the note as usual.
 */

export type NoteSide = 'before' | 'after';

export interface NoteKey {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/**
 * Where `key` leaves the note whose editor holds `state` (its document is the footnote node), or
 * null when the key stays inside. `atLineEdge` says whether the caret is on the first ('up') or
 * last ('down') line of its paragraph as drawn (ProseMirror's `endOfTextblock`).
 */
export function noteExit(
  state: EditorState,
  key: NoteKey,
  atLineEdge: (direction: 'up' | 'down') => boolean,
): NoteSide | null {
  if (key.key === 'Escape') return 'after';
  if (key.shiftKey || key.ctrlKey || key.metaKey || key.altKey) return null;
  const { selection, doc } = state;
  if (!selection.empty) return null;
  const { $from } = selection;
  switch (key.key) {
    case 'ArrowLeft':
      return selection.from <= Selection.atStart(doc).from ? 'before' : null;
    case 'ArrowRight':
      return selection.to >= Selection.atEnd(doc).to ? 'after' : null;
    case 'ArrowUp':
      return $from.index(0) === 0 && atLineEdge('up') ? 'before' : null;
    case 'ArrowDown':
      return $from.index(0) === doc.childCount - 1 && atLineEdge('down') ? 'after' : null;
    default:
      return null;
  }
}

/** The caret in the text before or after the footnote at `pos` (in the outer document). */
export function caretBesideNote(state: EditorState, pos: number, side: NoteSide): Transaction | null {
  const note = state.doc.nodeAt(pos);
  if (note?.type.name !== 'footnote') return null;
  const at = side === 'before' ? pos : pos + note.nodeSize;
  return state.tr.setSelection(TextSelection.create(state.doc, at)).scrollIntoView();
}
