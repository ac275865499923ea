import {
  indent,
  insertHardBreak,
  insertHorizontalRule,
  insertTable,
  isMarkActive,
  outdent,
  setCodeBlock,
  setHeading,
  setParagraph,
  toggleBulletList,
  toggleFormat,
  toggleOrderedList,
  wrapInBlockquote,
} from '@scriptorium/common/editor/commands';
import { type FormatMark, schema } from '@scriptorium/common/editor/schema';
import {
  Bold,
  Italic,
  Link,
  List,
  ListOrdered,
  ListTree,
  type LucideIcon,
  Redo2,
  Search,
  Subscript,
  Superscript,
  Table,
  TextQuote,
  Underline,
  Undo2,
} from 'lucide-react';
import { redo, undo } from 'prosemirror-history';
import type { EditorState } from 'prosemirror-state';
import { ACADEMIC_ACTIONS } from './academic/academic-actions';
import type { EditorActionSpec, MenuId } from './editor-action-spec';
import { EXPORT_MENU_FORMATS, exportActions } from './export/export-actions';
import { FEATURE_ACTIONS } from './features';
import { REVIEW_ACTIONS } from './review/review-actions';
import { TABLE_ACTIONS } from './tables/table-actions';

export type { EditorActionSpec, MenuId, PanelId } from './editor-action-spec';

/**
 * Every toolbar button, menu item and shortcut of the editor, in one table: the menus, the
 * toolbar, the keymap, the shortcuts dialog and the action registry are all drawn from it.
 * Keys are written as the registry writes them (`Mod+B`); `keymapOnly` keys (Tab) stay inside
 * the editor because elsewhere they move the focus.
 */

function mark(
  id: string,
  title: string,
  name: FormatMark,
  keys: string | undefined,
  icon: LucideIcon | undefined,
): EditorActionSpec {
  return {
    id: `editor.${id}`,
    title,
    keys,
    menu: 'format',
    group: 'marks',
    icon,
    writes: true,
    command: toggleFormat(name),
    active: (state) => isMarkActive(state, schema.marks[name]),
  };
}

function blockActive(type: string, attrs?: Record<string, unknown>) {
  return (state: EditorState) => {
    const { $from, to } = state.selection;
    const node = $from.parent;
    if (to > $from.end()) return false;
    if (node.type.name !== type) return false;
    return !attrs || Object.entries(attrs).every(([key, value]) => node.attrs[key] === value);
  };
}

export const EDITOR_ACTIONS: readonly EditorActionSpec[] = [
  {
    id: 'editor.settings',
    title: 'action.settings',
    menu: 'file',
    group: 'document',
    writes: true,
    panel: 'settings',
  },
  ...exportActions(EXPORT_MENU_FORMATS),
  {
    id: 'editor.print',
    title: 'action.print',
    keys: 'Mod+P',
    menu: 'file',
    group: 'output',
    writes: false,
    special: 'print',
  },
  {
    id: 'editor.close',
    title: 'action.close',
    menu: 'file',
    group: 'output',
    writes: false,
    special: 'close',
  },

  {
    id: 'editor.undo',
    title: 'action.undo',
    keys: 'Mod+Z',
    menu: 'edit',
    group: 'history',
    icon: Undo2,
    writes: true,
    command: undo,
  },
  {
    id: 'editor.redo',
    title: 'action.redo',
    keys: 'Mod+Shift+Z',
    menu: 'edit',
    group: 'history',
    icon: Redo2,
    writes: true,
    command: redo,
  },
  {
    id: 'editor.search',
    title: 'action.search',
    keys: 'Mod+F',
    menu: 'edit',
    group: 'search',
    icon: Search,
    writes: false,
    panel: 'search',
  },

  ...FEATURE_ACTIONS,
  {
    id: 'editor.link',
    title: 'action.link',
    keys: 'Mod+K',
    menu: 'insert',
    group: 'inline',
    icon: Link,
    writes: true,
    panel: 'link',
  },
  {
    id: 'editor.hardBreak',
    title: 'action.hardBreak',
    keys: 'Shift+Enter',
    keymapOnly: true,
    menu: 'insert',
    group: 'inline',
    writes: true,
    command: insertHardBreak,
  },
  {
    id: 'editor.table',
    title: 'action.table',
    menu: 'insert',
    group: 'blocks',
    icon: Table,
    writes: true,
    // The size picker (tables/table-size-picker.tsx) inserts the table.
    enabled: (state) => insertTable(1, 1)(state),
    panel: 'tableSize',
  },
  {
    id: 'editor.horizontalRule',
    title: 'action.horizontalRule',
    menu: 'insert',
    group: 'blocks',
    writes: true,
    command: insertHorizontalRule,
  },
  {
    id: 'editor.addAuthor',
    title: 'action.addAuthor',
    menu: 'insert',
    group: 'parts',
    writes: true,
    panel: 'author',
  },

  mark('bold', 'action.bold', 'strong', 'Mod+B', Bold),
  mark('italic', 'action.italic', 'em', 'Mod+I', Italic),
  mark('underline', 'action.underline', 'underline', 'Mod+U', Underline),
  mark('superscript', 'action.superscript', 'sup', 'Mod+.', Superscript),
  mark('subscript', 'action.subscript', 'sub', 'Mod+,', Subscript),
  mark('code', 'action.code', 'code', 'Mod+Shift+E', undefined),
  mark('smallcaps', 'action.smallcaps', 'smallcaps', undefined, undefined),
  {
    id: 'editor.paragraph',
    title: 'action.paragraph',
    keys: 'Mod+Alt+0',
    menu: 'format',
    group: 'blocks',
    writes: true,
    command: setParagraph,
    active: blockActive('paragraph'),
  },
  ...[1, 2, 3, 4, 5, 6].map(
    (level): EditorActionSpec => ({
      id: `editor.heading${level}`,
      title: 'action.heading',
      titleOptions: { level },
      keys: `Mod+Alt+${level}`,
      menu: 'format',
      group: 'blocks',
      writes: true,
      command: setHeading(level),
      active: blockActive('heading', { level }),
    }),
  ),
  {
    id: 'editor.codeBlock',
    title: 'action.codeBlock',
    menu: 'format',
    group: 'blocks',
    writes: true,
    command: setCodeBlock(),
    active: blockActive('code_block'),
  },
  {
    id: 'editor.blockquote',
    title: 'action.blockquote',
    keys: 'Mod+Shift+9',
    menu: 'format',
    group: 'wrap',
    icon: TextQuote,
    writes: true,
    command: wrapInBlockquote,
  },
  {
    id: 'editor.bulletList',
    title: 'action.bulletList',
    keys: 'Mod+Shift+8',
    menu: 'format',
    group: 'wrap',
    icon: List,
    writes: true,
    command: toggleBulletList,
  },
  {
    id: 'editor.orderedList',
    title: 'action.orderedList',
    keys: 'Mod+Shift+7',
    menu: 'format',
    group: 'wrap',
    icon: ListOrdered,
    writes: true,
    command: toggleOrderedList,
  },
  {
    id: 'editor.indent',
    title: 'action.indent',
    keys: 'Tab',
    keymapOnly: true,
    menu: 'format',
    group: 'wrap',
    writes: true,
    command: indent,
  },
  {
    id: 'editor.outdent',
    title: 'action.outdent',
    keys: 'Shift+Tab',
    keymapOnly: true,
    menu: 'format',
    group: 'wrap',
    writes: true,
    command: outdent,
  },

  {
    id: 'editor.wordCount',
    title: 'action.wordCount',
    keys: 'Mod+Shift+C',
    menu: 'tools',
    group: 'tools',
    writes: false,
    panel: 'wordCount',
  },
  {
    id: 'editor.outline',
    title: 'action.outline',
    keys: 'Mod+Alt+O',
    menu: 'tools',
    group: 'tools',
    icon: ListTree,
    writes: false,
    panel: 'outline',
  },

  {
    id: 'editor.shortcuts',
    title: 'action.shortcuts',
    keys: 'Mod+/',
    menu: 'help',
    group: 'help',
    writes: false,
    panel: 'shortcuts',
  },
  { id: 'editor.faq', title: 'action.faq', menu: 'help', group: 'help', writes: false, panel: 'faq' },
  // The API reference (issue 57), in a tab of its own so that the document stays open.
  {
    id: 'editor.apiReference',
    title: 'apiref:menu',
    menu: 'help',
    group: 'help',
    writes: false,
    special: 'apiReference',
  },
  ...ACADEMIC_ACTIONS,
  ...REVIEW_ACTIONS,
  ...TABLE_ACTIONS,
];

export const MENUS: readonly MenuId[] = [
  'file',
  'edit',
  'insert',
  'format',
  'table',
  'review',
  'tools',
  'help',
];

/** `Mod+Shift+Z` as prosemirror-keymap writes it: `Mod-Shift-z`. */
export function keymapName(keys: string): string {
  const parts = keys.split('+');
  const key = parts.pop() ?? '';
  return [...parts, key.length === 1 ? key.toLowerCase() : key].join('-');
}
