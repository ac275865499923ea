import { decideChanges, trackedChanges } from '@scriptorium/common/editor/track-changes';
import { Check, History, MessageSquarePlus, PenLine, X } from 'lucide-react';
import type { Command } from 'prosemirror-state';
import type { EditorActionSpec } from '../editor-action-spec';
import { isSuggesting, reviewIndexOf, toggleSuggesting } from './review-plugin';

/**
 * Accepts or rejects every tracked change of the document. Whether there is any comes from the
 * review index: the toolbar asks on every keystroke, and reading a long document each time costs.
 */
function decideAll(accept: boolean): Command {
  return (state, dispatch) => {
    if (!reviewIndexOf(state).changes.length) return false;
    if (dispatch) {
      const tr = state.tr;
      decideChanges(tr, trackedChanges(state.doc), accept);
      dispatch(tr);
    }
    return true;
  };
}

/** The review actions (issue 18), part of the editor's one action table. */
export const REVIEW_ACTIONS: readonly EditorActionSpec[] = [
  {
    id: 'editor.saveRevision',
    title: 'review:action.saveRevision',
    menu: 'file',
    group: 'revisions',
    writes: true,
    panel: 'saveRevision',
  },
  {
    id: 'editor.history',
    title: 'review:action.history',
    menu: 'file',
    group: 'revisions',
    icon: History,
    writes: false,
    need: 'history',
    panel: 'history',
  },
  {
    id: 'editor.comment',
    title: 'review:action.comment',
    keys: 'Mod+Alt+M',
    menu: 'review',
    group: 'comments',
    icon: MessageSquarePlus,
    writes: false,
    need: 'comment',
    panel: 'comment',
  },
  {
    id: 'editor.suggest',
    title: 'review:action.suggest',
    keys: 'Mod+Alt+S',
    menu: 'review',
    group: 'changes',
    icon: PenLine,
    writes: true,
    need: 'write',
    command: toggleSuggesting,
    active: isSuggesting,
  },
  {
    id: 'editor.acceptAll',
    title: 'review:action.acceptAll',
    menu: 'review',
    group: 'changes',
    icon: Check,
    writes: true,
    need: 'write',
    command: decideAll(true),
  },
  {
    id: 'editor.rejectAll',
    title: 'review:action.rejectAll',
    menu: 'review',
    group: 'changes',
    icon: X,
    writes: true,
    need: 'write',
    command: decideAll(false),
  },
];
