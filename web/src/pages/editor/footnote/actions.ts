import { insertFootnote } from '@scriptorium/common/features/footnote/commands';
import { SquareAsterisk } from 'lucide-react';
import type { EditorActionSpec } from '../editor-action-spec';

/** Insert > Footnote (Mod-Alt-f): a footnote at the caret, its note opened for typing. */
export const FOOTNOTE_ACTIONS: readonly EditorActionSpec[] = [
  {
    id: 'editor.footnote',
    title: 'action.footnote',
    keys: 'Mod+Alt+F',
    menu: 'insert',
    group: 'inline',
    icon: SquareAsterisk,
    writes: true,
    command: insertFootnote,
  },
];
