import { editorInputRulesPlugin } from '@scriptorium/common/editor/input-rules';
import { linkPastePlugin } from '@scriptorium/common/editor/links';
import { baseKeymap } from 'prosemirror-commands';
import { keymap } from 'prosemirror-keymap';
import type { Command, Plugin } from 'prosemirror-state';
import type { NodeViewConstructor } from 'prosemirror-view';
import { EDITOR_ACTIONS, keymapName } from '../editor-actions';
import { currentSelectionPlugin, pastePlugin } from '../editor-plugins';
import { FootnoteView } from './view';

/** What the footnote's view needs of the editor around it. */
export interface FootnoteViewContext {
  t: (key: string, options?: Record<string, unknown>) => string;
  editable: () => boolean;
  /** The node views of the academic nodes inside a note (math, citations, cross-references). */
  innerViews: () => Record<string, NodeViewConstructor>;
}

/** The keymap of the nested footnote editor: formatting, lists and breaks, without history. */
export function footnoteKeymap(): Plugin {
  const bindings: Record<string, Command> = {};
  for (const action of EDITOR_ACTIONS) {
    if (action.keys && action.command && action.group === 'marks')
      bindings[keymapName(action.keys)] = action.command;
  }
  return keymap(bindings);
}

/** The nested footnote editor's plugins; quotation marks follow the outer document's language. */
export function footnotePlugins(language: () => string): Plugin[] {
  return [
    currentSelectionPlugin(),
    editorInputRulesPlugin(language),
    footnoteKeymap(),
    keymap(baseKeymap),
    linkPastePlugin(),
    pastePlugin(true),
  ];
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
          plugins: () => footnotePlugins(() => String(outer.state.doc.attrs.language)),
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
