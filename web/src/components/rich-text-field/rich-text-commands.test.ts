import type { RichText } from '@scriptorium/common/bibliography/types';
import { EditorState, TextSelection } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import {
  activeMarks,
  ariaShortcut,
  isMarkActive,
  richTextKeys,
  SHORTCUTS,
  shortcutLabel,
  TOOLBAR_MARKS,
  toggleRichMark,
} from './rich-text-commands';
import { docToRichText, richTextToDoc, singleSchema } from './rich-text-doc';

function stateOf(value: RichText, from: number, to = from): EditorState {
  const doc = richTextToDoc(value);
  return EditorState.create({ doc, selection: TextSelection.create(doc, from, to) });
}

function apply(state: EditorState, command: ReturnType<typeof toggleRichMark>): EditorState {
  let next = state;
  expect(command(state, (tr) => (next = state.apply(tr)))).toBe(true);
  return next;
}

describe('mark commands', () => {
  // Positions: 1 is the start of the paragraph's text.
  it('adds a mark to a selected word and removes it again', () => {
    const state = stateOf([{ type: 'text', text: 'Deep learning' }], 6, 14);
    expect(isMarkActive(state, singleSchema.marks.em)).toBe(false);
    const marked = apply(state, toggleRichMark('em'));
    expect(docToRichText(marked.doc)).toEqual([
      { type: 'text', text: 'Deep ' },
      { type: 'text', text: 'learning', marks: [{ type: 'em' }] },
    ]);
    expect(activeMarks(marked)).toEqual(new Set(['em']));
    const unmarked = apply(marked, toggleRichMark('em'));
    expect(docToRichText(unmarked.doc)).toEqual([{ type: 'text', text: 'Deep learning' }]);
  });

  it('adds the mark to all of a partly marked selection', () => {
    const state = stateOf(
      [
        { type: 'text', text: 'ab', marks: [{ type: 'strong' }] },
        { type: 'text', text: 'cd' },
      ],
      1,
      5,
    );
    expect(isMarkActive(state, singleSchema.marks.strong)).toBe(false);
    const next = apply(state, toggleRichMark('strong'));
    expect(docToRichText(next.doc)).toEqual([{ type: 'text', text: 'abcd', marks: [{ type: 'strong' }] }]);
  });

  it('sets a mark for what is typed next at a cursor', () => {
    const state = stateOf([{ type: 'text', text: 'H' }], 2);
    const next = apply(state, toggleRichMark('sub'));
    expect(isMarkActive(next, singleSchema.marks.sub)).toBe(true);
    const typed = next.apply(next.tr.insertText('2'));
    expect(docToRichText(typed.doc)).toEqual([
      { type: 'text', text: 'H' },
      { type: 'text', text: '2', marks: [{ type: 'sub' }] },
    ]);
  });

  it('replaces subscript with superscript and back', () => {
    const state = stateOf([{ type: 'text', text: 'x2', marks: [{ type: 'sub' }] }], 2, 3);
    const sup = apply(state, toggleRichMark('sup'));
    expect(docToRichText(sup.doc)).toEqual([
      { type: 'text', text: 'x', marks: [{ type: 'sub' }] },
      { type: 'text', text: '2', marks: [{ type: 'sup' }] },
    ]);
    expect(activeMarks(sup)).toEqual(new Set(['sup']));
  });

  it('binds every toolbar mark, undo and redo, and swallows Enter only in single-line fields', () => {
    const single = richTextKeys(singleSchema, false);
    for (const mark of TOOLBAR_MARKS) expect(single[SHORTCUTS[mark]]).toBeTypeOf('function');
    expect(Object.keys(single)).toEqual(expect.arrayContaining(['Mod-z', 'Mod-y', 'Mod-Shift-Z', 'Enter']));
    expect(Object.keys(single)).not.toContain('Tab');
    expect(Object.keys(richTextKeys(singleSchema, true))).not.toContain('Enter');
    expect(new Set(Object.values(SHORTCUTS)).size).toBe(TOOLBAR_MARKS.length);
  });

  it('writes shortcuts for people and for aria-keyshortcuts', () => {
    const names = { mod: 'Strg', shift: 'Umschalt' };
    expect(shortcutLabel('Mod-Shift-K', names, false)).toBe('Strg+Umschalt+K');
    expect(shortcutLabel('Mod-.', names, false)).toBe('Strg+.');
    expect(shortcutLabel('Mod-i', names, true)).toBe('⌘I');
    expect(ariaShortcut('Mod-Shift-K', false)).toBe('Control+Shift+K');
    expect(ariaShortcut('Mod-i', true)).toBe('Meta+I');
  });
});
