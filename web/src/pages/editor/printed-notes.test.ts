// @vitest-environment jsdom
import { insertDisplayEquation } from '@scriptorium/common/editor/academic-commands';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { EditorState, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { academicKey, academicPlugins, type RenderedState } from './academic/academic-plugin';
import { academicNodeViews } from './academic/academic-views';
import { citeBook } from './academic/testing';
import { footnoteMarkerView, printedNotes } from './printed-notes';

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

const nodeViews = academicNodeViews({ t: (key) => `t:${key}`, edit: () => {} });

function editor(): EditorView {
  const doc = createDocument(schema, standardArticle, { title: 'T', language: 'en-US' });
  let start = 0;
  doc.forEach((node, offset) => {
    if (node.attrs.id === 'body') start = offset + 2;
  });
  const state = EditorState.create({ doc, plugins: academicPlugins() });
  const view = new EditorView(document.body.appendChild(document.createElement('div')), {
    state: state.apply(state.tr.setSelection(TextSelection.create(doc, start))),
    nodeViews: { ...nodeViews, footnote: footnoteMarkerView },
  });
  views.push(view);
  return view;
}

function footnote(...content: Parameters<typeof schema.nodes.paragraph.create>[1][]) {
  return schema.nodes.footnote.create(
    null,
    content.map((inline) => schema.nodes.paragraph.create(null, inline)),
  );
}

describe('printedNotes: the footnotes as notes at the end, for print', () => {
  it('lists each footnote in document order with its number, its paragraphs and live labels', () => {
    const view = editor();
    insertDisplayEquation('a=b')(view.state, view.dispatch);
    const figure = view.state.doc.nodeAt(view.state.selection.from - 2);
    view.dispatch(view.state.tr.insertText('First'));
    view.dispatch(view.state.tr.replaceSelectionWith(footnote(schema.text('One.'), schema.text('Two.'))));
    view.dispatch(view.state.tr.insertText(' then'));
    view.dispatch(
      view.state.tr.replaceSelectionWith(
        footnote([
          schema.text('See '),
          schema.nodes.cross_reference.create({ id: String(figure?.attrs.id), title: '' }),
          schema.text(' and '),
          schema.nodes.equation.create({ equation: 'x^2' }),
        ]),
      ),
    );
    expect(view.dom.querySelectorAll('.doc-footnote-marker')).toHaveLength(2);
    // The text shows numbers only: the paragraphs are not in it.
    expect(view.dom.textContent).not.toContain('One.');

    const notes = printedNotes(view, 'Notes', nodeViews).section;
    expect(notes.hidden).toBe(false);
    expect(notes.querySelector('h2')?.textContent).toBe('Notes');
    const items = [...notes.querySelectorAll('li')];
    expect(items.map((item) => item.value)).toEqual([1, 2]);
    expect([...items[0].querySelectorAll('p')].map((p) => p.textContent)).toEqual(['One.', 'Two.']);
    // The academic decorations reach inside: the cross-reference's label, the equation's MathML.
    expect(items[1].querySelector('.doc-cross-reference')?.textContent).toBe('(1)');
    expect(items[1].querySelector('.doc-equation math msup')).not.toBeNull();
    expect(items[1].querySelector('[contenteditable="true"]')).toBeNull();
  });

  it('is hidden for a document without footnotes', () => {
    const view = editor();
    view.dispatch(view.state.tr.insertText('No notes here.'));
    const notes = printedNotes(view, 'Notes', nodeViews).section;
    expect(notes.hidden).toBe(true);
    expect(notes.querySelectorAll('li')).toHaveLength(0);
  });

  it('in a note style, lists the citations as notes too, in the one numbering', () => {
    const view = editor();
    view.dispatch(view.state.tr.insertText('a'));
    view.dispatch(view.state.tr.replaceSelectionWith(footnote(schema.text('First note.'))));
    citeBook(view, 'one');
    view.dispatch(view.state.tr.replaceSelectionWith(footnote(schema.text('Third note.'))));
    const academic = academicKey.getState(view.state);
    const rendered: RenderedState = {
      signature: String(academic?.signature),
      styleClass: 'note',
      citations: ['One, <i>T</i>.'],
      bySignature: new Map(),
      bibliography: [],
      failed: false,
    };
    view.dispatch(view.state.tr.setMeta(academicKey, rendered));
    const items = [...printedNotes(view, 'Notes', nodeViews).section.querySelectorAll('li')];
    expect(items.map((item) => [item.value, item.textContent])).toEqual([
      [1, 'First note.'],
      [2, 'One, T.'],
      [3, 'Third note.'],
    ]);
    expect(items[1].querySelector('i')?.textContent).toBe('T');
  });
});
