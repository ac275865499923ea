import { toggleMark } from 'prosemirror-commands';
import { redo, undo } from 'prosemirror-history';
import type { MarkType, Schema } from 'prosemirror-model';
import type { Command, EditorState, TextSelection } from 'prosemirror-state';
import type { RichTextMark } from './rich-text-doc';

/** The marks with a toolbar button, in toolbar order (url is kept when imported, not offered). */
export const TOOLBAR_MARKS = ['em', 'strong', 'smallcaps', 'sup', 'sub', 'enquote', 'nocase'] as const;
export type ToolbarMark = (typeof TOOLBAR_MARKS)[number];

/**
 * Shortcuts in prosemirror-keymap notation. Mod-. and Mod-, are Google Docs' super- and subscript,
 * Mod-Shift-K is Word's small caps; none of them is a browser shortcut a page cannot take over
 * (Ctrl+= would zoom, Ctrl+Shift+Q quits Chromium on Linux, Ctrl+Shift+N opens a private window).
 */
export const SHORTCUTS: Record<ToolbarMark, string> = {
  em: 'Mod-i',
  strong: 'Mod-b',
  smallcaps: 'Mod-Shift-K',
  sup: 'Mod-.',
  sub: 'Mod-,',
  enquote: "Mod-'",
  nocase: 'Mod-Shift-L',
};

/** Super- and subscript at once mean nothing; setting one clears the other. */
const EXCLUDES: Partial<Record<RichTextMark, RichTextMark>> = { sup: 'sub', sub: 'sup' };

/**
 * Whether the mark covers the selection: at a cursor, whether typing would get it; for a range,
 * whether every non-blank part has it (then the button removes it, otherwise it adds it to all).
 */
export function isMarkActive(state: EditorState, type: MarkType): boolean {
  const { empty, ranges } = state.selection;
  const $cursor = (state.selection as TextSelection).$cursor;
  if ($cursor) return type.isInSet(state.storedMarks ?? $cursor.marks()) !== undefined;
  if (empty) return false;
  return ranges.every(({ $from, $to }) => {
    let covered = true;
    state.doc.nodesBetween($from.pos, $to.pos, (node, pos, parent) => {
      if (!covered) return false;
      if (!node.isInline || !parent?.type.allowsMarkType(type)) return true;
      const part = node.isText
        ? (node.text ?? '').slice(Math.max(0, $from.pos - pos), Math.max(0, $to.pos - pos))
        : 'x';
      if (part.trim() !== '' && !type.isInSet(node.marks)) covered = false;
      return false;
    });
    return covered;
  });
}

/** The toolbar marks active at the selection. */
export function activeMarks(state: EditorState): Set<ToolbarMark> {
  return new Set(TOOLBAR_MARKS.filter((name) => isMarkActive(state, state.schema.marks[name])));
}

/** Toggles a mark as isMarkActive reports it, clearing the mark it excludes when adding. */
export function toggleRichMark(name: RichTextMark): Command {
  return (state, dispatch) => {
    const type = state.schema.marks[name];
    const toggle = toggleMark(type, null, { removeWhenPresent: false });
    const excluded = EXCLUDES[name];
    if (!dispatch || !excluded) return toggle(state, dispatch);
    const adding = !isMarkActive(state, type);
    const other = state.schema.marks[excluded];
    return toggle(state, (tr) => {
      if (adding) {
        if ((state.selection as TextSelection).$cursor) tr.removeStoredMark(other);
        else for (const { $from, $to } of state.selection.ranges) tr.removeMark($from.pos, $to.pos, other);
      }
      dispatch(tr);
    });
  };
}

/** Swallows a key (Enter in a single-line field must neither split it nor submit the form). */
const nothing: Command = () => true;

/** Key bindings of a field; Tab stays unbound so that it moves focus on as in any form. */
export function richTextKeys(schema: Schema, list: boolean): Record<string, Command> {
  const keys: Record<string, Command> = {
    'Mod-z': undo,
    'Mod-y': redo,
    'Mod-Shift-Z': redo,
  };
  for (const name of TOOLBAR_MARKS) {
    if (schema.marks[name]) keys[SHORTCUTS[name]] = toggleRichMark(name);
  }
  if (!list) {
    for (const key of ['Enter', 'Shift-Enter', 'Mod-Enter']) keys[key] = nothing;
  }
  return keys;
}

/** A shortcut as people read it: "Ctrl+Shift+K", or "⌘⇧K" on Apple systems. */
export function shortcutLabel(shortcut: string, names: { mod: string; shift: string }, mac: boolean): string {
  const parts = shortcut.split(/-(?!$)/);
  const key = parts.pop() ?? '';
  const labels = parts.map((part) => {
    if (part === 'Mod') return mac ? '⌘' : names.mod;
    if (part === 'Shift') return mac ? '⇧' : names.shift;
    return part;
  });
  labels.push(key.toUpperCase());
  return labels.join(mac ? '' : '+');
}

/** The same shortcut in the notation of aria-keyshortcuts ("Control+Shift+K"). */
export function ariaShortcut(shortcut: string, mac: boolean): string {
  const parts = shortcut.split(/-(?!$)/);
  const key = parts.pop() ?? '';
  const mods = parts.map((part) => (part === 'Mod' ? (mac ? 'Meta' : 'Control') : part));
  return [...mods, key.toUpperCase()].join('+');
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iP(hone|[oa]d)/.test(navigator.platform);
