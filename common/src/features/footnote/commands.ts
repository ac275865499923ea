import type { Command } from 'prosemirror-state';
import { NodeSelection } from 'prosemirror-state';
import { insertNode } from '../../editor/commands';
import { schema } from '../../editor/schema';

/** A footnote with one empty paragraph at the cursor; never inside another footnote. */
export const insertFootnote: Command = (state, dispatch) => {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    if ($from.node(depth).type === schema.nodes.footnote) return false;
  }
  const note = schema.nodes.footnote.create(null, schema.nodes.paragraph.create());
  // Selected once inserted, so that its nested editor opens for typing the note.
  return insertNode('footnote', () => note)(
    state,
    dispatch &&
      ((tr) => {
        const at = tr.selection.from - note.nodeSize;
        dispatch(
          at >= 0 && tr.doc.nodeAt(at)?.type === schema.nodes.footnote
            ? tr.setSelection(NodeSelection.create(tr.doc, at))
            : tr,
        );
      }),
  );
};
