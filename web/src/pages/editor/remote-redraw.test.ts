// @vitest-environment jsdom
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, NodeSelection, Plugin, TextSelection } from 'prosemirror-state';
import { Decoration, DecorationSet, EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { CollabSession } from './collab-session';
import { readDomSelectionBeforeRedraw } from './editor-plugins';
import { editFootnoteAt, FootnoteView, footnoteEditorsOf } from './footnote/view';

// A key moves the caret in the browser; ProseMirror reads it on the selectionchange event that
// follows. A redraw between the two (a co-author's step, a confirmation, a caret decoration) wrote
// the old selection back into the DOM, and the key was lost (a flaky review spec showed it).

const TEXT = 'one two three';
const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
  document.body.replaceChildren();
});

/**
 * A standard article whose body holds one paragraph, TEXT (or TEXT in a footnote of that
 * paragraph); and where that text starts.
 */
function article(inFootnote = false): { doc: PMNode; start: number } {
  const empty = createDocument(schema, standardArticle, { title: 'T' });
  const text = schema.nodes.paragraph.create(null, schema.text(TEXT));
  const paragraph = inFootnote
    ? schema.nodes.paragraph.create(null, [schema.text('see'), schema.nodes.footnote.create(null, text)])
    : text;
  const parts: PMNode[] = [];
  empty.forEach((part) => {
    parts.push(part.attrs.id === 'body' ? part.type.create(part.attrs, [paragraph]) : part);
  });
  const doc = schema.nodes.doc.create(empty.attrs, parts);
  let start = 0;
  doc.descendants((node, pos) => {
    if (node.type.name === 'paragraph' && node.textContent === TEXT) start = pos + 1;
  });
  return { doc, start };
}

/** Where the browser's caret is, as a document position. */
function domCaret(view: EditorView): number {
  const selection = document.getSelection()!;
  return view.posAtDOM(selection.focusNode!, selection.focusOffset);
}

/** The browser moves the caret `offset` characters into TEXT, as an arrow key does: no event yet. */
function moveCaretNatively(view: EditorView, offset: number): void {
  const text = [...view.dom.querySelectorAll('p')].find((p) => p.textContent?.includes(TEXT))!.firstChild!;
  document.getSelection()!.collapse(text, offset);
}

/** Others' carets as widgets, redrawn by setProps as the page does. */
function caretsPlugin(carets: () => number[]): Plugin {
  return new Plugin({
    props: {
      decorations: (state) =>
        DecorationSet.create(
          state.doc,
          carets().map((at) => Decoration.widget(at, () => document.createElement('span'))),
        ),
    },
  });
}

describe('readDomSelectionBeforeRedraw', () => {
  function editor() {
    const { doc, start } = article();
    let carets: number[] = [];
    const view = new EditorView(document.body.appendChild(document.createElement('div')), {
      state: EditorState.create({
        doc,
        plugins: [caretsPlugin(() => carets)],
        selection: TextSelection.create(doc, start),
      }),
    });
    views.push(view);
    view.focus();
    return { view, start, showCaretAt: (at: number) => (carets = [at]) };
  }

  it('a redraw for a co-author caret keeps the caret a key moved when the selection was read first', () => {
    const { view, start, showCaretAt } = editor();
    moveCaretNatively(view, 4);
    showCaretAt(start + 8);
    readDomSelectionBeforeRedraw(view, view.state);
    view.setProps({});
    expect(view.state.selection.head).toBe(start + 4);
    expect(domCaret(view)).toBe(start + 4);
  });

  it('without reading it, the same redraw puts the caret back (the race this guards against)', () => {
    const { view, start, showCaretAt } = editor();
    moveCaretNatively(view, 4);
    showCaretAt(start + 8);
    view.setProps({});
    expect(view.state.selection.head).toBe(start);
    expect(domCaret(view)).toBe(start);
  });

  it('reads nothing while the view shows another state than the one about to change', () => {
    const { view, start } = editor();
    const other = view.state.apply(view.state.tr.insertText('x', 1));
    moveCaretNatively(view, 4);
    readDomSelectionBeforeRedraw(view, other);
    expect(view.state.selection.head).toBe(start);
  });
});

describe('a collab session with beforeRemoteChange, wired to the view as the editor page does', () => {
  function collaborating(inFootnote = false) {
    const { doc, start } = article(inFootnote);
    let view: EditorView | null = null;
    const sent: unknown[] = [];
    const session = new CollabSession({
      send: (message) => sent.push(message),
      onChange: () => {},
      plugins: () => [],
      beforeRemoteChange: (state) => readDomSelectionBeforeRedraw(view, state),
    });
    session.receiveDocData({
      type: 'doc_data',
      doc: { id: 1, v: 0, title: 'T', content: doc.toJSON() },
      access_right: 'write',
      is_owner: true,
      session_id: 'me',
      participants: [],
    });
    view = new EditorView(document.body.appendChild(document.createElement('div')), {
      state: session.state!,
      nodeViews: {
        footnote: (node, outer, getPos, _decorations, inner) =>
          new FootnoteView(
            node,
            outer,
            getPos,
            {
              plugins: () => [],
              label: () => 'Footnote',
              backLabel: () => 'Back',
              heading: () => 'Footnotes',
              editable: () => true,
              outerKeys: () => false,
            },
            inner,
          ),
      },
      dispatchTransaction(this: EditorView, tr) {
        session.apply(tr);
        this.updateState(session.state!);
      },
    });
    views.push(view);
    view.focus();
    if (!inFootnote) view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, start)));
    /** What the page's subscriber does after a message: the view follows the session. */
    const follow = () => view!.updateState(session.state!);
    return { view, session, start, follow, sent };
  }

  it("a co-author's step between the key and its selectionchange: the caret stays after the key, mapped", () => {
    const { view, session, start, follow } = collaborating();
    moveCaretNatively(view, 8);
    const insert = EditorState.create({ doc: view.state.doc }).tr.insertText('X', start).steps[0];
    session.receiveDiff({ type: 'diff', v: 0, ds: [insert.toJSON()], cids: ['co-author'] });
    follow();
    expect(view.state.doc.textBetween(start, start + TEXT.length + 1)).toBe(`X${TEXT}`);
    expect(view.state.selection.head).toBe(start + 1 + 8);
    expect(domCaret(view)).toBe(start + 1 + 8);
  });

  it('the confirmation of our own typing between the key and its selectionchange keeps the caret', () => {
    const { view, session, start, follow, sent } = collaborating();
    view.dispatch(view.state.tr.insertText('!', start + TEXT.length));
    expect(sent).toHaveLength(1);
    moveCaretNatively(view, 3);
    session.confirm({ type: 'confirm_diff', rid: (sent[0] as { rid: number }).rid, v: 1 });
    follow();
    expect(session.unconfirmed).toBe(0);
    expect(view.state.selection.head).toBe(start + 3);
    expect(domCaret(view)).toBe(start + 3);
  });

  it('a co-author typing in the footnote I edit, between my key and its selectionchange: my caret stays', () => {
    const { view, session, start, follow } = collaborating(true);
    // Selecting the footnote opens its own editor, which takes the focus; its caret at TEXT's start.
    view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, start - 2)));
    expect(editFootnoteAt(view, start - 2)).toBe(true);
    const [footnote] = footnoteEditorsOf(view);
    footnote.dispatch(footnote.state.tr.setSelection(TextSelection.create(footnote.state.doc, 1)));
    expect(footnote.hasFocus()).toBe(true);
    moveCaretNatively(footnote, 8);
    const insert = EditorState.create({ doc: view.state.doc }).tr.insertText('X', start).steps[0];
    session.receiveDiff({ type: 'diff', v: 0, ds: [insert.toJSON()], cids: ['co-author'] });
    follow();
    expect(footnote.state.doc.textContent).toBe(`X${TEXT}`);
    expect(footnote.state.selection.head).toBe(1 + 1 + 8);
    expect(domCaret(footnote)).toBe(1 + 1 + 8);
  });
});
