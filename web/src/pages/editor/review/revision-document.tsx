import type { Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { Decoration, DecorationSet, EditorView } from 'prosemirror-view';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { academicPlugins } from '../academic/academic-plugin';
import { academicNodeViews } from '../academic/academic-views';
import { partNodeViews } from '../part-views';
import { compareRevisions } from './revision-compare';

/**
 * A revision, or two compared, read-only and drawn as the editor draws them: the academic layer
 * (numbering, citations rendered by the citation worker, cross-reference texts) and the editor's
 * node views of equations, citations, figures, cross-references, the bibliography and the parts.
 */
export function RevisionDocument({ doc, before }: { doc: PMNode; before: PMNode | null }) {
  const { t } = useTranslation('editor');
  const mount = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: drawn once per document pair (t only names missing things)
  useEffect(() => {
    if (!mount.current) return;
    let shown = doc;
    let decorations = DecorationSet.empty;
    if (before) {
      const comparison = compareRevisions(before, doc);
      shown = comparison.doc;
      // Wrapped in an element of their own: a node view (a citation) sets its own classes.
      const mark = (className: string) => (range: { from: number; to: number }) =>
        Decoration.inline(range.from, range.to, { nodeName: 'span', class: className });
      decorations = DecorationSet.create(shown, [
        ...comparison.inserted.map(mark('review-diff-inserted')),
        ...comparison.deleted.map(mark('review-diff-deleted')),
      ]);
    }
    const translate = (key: string, options?: Record<string, unknown>) => String(t(key, options));
    const view = new EditorView(mount.current, {
      state: EditorState.create({ doc: shown, plugins: academicPlugins() }),
      editable: () => false,
      decorations: () => decorations,
      nodeViews: {
        ...partNodeViews({ t: translate, editable: () => false, editContributor: () => {} }),
        ...academicNodeViews({ t: translate, edit: () => {} }),
        // An untitled revision's title is no heading (an empty heading says nothing to a screen reader).
        title: (node) => {
          const dom = document.createElement('div');
          dom.className = 'doc-title';
          if (node.content.size) {
            dom.setAttribute('role', 'heading');
            dom.setAttribute('aria-level', '1');
          }
          return { dom, contentDOM: dom };
        },
      },
      attributes: { class: 'editor-document review-readonly', lang: String(shown.attrs.language) },
    });
    return () => view.destroy();
  }, [doc, before]);
  return <div className="editor-paper review-readonly-paper" ref={mount} data-testid="revision-document" />;
}
