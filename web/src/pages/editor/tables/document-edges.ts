import { gapRules, leaveTable, selectDocumentEnd } from '@scriptorium/common/editor/table-commands';
import { GapCursor } from 'prosemirror-gapcursor';
import { keymap } from 'prosemirror-keymap';
import { type Command, Plugin, Selection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import 'prosemirror-gapcursor/style/gapcursor.css';
import './tables.css';

/**
 * Text can always follow (or precede) a table, a figure, an equation or a code block at a part's
 * edges (issue 55). The caret there is prosemirror-gapcursor's gap cursor: typing or Enter at it
 * makes a paragraph, an ordinary edit of this user (tracked like any other in suggestion mode).
 * No trailing paragraph is added by a plugin: co-editors' plugins would each add one, and a
 * review user's would be a suggestion nobody made (docs/editor.md).
 *
 * Registered before prosemirror-tables' keys (tableKeysPlugin) and after the gap cursor's
 * (documentEdgesPlugins):
 * - an arrow key out of a table's last (first) row at its part's edge gives the gap cursor after
 *   (before) it; prosemirror-tables' own put the caret back into the last cell;
 * - Ctrl+End goes to the end of the document's last part, after a final table (the browser's own
 *   went into its last cell);
 * - a click below the document's last block puts the caret there too;
 * - an arrow key at a gap cursor with nowhere further to go is taken, so the browser does not
 *   move its hidden caret somewhere the next key would be lost.
 */

function out(dir: 1 | -1, vertical: boolean): Command {
  const side = vertical ? (dir > 0 ? 'down' : 'up') : dir > 0 ? 'right' : 'left';
  return (state, dispatch, view) =>
    Boolean(view) &&
    leaveTable(dir, vertical, () => Boolean(view?.endOfTextblock(side)))(state, dispatch, view);
}

/** The arrow keys out of a table at a part's edge: before prosemirror-tables' keys. */
export function tableKeysPlugin(): Plugin {
  return keymap({
    ArrowDown: out(1, true),
    ArrowRight: out(1, false),
    ArrowUp: out(-1, true),
    ArrowLeft: out(-1, false),
  });
}

/** At a gap cursor, an arrow towards nothing (no text, no other gap): stay. */
function stayAtGap(dir: 1 | -1): Command {
  return (state) => {
    const { selection } = state;
    if (!(selection instanceof GapCursor)) return false;
    return (
      !Selection.findFrom(selection.$head, dir) && !gapRules.findGapCursorFrom(selection.$head, dir, true)
    );
  };
}

/** Whether a pointer at `y` is below the last block of the document's last part. */
function belowLastBlock(view: EditorView, y: number): boolean {
  const parts = view.dom.querySelectorAll(':scope > .doc-richtext_part:not(.doc-part-hidden)');
  const part = parts[parts.length - 1];
  const last = part?.lastElementChild;
  return Boolean(last && y > last.getBoundingClientRect().bottom);
}

export function documentEdgesPlugins(): Plugin[] {
  return [
    keymap({
      'Mod-End': selectDocumentEnd,
      ArrowDown: stayAtGap(1),
      ArrowRight: stayAtGap(1),
      ArrowUp: stayAtGap(-1),
      ArrowLeft: stayAtGap(-1),
    }),
    new Plugin({
      props: {
        handleDOMEvents: {
          mousedown: (view, event) => {
            // Only a click on the editor's own space below the text, not on a block in it.
            if (event.button !== 0 || !view.editable) return false;
            const target = event.target as Element | null;
            if (!target || (target !== view.dom && !target.matches('.doc-richtext_part'))) return false;
            if (!belowLastBlock(view, event.clientY)) return false;
            event.preventDefault();
            view.focus();
            return selectDocumentEnd(view.state, view.dispatch);
          },
        },
      },
    }),
  ];
}
