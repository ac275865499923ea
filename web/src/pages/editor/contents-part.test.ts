import { schema } from '@scriptorium/common/editor/schema';
import { documentTitle } from '@scriptorium/common/editor/templates';
import { documentFromDefinition } from '@scriptorium/common/plugins/template-document';
import { contentsDefinition } from '@scriptorium/common/plugins/template-testing';
import { standardDefinition } from '@scriptorium/common/plugins/templates-api';
import { Fragment, type Node as PMNode, Slice } from 'prosemirror-model';
import { AllSelection, EditorState } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteAcrossParts, editorPlugins } from './editor-plugins';
import { tocPartView } from './part-views';

/** Issue 21: a table-of-contents part follows the headings; TOC and separator parts cannot be deleted. */

let view: EditorView | null = null;
afterEach(() => {
  view?.destroy();
  view = null;
});

function editor(): EditorView {
  const doc = documentFromDefinition(schema, 'template-2', 'Book', contentsDefinition());
  const mount = document.body.appendChild(document.createElement('div'));
  view = new EditorView(mount, {
    state: EditorState.create({ doc, plugins: editorPlugins({ carets: () => [], label: (key) => key }) }),
    nodeViews: { toc_part: tocPartView() },
  });
  return view;
}

/** Where the body part's first paragraph starts. */
function bodyStart(current: EditorView): number {
  let pos = 0;
  current.state.doc.forEach((node, offset) => {
    if (node.attrs.id === 'body') pos = offset + 2;
  });
  return pos;
}

function entries(current: EditorView): string[] {
  return [...current.dom.querySelectorAll('.doc-toc_part li')].map(
    (item) => `${item.className}: ${item.textContent}`,
  );
}

describe('table-of-contents part in the editor', () => {
  it('lists the headings as they are written and changed', () => {
    const current = editor();
    const toc = current.dom.querySelector('.doc-toc_part') as HTMLElement;
    expect(toc.getAttribute('contenteditable')).toBe('false');
    expect(toc.querySelector('.doc-toc-title')?.textContent).toBe('Contents');
    expect(entries(current)).toEqual([]);
    const start = bodyStart(current);
    const s = schema.nodes;
    current.dispatch(
      current.state.tr.insert(start - 1, [
        s.heading.create({ level: 1, id: 'H1' }, schema.text('Method')),
        s.heading.create({ level: 2, id: 'H2' }, schema.text('Sample')),
      ]),
    );
    expect(entries(current)).toEqual(['doc-toc-level-1: Method', 'doc-toc-level-2: Sample']);
    expect(toc.querySelector('a')?.getAttribute('href')).toBe('#H1');
    current.dispatch(current.state.tr.insertText('s', start + 'Method'.length));
    expect(entries(current)).toEqual(['doc-toc-level-1: Methods', 'doc-toc-level-2: Sample']);
    // The same node view, redrawn in place.
    expect(current.dom.querySelector('.doc-toc_part')).toBe(toc);
  });

  it('refuses an edit that deletes the TOC or the separator part, and draws the separator as a rule', () => {
    const current = editor();
    expect(current.dom.querySelector('.doc-separator_part hr')).not.toBeNull();
    const before = current.state.doc;
    const tocSize = before.child(1).nodeSize;
    const title = before.child(0).nodeSize;
    current.dispatch(current.state.tr.delete(title, title + tocSize));
    current.dispatch(current.state.tr.delete(title + tocSize, title + tocSize + before.child(2).nodeSize));
    expect(current.state.doc.eq(before)).toBe(true);
    // Other edits go on.
    current.dispatch(current.state.tr.insertText('Text', bodyStart(current)));
    expect(current.state.doc.textContent).toBe('Text');
  });
});

describe('the parts of a document', () => {
  const parts = (doc: PMNode) => {
    const out: string[] = [];
    doc.forEach((node) => {
      out.push(`${node.type.name}:${node.attrs.id ?? ''}`);
    });
    return out;
  };

  it('stay when everything is selected and deleted; what they held goes', () => {
    const doc = documentFromDefinition(schema, 'template-1', 'Essay', standardDefinition());
    let state = EditorState.create({
      doc,
      plugins: editorPlugins({ carets: () => [], label: (key) => key }),
    });
    state = state.apply(state.tr.insertText('Words', state.doc.content.size - 2));
    state = state.apply(state.tr.setSelection(new AllSelection(state.doc)));
    expect(deleteAcrossParts(state, (tr) => (state = state.apply(tr)))).toBe(true);
    expect(parts(state.doc)).toEqual(parts(doc));
    expect(state.doc.textContent).toBe('');
  });

  it('stay when text is typed or pasted over everything: it goes where the selection began', () => {
    const doc = documentFromDefinition(schema, 'template-1', 'Essay', standardDefinition());
    const mount = document.body.appendChild(document.createElement('div'));
    view = new EditorView(mount, {
      state: EditorState.create({ doc, plugins: editorPlugins({ carets: () => [], label: (key) => key }) }),
    });
    const current = view;
    current.dispatch(current.state.tr.insertText('Words', current.state.doc.content.size - 2));
    const selectAll = () =>
      current.dispatch(current.state.tr.setSelection(new AllSelection(current.state.doc)));
    selectAll();
    const typed = current.someProp('handleTextInput', (handle) =>
      handle(current, current.state.selection.from, current.state.selection.to, 'N', () => current.state.tr),
    );
    expect(typed).toBe(true);
    expect(parts(current.state.doc)).toEqual(parts(doc));
    expect(current.state.doc.textContent).toBe('N');
    expect(documentTitle(current.state.doc)).toBe('N');
    selectAll();
    const pasted = current.someProp('handlePaste', (handle) =>
      handle(
        current,
        new Event('paste') as ClipboardEvent,
        new Slice(Fragment.from(schema.text('Pasted')), 0, 0),
      ),
    );
    expect(pasted).toBe(true);
    expect(parts(current.state.doc)).toEqual(parts(doc));
    expect(current.state.doc.textContent).toBe('Pasted');
  });

  it('are never removed, added or moved by an edit of the author (the server refuses it too)', () => {
    const doc = documentFromDefinition(schema, 'template-1', 'Essay', standardDefinition());
    const state = EditorState.create({
      doc,
      plugins: editorPlugins({ carets: () => [], label: (key) => key }),
    });
    const abstract = doc.child(0).nodeSize + doc.child(1).nodeSize;
    const removed = state.apply(state.tr.delete(abstract, abstract + doc.child(2).nodeSize));
    expect(removed.doc.eq(doc)).toBe(true);
    const all = state.apply(state.tr.setSelection(new AllSelection(doc)).deleteSelection());
    expect(all.doc.eq(doc)).toBe(true);
  });
});
