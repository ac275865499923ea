import { Node as PMNode } from 'prosemirror-model';
import { EditorState, TextSelection } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import { schema } from '../../editor/schema';
import { createDocument, standardArticle } from '../../editor/templates';
import { partStart } from '../../editor/testing';
import { caretBesideNote, noteExit } from './keys';

/** A footnote's editor state (its document is the footnote node) with the caret at `pos`. */
function note(paragraphs: string[], pos: number): EditorState {
  const doc = schema.nodes.footnote.create(
    null,
    paragraphs.map((text) => schema.nodes.paragraph.create(null, text ? schema.text(text) : null)),
  );
  return EditorState.create({ doc, selection: TextSelection.create(doc, pos) });
}

const onEdge = () => true;
const inside = () => false;

describe('leaving a footnote', () => {
  it('leaves with Escape after the number, from anywhere in the note', () => {
    expect(noteExit(note(['abc'], 2), { key: 'Escape' }, inside)).toBe('after');
    const selected = note(['abc'], 1);
    const range = selected.apply(selected.tr.setSelection(TextSelection.create(selected.doc, 1, 3)));
    expect(noteExit(range, { key: 'Escape' }, inside)).toBe('after');
  });

  it('leaves with the arrows at the edges only', () => {
    // "abc" / "de": positions 1..4 in the first paragraph, 6..8 in the second.
    expect(noteExit(note(['abc', 'de'], 1), { key: 'ArrowLeft' }, inside)).toBe('before');
    expect(noteExit(note(['abc', 'de'], 2), { key: 'ArrowLeft' }, inside)).toBeNull();
    expect(noteExit(note(['abc', 'de'], 8), { key: 'ArrowRight' }, inside)).toBe('after');
    expect(noteExit(note(['abc', 'de'], 4), { key: 'ArrowRight' }, inside)).toBeNull();
    // Up on the first line of the first paragraph, down on the last line of the last one.
    expect(noteExit(note(['abc', 'de'], 3), { key: 'ArrowUp' }, onEdge)).toBe('before');
    expect(noteExit(note(['abc', 'de'], 3), { key: 'ArrowUp' }, inside)).toBeNull();
    expect(noteExit(note(['abc', 'de'], 7), { key: 'ArrowUp' }, onEdge)).toBeNull();
    expect(noteExit(note(['abc', 'de'], 7), { key: 'ArrowDown' }, onEdge)).toBe('after');
    expect(noteExit(note(['abc', 'de'], 3), { key: 'ArrowDown' }, onEdge)).toBeNull();
    // An empty note: both ways out.
    expect(noteExit(note([''], 1), { key: 'ArrowLeft' }, inside)).toBe('before');
    expect(noteExit(note([''], 1), { key: 'ArrowRight' }, inside)).toBe('after');
    // Shift extends the selection inside; other keys stay.
    expect(noteExit(note(['abc'], 1), { key: 'ArrowLeft', shiftKey: true }, inside)).toBeNull();
    expect(noteExit(note(['abc'], 4), { key: 'Enter' }, onEdge)).toBeNull();
  });

  it('puts the caret in the text before or after the footnote', () => {
    const json = createDocument(schema, standardArticle, { title: 'T' }).toJSON();
    json.content[json.content.length - 1].content = [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'See' },
          { type: 'footnote', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'n' }] }] },
          { type: 'text', text: ' more' },
        ],
      },
    ];
    const doc = PMNode.fromJSON(schema, json);
    const state = EditorState.create({ doc });
    const at = partStart(doc, 'body') + 1 + 3;
    expect(doc.nodeAt(at)?.type.name).toBe('footnote');
    const after = state.apply(caretBesideNote(state, at, 'after')!);
    expect(after.selection.from).toBe(at + doc.nodeAt(at)!.nodeSize);
    expect(after.selection.$from.nodeBefore?.type.name).toBe('footnote');
    expect(state.apply(caretBesideNote(state, at, 'before')!).selection.$from.nodeAfter?.type.name).toBe(
      'footnote',
    );
    expect(caretBesideNote(state, at + 1, 'after')).toBeNull();
  });
});
