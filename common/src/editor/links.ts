import type { Mark } from 'prosemirror-model';
import { type Command, type EditorState, Plugin, TextSelection } from 'prosemirror-state';
import { allowsMark, setLink } from './commands';
import { isSafeHref, schema } from './schema';

/**
 * Links as in a word processor: Mod-k with nothing selected asks for the text and the address and
 * inserts the linked text; with a selection (or the caret in a link) it asks for the address only.
 * A URL pasted over selected text links that text instead of replacing it. Every target passes
 * `isSafeHref` (safe-links.ts): web, mail and in-document links only.
 */

/** The range the link dialog works on: the selection, or the link around the caret; null for neither. */
export function linkRange(state: EditorState): { from: number; to: number; mark: Mark | null } | null {
  const { from, to, empty, $from } = state.selection;
  const type = schema.marks.link;
  if (!empty) {
    let mark: Mark | null = null;
    state.doc.nodesBetween(from, to, (node) => {
      mark ??= type.isInSet(node.marks) ?? null;
    });
    return { from, to, mark };
  }
  const mark = type.isInSet($from.marks()) ?? type.isInSet($from.nodeAfter?.marks ?? []);
  if (!mark) return null;
  // The run of text around the caret that carries this very link.
  const start = $from.start();
  let run: { from: number; to: number } | null = null;
  let found: { from: number; to: number } | null = null;
  $from.parent.forEach((child, offset) => {
    const at = start + offset;
    if (!mark.isInSet(child.marks)) {
      run = null;
      return;
    }
    const next =
      run && run.to === at
        ? { from: run.from, to: at + child.nodeSize }
        : { from: at, to: at + child.nodeSize };
    run = next;
    if (next.from <= $from.pos && $from.pos <= next.to) found = next;
  });
  const range = found as { from: number; to: number } | null;
  return range ? { ...range, mark } : null;
}

/** Sets (or, with an empty href, removes) the link on the dialog's range: the selection, or the link around the caret. */
export function applyLink(href: string): Command {
  return (state, dispatch) => {
    const range = linkRange(state);
    const type = schema.marks.link;
    if (!range) return false;
    if (!href) {
      if (!state.doc.rangeHasMark(range.from, range.to, type)) return false;
      if (dispatch) dispatch(state.tr.removeMark(range.from, range.to, type));
      return true;
    }
    if (!isSafeHref(href) || !allowsMark(state, 'link')) return false;
    if (dispatch)
      dispatch(state.tr.addMark(range.from, range.to, type.create({ href, title: '' })).scrollIntoView());
    return true;
  };
}

/**
 * Inserts `text` linked to `href` at the caret (Mod-k with nothing selected), keeping the caret's
 * other formatting; typing on after it is not linked.
 */
export function insertLinkedText(text: string, href: string): Command {
  return (state, dispatch) => {
    if (!text || !isSafeHref(href) || !allowsMark(state, 'link')) return false;
    const link = schema.marks.link.create({ href, title: '' });
    const marks = link.addToSet(
      (state.storedMarks ?? state.selection.$from.marks()).filter((mark) => mark.type !== link.type),
    );
    if (!state.selection.$from.parent.inlineContent) return false;
    if (dispatch) {
      const tr = state.tr.replaceSelectionWith(schema.text(text, marks), false);
      dispatch(tr.removeStoredMark(schema.marks.link).scrollIntoView());
    }
    return true;
  };
}

/** The address a pasted text is, when it is exactly one web or mail address; null otherwise. */
export function pastedAddress(text: string): string | null {
  const trimmed = text.trim();
  if (!/^(https?:\/\/|mailto:)\S+$/i.test(trimmed)) return null;
  return isSafeHref(trimmed) ? trimmed : null;
}

/** Pasting an address over selected text links the text (Google Docs, Word) instead of replacing it. */
export function pasteAsLink(text: string): Command {
  return (state, dispatch) => {
    const href = pastedAddress(text);
    if (!href || state.selection.empty || !(state.selection instanceof TextSelection)) return false;
    return setLink(href)(state, dispatch);
  };
}

/** The paste handler of `pasteAsLink`, for the editor and the notes' editors. */
export function linkPastePlugin(): Plugin {
  return new Plugin({
    props: {
      handlePaste: (view, event) => {
        const text = event.clipboardData?.getData('text/plain') ?? '';
        return pasteAsLink(text)(view.state, view.dispatch);
      },
    },
  });
}
