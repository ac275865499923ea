import type { Plugin } from 'prosemirror-state';
import type { NodeViewConstructor } from 'prosemirror-view';
import { FootnoteView } from './view';

/** What the footnote's view needs of the editor around it. */
export interface FootnoteViewContext {
  t: (key: string, options?: Record<string, unknown>) => string;
  editable: () => boolean;
  /** The node views of the academic nodes inside a note (math, citations, cross-references). */
  innerViews: () => Record<string, NodeViewConstructor>;
  /** The plugins of a nested editor (editor-plugins.ts); quotation marks follow `language`. */
  nestedPlugins: (language: () => string) => Plugin[];
}

/** The editor's node view of the footnote: its number in the text, its note in the list below. */
export function footnoteNodeViews(context: FootnoteViewContext): Record<string, NodeViewConstructor> {
  return {
    footnote: (node, outer, getPos, _decorations, innerDecorations) =>
      new FootnoteView(
        node,
        outer,
        getPos,
        {
          plugins: () => context.nestedPlugins(() => String(outer.state.doc.attrs.language)),
          label: (number) => context.t('footnote.editor', { number }),
          backLabel: (number) => context.t('footnote.back', { number }),
          heading: () => context.t('footnote.heading'),
          editable: context.editable,
          outerKeys: (event) => {
            // Undo and redo belong to the outer editor's history.
            const mod = event.ctrlKey || event.metaKey;
            if (!mod || (event.key.toLowerCase() !== 'z' && event.key.toLowerCase() !== 'y')) return false;
            return Boolean(outer.someProp('handleKeyDown', (handle) => handle(outer, event)));
          },
          // Math, citations and cross-references read as in the text; their dialogs work on
          // the document's selection, so they are opened from the text, not from here.
          nodeViews: context.innerViews(),
        },
        innerDecorations,
      ),
  };
}
