import type { EditorView } from 'prosemirror-view';
import type { EditorActionSpec } from './editor-action-spec';

// The props of the menus and the toolbar, below both toolbars (editor-menus.tsx draws the wide one
// and hands a phone's to editor-compact-toolbar.tsx), so that neither imports the other for them.

export interface MenuProps {
  view: EditorView;
  /** Whether this user may change the document. */
  canWrite: boolean;
  /** Whether this user may use an action (the review rights); default: by `writes` and canWrite. */
  may?(action: EditorActionSpec): boolean;
  run(action: EditorActionSpec): void;
}

export interface ToolbarButtonsProps {
  compact: boolean;
  buttons: readonly EditorActionSpec[];
  canWrite: boolean;
  run: MenuProps['run'];
  activeBlock: string | null;
  /** Ids of the text styles that cannot be applied here, space-separated. */
  disabledBlocks: string;
  /** Per button, '1' when pressed (bold text under the caret...). */
  pressed: string;
  /** Per button, '1' when its command can run here. */
  enabled: string;
}
