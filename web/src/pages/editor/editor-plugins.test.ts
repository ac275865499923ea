// @vitest-environment jsdom
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { nestedEditorPlugins, renderedAroundSelectionPlugin } from './editor-plugins';

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

/** A standard article whose body holds paragraphs "p0".."p5"; the view and each paragraph's start. */
function editor(firstBlocks = 0) {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  const parts: PMNode[] = [];
  empty.forEach((node) => {
    parts.push(
      node.attrs.id === 'body'
        ? node.type.create(
            node.attrs,
            Array.from({ length: 6 }, (_, i) => schema.nodes.paragraph.create(null, schema.text(`p${i}`))),
          )
        : node,
    );
  });
  const doc = schema.nodes.doc.create(empty.attrs, parts);
  const starts: number[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'paragraph' && /^p\d$/.test(node.textContent)) starts.push(pos + 1);
  });
  const view = new EditorView(document.body.appendChild(document.createElement('div')), {
    state: EditorState.create({ doc, plugins: [renderedAroundSelectionPlugin(firstBlocks)] }),
  });
  views.push(view);
  const select = (from: number, to = from) =>
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, starts[from], starts[to])));
  const rendered = () =>
    [...view.dom.querySelectorAll('.doc-rendered')].map((element) => element.textContent);
  return { view, select, rendered };
}

describe('renderedAroundSelectionPlugin: the blocks the browser must always render', () => {
  it('marks the block of the selection and its neighbours, and follows the selection', () => {
    const { select, rendered } = editor();
    select(3);
    expect(rendered()).toEqual(['p2', 'p3', 'p4']);
    select(0);
    expect(rendered()).toEqual(['p0', 'p1']);
    select(1, 4);
    expect(rendered()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
  });

  it('marks a block made by Enter at once, in the same update', () => {
    const { view, select, rendered } = editor();
    select(5);
    // Enter at the end of p5, then typing: the new block is marked with the keystroke that made it.
    const end = view.state.selection.from + 2;
    const tr = view.state.tr.split(end);
    view.dispatch(tr.setSelection(TextSelection.create(tr.doc, end + 2)).insertText('new'));
    expect(rendered()).toEqual(['p5', 'new']);
  });

  it('keeps the first blocks of the document rendered too (the first screen on opening)', () => {
    // The blocks of the parts before the body (the title is no part's block), then three of the body.
    let before = 0;
    editor().view.state.doc.forEach((part) => {
      if (!part.isTextblock && part.attrs.id !== 'body' && before >= 0) before += part.childCount;
      if (part.attrs.id === 'body') before = -before;
    });
    const { view, select, rendered } = editor(-before + 3);
    const first = rendered();
    expect(first.slice(-3)).toEqual(['p0', 'p1', 'p2']);
    // Moving within the same blocks keeps the same set (the view compares it by identity).
    const decorations = () => view.state.plugins[0].getState(view.state);
    select(0);
    const atStart = decorations();
    select(0, 0);
    expect(decorations()).toBe(atStart);
    select(5);
    expect(rendered()).toEqual([...first, 'p4', 'p5']);
  });
});

describe("nestedEditorPlugins: a note's own editor", () => {
  const press = (view: EditorView, key: string, ctrlKey = false) =>
    view.someProp('handleKeyDown', (handle) => handle(view, new KeyboardEvent('keydown', { key, ctrlKey })));

  it('splits a paragraph with Enter, and leaves undo to the outer editor', () => {
    const paragraph = schema.nodes.paragraph.create(null, schema.text('A remark'));
    const note = schema.nodes.footnote.create(null, paragraph);
    const view = new EditorView(document.body.appendChild(document.createElement('div')), {
      state: EditorState.create({ doc: note, plugins: nestedEditorPlugins(() => 'en-US') }),
    });
    views.push(view);
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, 2)));
    expect(press(view, 'Enter')).toBe(true);
    expect(view.state.doc.childCount).toBe(2);
    expect(press(view, 'z', true)).toBeFalsy();
  });
});
