import type { Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { type DecorationSource, EditorView, type NodeView, type NodeViewConstructor } from 'prosemirror-view';
import { academicKey, type CitationDecoration, noteNumber } from './academic/academic-plugin';
import { safeHtml } from './academic/academic-views';

/**
 * The footnotes of a document (and, in a note style, its citations) as a notes section, for
 * print: on screen a footnote is its number and its paragraphs open beside it (FootnoteView), which
 * paper cannot do. Each note is drawn by a read-only view with the editor's node views and the
 * academic decorations inside it (citation texts, cross-reference labels), numbered as in the text.
 * Used by the print page of the PDF export (web/src/print) and by the editor when the browser
 * prints it (File > Print, PDF offline), which calls `destroy` after printing. The section is
 * hidden when the document has no notes.
 */
export function printedNotes(
  view: EditorView,
  heading: string,
  nodeViews: Record<string, NodeViewConstructor>,
): { section: HTMLElement; destroy(): void } {
  const noteViews: EditorView[] = [];
  const section = document.createElement('section');
  section.className = 'printed-notes';
  const title = section.appendChild(document.createElement('h2'));
  title.textContent = heading;
  const list = section.appendChild(document.createElement('ol'));
  const { state } = view;
  const academic = academicKey.getState(state);
  const decorations = academic?.decorations;
  const noteStyle = academic?.rendered?.styleClass === 'note';
  state.doc.descendants((node, pos) => {
    const name = node.type.name;
    // In a note style (Chicago notes) a citation outside a footnote is a note of its own, in the
    // same numbering: its text joins the list (print.css hides the bibliography's separate list).
    if (name === 'citation' && noteStyle) {
      const citation = decorations
        ?.find(pos, pos + node.nodeSize, (spec) => 'citation' in spec)
        .map((decoration) => (decoration.spec as { citation: CitationDecoration }).citation)[0];
      const item = list.appendChild(document.createElement('li'));
      item.value = noteNumber(state, pos);
      item.className = 'printed-note';
      item.append(safeHtml(citation?.html ?? ''));
      return false;
    }
    if (name !== 'footnote') return true;
    const item = list.appendChild(document.createElement('li'));
    item.value = noteNumber(state, pos);
    const inner = decorations && decorationsInside(decorations, state.doc, pos);
    const noteView = new EditorView(item, {
      state: EditorState.create({ doc: node }),
      editable: () => false,
      nodeViews,
      ...(inner ? { decorations: () => inner } : {}),
      attributes: { class: 'printed-note' },
    });
    noteViews.push(noteView);
    return false;
  });
  section.hidden = list.childElementCount === 0;
  return {
    section,
    destroy() {
      for (const noteView of noteViews) noteView.destroy();
      section.remove();
    },
  };
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
