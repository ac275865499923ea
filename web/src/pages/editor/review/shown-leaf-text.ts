import type { EditorState } from 'prosemirror-state';
import type { CitationDecoration } from '../academic/academic-plugin';
import { academicKey } from '../academic/academic-plugin';
import { safeHtml } from '../academic/academic-views';
import type { LeafText } from './change-quote';

/**
 * Atoms as the editor shows them in `state`: a citation by its rendered text, a cross-reference by
 * its label (both from the academic layer's node decorations); null where nothing is rendered yet.
 */
export function shownLeafText(state: EditorState): LeafText {
  const decorations = academicKey.getState(state)?.decorations;
  return (node, pos) => {
    const name = node.type.name;
    if (!decorations || (name !== 'citation' && name !== 'cross_reference')) return null;
    for (const decoration of decorations.find(pos, pos + node.nodeSize)) {
      const spec = decoration.spec as { citation?: CitationDecoration; label?: string | null };
      if (decoration.from !== pos) continue;
      if (spec.citation?.html) return safeHtml(spec.citation.html).textContent ?? null;
      if (name === 'cross_reference' && spec.label) return spec.label;
    }
    return null;
  };
}
