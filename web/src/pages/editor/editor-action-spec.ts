import type { LucideIcon } from 'lucide-react';
import type { Command, EditorState } from 'prosemirror-state';
import type { AcademicPanelId } from './academic/academic-panels';
import type { ExportMenuFormat } from './export/export-menu-formats';

// What one action of the editor's table (editor-actions.ts) is. Its own module, below the table
// and the feature files that add to it (academic, export, review, tables), so that those import
// the shape without importing the table that imports them.

export type MenuId = 'file' | 'edit' | 'insert' | 'format' | 'table' | 'review' | 'tools' | 'help';
export type PanelId =
  | 'search'
  | 'wordCount'
  | 'outline'
  | 'settings'
  | 'shortcuts'
  | 'faq'
  | 'link'
  | 'author'
  | 'tableSize'
  | AcademicPanelId
  | 'comment'
  | 'saveRevision'
  | 'history';

export interface EditorActionSpec {
  id: string;
  /** Key in the `editor` namespace, with options (e.g. the heading level). */
  title: string;
  titleOptions?: Record<string, unknown>;
  keys?: string;
  keymapOnly?: boolean;
  menu: MenuId;
  /** Sub-group of a menu, drawn between separators. */
  group: string;
  /** The toolbar's icon (lucide); absent: menu only. */
  icon?: LucideIcon;
  /** Changes the document: hidden for read-only rights. */
  writes: boolean;
  /**
   * A right beyond `writes` (issue 18): 'write' only for the write right (accepting changes, the
   * suggestion toggle), 'comment' for every right that may comment, 'history' for every right
   * that sees revisions.
   */
  need?: 'write' | 'comment' | 'history';
  command?: Command;
  /** For an action that opens a panel: whether it can be used here (default: always). */
  enabled?(state: EditorState): boolean;
  active?(state: EditorState): boolean;
  /** Opens a dialog or panel instead of running a command. */
  panel?: PanelId;
  /** Neither a command nor a panel: handled by the page (print, close, export). */
  special?: 'print' | 'close' | 'export' | 'apiReference';
  /** Drawn inside a submenu of its menu (the submenu's title key is `<ns>:submenu.<name>`). */
  submenu?: 'export';
  exportFormat?: ExportMenuFormat;
}
