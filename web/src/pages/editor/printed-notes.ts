import type { Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { type DecorationSource, EditorView, type NodeView, type NodeViewConstructor } from 'prosemirror-view';
import { academicKey, noteNumber } from './academic/academic-plugin';

/**
 * The footnotes of a document as a notes section, for print: on screen a footnote is its number
 * and its paragraphs open beside it (FootnoteView), which paper cannot do. Each note is drawn by a
 * read-only view with the editor's node views and the academic decorations inside it (citation
 * texts, cross-reference labels), numbered as in the text. Used by the print page of the PDF
 * export (web/src/print) and by the editor when the browser prints it (File > Print, PDF offline).
 * Hidden when the document has no footnotes.
 */
export function printedNotes(
  view: EditorView,
  heading: string,
  nodeViews: Record<string, NodeViewConstructor>,
): HTMLElement {
  const section = document.createElement('section');
  section.className = 'printed-notes';
  const title = section.appendChild(document.createElement('h2'));
  title.textContent = heading;
  const list = section.appendChild(document.createElement('ol'));
  const { state } = view;
  const decorations = academicKey.getState(state)?.decorations;
  state.doc.descendants((node, pos) => {
    if (node.type.name !== 'footnote') return true;
    const item = list.appendChild(document.createElement('li'));
    item.value = noteNumber(state, pos);
    const inner = decorations && decorationsInside(decorations, state.doc, pos);
    new EditorView(item, {
      state: EditorState.create({ doc: node }),
      editable: () => false,
      nodeViews,
      ...(inner ? { decorations: () => inner } : {}),
      attributes: { class: 'printed-note' },
    });
    return false;
  });
  section.hidden = list.childElementCount === 0;
  return section;
}

/** The decorations inside the node at `pos`, as ProseMirror hands them to its view: level by level. */
function decorationsInside(decorations: DecorationSource, doc: PMNode, pos: number): DecorationSource {
  const $pos = doc.resolve(pos + 1);
  let inner = decorations;
  for (let depth = 0; depth < $pos.depth; depth++) {
    inner = inner.forChild($pos.before(depth + 1) - $pos.start(depth), $pos.node(depth + 1));
  }
  return inner;
}

/** A footnote as its number only (the print page's; printedNotes holds its paragraphs). */
export function footnoteMarkerView(_node: PMNode): NodeView {
  const dom = document.createElement('span');
  dom.className = 'doc-footnote-marker';
  dom.setAttribute('data-footnote', '');
  return { dom, ignoreMutation: () => true };
}
