// @vitest-environment jsdom
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { withBody } from '@scriptorium/common/editor/testing';
import { trackTransaction } from '@scriptorium/common/editor/track-changes';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, NodeSelection, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { editFootnoteAt, FootnoteView, footnoteEditorsOf, footnotesPlugin } from './view';

// The footnotes are listed under the text, each in its own editor, always shown and editable in
// place; the keys that leave a note put the caret back beside its number in the text.

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
  document.body.replaceChildren();
});

const note = (text: string) =>
  schema.nodes.footnote.create(null, schema.nodes.paragraph.create(null, text ? schema.text(text) : null));

/** A document whose body is one paragraph: "One" note(first) " two" note(second) " three". */
function article(): PMNode {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  return withBody(empty, [
    schema.nodes.paragraph.create(null, [
      schema.text('One'),
      note('first'),
      schema.text(' two'),
      note('second'),
      schema.text(' three'),
    ]),
  ]);
}

function footnotePositions(doc: PMNode): number[] {
  const found: number[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'footnote') found.push(pos);
  });
  return found;
}

/** An editor with the footnotes' views; `suggest` records every change as a suggestion by ada. */
function editor(suggest = false): EditorView {
  const view = new EditorView(document.body.appendChild(document.createElement('div')), {
    state: EditorState.create({ doc: article(), plugins: [footnotesPlugin()] }),
    nodeViews: {
      footnote: (node, outer, getPos, _decorations, inner) =>
        new FootnoteView(
          node,
          outer,
          getPos,
          {
            plugins: () => [],
            label: (number) => `Text of footnote ${number}`,
            backLabel: (number) => `Back to footnote ${number} in the text`,
            heading: () => 'Footnotes',
            editable: () => true,
            outerKeys: () => false,
          },
          inner,
        ),
    },
    dispatchTransaction(this: EditorView, tr) {
      const tracked = suggest ? trackTransaction(tr, this.state, { id: 1, username: 'ada' }, 1000) : tr;
      if (tracked) this.updateState(this.state.apply(tracked));
    },
  });
  views.push(view);
  return view;
}

const settled = () => new Promise<void>((resolve) => queueMicrotask(resolve));

function listed(): string[] {
  return [...document.querySelectorAll('.doc-notes li')].map(
    (item) =>
      `${item.querySelector('button')?.textContent}:${item.querySelector('.ProseMirror')?.textContent}`,
  );
}

function press(view: EditorView, key: string): boolean {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  return Boolean(view.someProp('handleKeyDown', (handle) => handle(view, event)));
}

describe('footnotes listed under the text', () => {
  it('lists every note in order, numbered as in the text, and follows insertions and removals', async () => {
    const view = editor();
    await settled();
    const section = document.querySelector('.doc-notes') as HTMLElement;
    expect(section.hidden).toBe(false);
    expect(section.previousElementSibling).toBe(view.dom);
    expect(section.querySelector('h2')?.textContent).toBe('Footnotes');
    expect(listed()).toEqual(['1:first', '2:second']);
    const [first] = footnoteEditorsOf(view);
    expect(first.dom.getAttribute('aria-label')).toBe('Text of footnote 1');
    expect(document.querySelector('.doc-note-number')?.getAttribute('aria-label')).toBe(
      'Back to footnote 1 in the text',
    );

    // A new note before the others becomes 1; the others move down.
    const [at] = footnotePositions(view.state.doc);
    view.dispatch(view.state.tr.insert(at - 1, note('new')));
    await settled();
    expect(listed()).toEqual(['1:new', '2:first', '3:second']);
    expect(first.dom.getAttribute('aria-label')).toBe('Text of footnote 2');

    const [, second] = footnotePositions(view.state.doc);
    view.dispatch(view.state.tr.delete(second, second + view.state.doc.nodeAt(second)!.nodeSize));
    await settled();
    expect(listed()).toEqual(['1:new', '2:second']);
    for (const pos of footnotePositions(view.state.doc).reverse())
      view.dispatch(view.state.tr.delete(pos, pos + view.state.doc.nodeAt(pos)!.nodeSize));
    await settled();
    expect(footnotePositions(view.state.doc)).toEqual([]);
    expect(section.hidden).toBe(true);
  });

  it('typing in a note is a step of the document, recorded as a suggestion in suggestion mode', () => {
    for (const suggest of [false, true]) {
      const view = editor(suggest);
      const [inner] = footnoteEditorsOf(view);
      inner.dispatch(inner.state.tr.insertText(' more', 6));
      const [at] = footnotePositions(view.state.doc);
      const outerNote = view.state.doc.nodeAt(at)!;
      expect(outerNote.textContent).toBe('first more');
      expect(inner.state.doc.eq(outerNote)).toBe(true);
      const inserted = outerNote.firstChild!.lastChild!;
      expect(inserted.text).toBe(suggest ? ' more' : 'first more');
      expect(inserted.marks.map((mark) => mark.type.name)).toEqual(suggest ? ['insertion'] : []);
      // A deletion in suggestion mode stays, marked: the note's editor shows it as the text does.
      inner.dispatch(inner.state.tr.delete(1, 3));
      const after = view.state.doc.nodeAt(footnotePositions(view.state.doc)[0])!;
      expect(after.textContent).toBe(suggest ? 'first more' : 'rst more');
      expect(inner.state.doc.eq(after)).toBe(true);
      view.destroy();
      views.splice(views.indexOf(view), 1);
      document.body.replaceChildren();
    }
  });

  it('a footnote just inserted and selected is typed into; one drawn again while selected is not', async () => {
    const view = editor();
    const [at] = footnotePositions(view.state.doc);
    const tr = view.state.tr.insert(at - 1, note(''));
    view.dispatch(tr.setSelection(NodeSelection.create(tr.doc, at - 1)));
    await settled();
    const inserted = footnoteEditorsOf(view).find((inner) => inner.state.doc.textContent === '')!;
    expect(inserted.hasFocus()).toBe(true);

    // A suggestion mark on a selected footnote draws it anew: the focus stays in the text.
    view.focus();
    const [, first] = footnotePositions(view.state.doc);
    const marked = view.state.tr.addNodeMark(
      first,
      schema.marks.deletion.create({ user: 1, username: 'ada', date: 1 }),
    );
    view.dispatch(marked.setSelection(NodeSelection.create(marked.doc, first)));
    await settled();
    expect(view.hasFocus()).toBe(true);
  });

  it('shows a co-author’s change to a note', () => {
    const view = editor();
    const [at] = footnotePositions(view.state.doc);
    view.dispatch(view.state.tr.insertText('the ', at + 2));
    const [inner] = footnoteEditorsOf(view);
    expect(inner.state.doc.textContent).toBe('the first');
  });

  it('Escape and the arrows at the edges leave the note beside its number; Enter on the number enters it', () => {
    const view = editor();
    const [at] = footnotePositions(view.state.doc);
    const size = view.state.doc.nodeAt(at)!.nodeSize;
    const [inner] = footnoteEditorsOf(view);

    expect(editFootnoteAt(view, at)).toBe(true);
    expect(inner.hasFocus()).toBe(true);
    expect(inner.state.selection.from).toBe(6);
    expect(press(inner, 'Escape')).toBe(true);
    expect(view.hasFocus()).toBe(true);
    expect(view.state.selection.from).toBe(at + size);
    expect(view.state.selection.$from.nodeBefore?.type.name).toBe('footnote');

    // ArrowRight at the end goes after the number, ArrowLeft at the start before it.
    editFootnoteAt(view, at);
    expect(press(inner, 'ArrowRight')).toBe(true);
    expect(view.state.selection.from).toBe(at + size);
    editFootnoteAt(view, at);
    inner.dispatch(inner.state.tr.setSelection(TextSelection.create(inner.state.doc, 3)));
    expect(press(inner, 'ArrowLeft')).toBe(false);
    inner.dispatch(inner.state.tr.setSelection(TextSelection.create(inner.state.doc, 1)));
    expect(press(inner, 'ArrowLeft')).toBe(true);
    expect(view.state.selection.from).toBe(at);
    expect(view.state.selection.$from.nodeAfter?.type.name).toBe('footnote');

    // The number in the list leads back to the text too.
    editFootnoteAt(view, at);
    (document.querySelector('.doc-note-number') as HTMLButtonElement).click();
    expect(view.state.selection.from).toBe(at + size);

    // Enter on a selected number moves into its note.
    view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, at)));
    expect(document.querySelector('.doc-note')?.classList.contains('doc-note-selected')).toBe(true);
    expect(press(view, 'Enter')).toBe(true);
    expect(inner.hasFocus()).toBe(true);
    expect(view.state.doc.nodeAt(at)?.type.name).toBe('footnote');
  });
});
