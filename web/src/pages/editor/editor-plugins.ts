import { assignHeadingIds, partAt, splitItem } from '@scriptorium/common/editor/commands';
import { editorInputRulesPlugin } from '@scriptorium/common/editor/input-rules';
import { linkPastePlugin } from '@scriptorium/common/editor/links';
import { cleanPastedHTML, fitSlice, plainTextSlice } from '@scriptorium/common/editor/paste';
import { FORMAT_MARKS, isAside, schema } from '@scriptorium/common/editor/schema';
import { findMatches, type SearchQuery } from '@scriptorium/common/editor/search';
import { keepsTemplateParts } from '@scriptorium/common/editor/templates';
import { baseKeymap } from 'prosemirror-commands';
import { dropCursor } from 'prosemirror-dropcursor';
import { gapCursor } from 'prosemirror-gapcursor';
import { history, redo, undo } from 'prosemirror-history';
import { undoInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import type { Node as PMNode } from 'prosemirror-model';
import {
  type Command,
  type EditorState,
  Plugin,
  PluginKey,
  Selection,
  TextSelection,
  type Transaction,
} from 'prosemirror-state';
import { columnResizing, tableEditing } from 'prosemirror-tables';
import { Decoration, DecorationSet, type EditorView } from 'prosemirror-view';
import { EDITOR_ACTIONS, keymapName } from './editor-actions';
import { featurePlugins, nestedEditorsOf } from './features';
import { documentEdgesPlugins, tableKeysPlugin } from './tables/document-edges';

/** Editor plugins: keys, input rules, tables, paste cleaning, heading ids, search highlights, carets, part labels. */

export interface CaretInfo {
  sessionId: string;
  anchor: number;
  head: number;
  name: string;
  colour: string;
}

export interface PluginContext {
  /** Other editors' carets, already in this document's coordinates. */
  carets(): readonly CaretInfo[];
  /** Translated part labels and placeholders. */
  label(key: string): string;
}

/** The keymap drawn from the action table, plus list and table keys. */
export function editorKeymap(): Plugin {
  const bindings: Record<string, Command> = {};
  for (const action of EDITOR_ACTIONS) {
    if (action.keys && action.command) bindings[keymapName(action.keys)] = action.command;
  }
  bindings['Mod-y'] = redo;
  bindings['Mod-z'] = undo;
  bindings.Enter = splitItem;
  bindings.Backspace = undoInputRule;
  return keymap(bindings);
}

export const searchKey = new PluginKey<SearchState>('search');

interface SearchState {
  query: SearchQuery | null;
  current: number;
  decorations: DecorationSet;
}

function searchDecorations(state: EditorState, query: SearchQuery | null, current: number): DecorationSet {
  if (!query) return DecorationSet.empty;
  const matches = findMatches(state.doc, query);
  return DecorationSet.create(
    state.doc,
    matches.map((match, index) =>
      Decoration.inline(match.from, match.to, {
        class: index === current ? 'search-match current' : 'search-match',
      }),
    ),
  );
}

/** Highlights the matches of the find panel; the panel sets the query with a meta. */
export function searchPlugin(): Plugin<SearchState> {
  return new Plugin<SearchState>({
    key: searchKey,
    state: {
      init: () => ({ query: null, current: 0, decorations: DecorationSet.empty }),
      apply: (tr, value, _old, state) => {
        const meta = tr.getMeta(searchKey) as { query: SearchQuery | null; current: number } | undefined;
        if (meta) return { ...meta, decorations: searchDecorations(state, meta.query, meta.current) };
        if (tr.docChanged && value.query)
          return { ...value, decorations: searchDecorations(state, value.query, value.current) };
        return value;
      },
    },
    props: { decorations: (state) => searchKey.getState(state)?.decorations },
  });
}

export const caretKey = new PluginKey('carets');

/** Others' carets and selections in their colour, redrawn whenever the page says they moved. */
export function caretPlugin(context: PluginContext): Plugin {
  return new Plugin({
    key: caretKey,
    props: {
      decorations: (state) => {
        const size = state.doc.content.size;
        const decorations: Decoration[] = [];
        for (const caret of context.carets()) {
          const head = Math.min(caret.head, size);
          const anchor = Math.min(caret.anchor, size);
          const from = Math.min(head, anchor);
          const to = Math.max(head, anchor);
          if (from !== to)
            decorations.push(
              Decoration.inline(from, to, {
                class: 'remote-selection',
                style: `background-color: ${caret.colour}33`,
              }),
            );
          decorations.push(
            Decoration.widget(
              head,
              () => {
                const element = document.createElement('span');
                element.className = 'remote-caret';
                element.style.borderColor = caret.colour;
                element.setAttribute('data-session', caret.sessionId);
                // The name is drawn by CSS from the attribute: it must not become part of the text.
                element.setAttribute('data-name', caret.name);
                element.style.setProperty('--caret-colour', caret.colour);
                return element;
              },
              { key: `${caret.sessionId}:${caret.name}:${caret.colour}`, side: -1 },
            ),
          );
        }
        return DecorationSet.create(state.doc, decorations);
      },
    },
  });
}

let editors = 0;

/** A part's help line: not editable, not part of the text. */
function helpLine(id: string, help: string): HTMLElement {
  const element = document.createElement('div');
  element.className = 'doc-part-help';
  element.id = id;
  element.setAttribute('contenteditable', 'false');
  element.textContent = help;
  return element;
}

/**
 * Labels of the parts (Abstract, Keywords...), placeholders of the empty title and subtitle, and
 * the help texts a document's template gave its parts.
 */
export function partLabelPlugin(context: PluginContext): Plugin {
  // Tells this editor's help ids from another editor's on the same page.
  const instance = ++editors;
  return new Plugin({
    props: {
      decorations: (state) => {
        const decorations: Decoration[] = [];
        state.doc.forEach((node, offset) => {
          const id = node.type.name === 'title' ? 'title' : String(node.attrs.id);
          const attrs: Record<string, string> = { 'data-label': context.label(`part.${id}`) };
          // The template's help text: a muted line above the part, which describes it to screen readers.
          const help = node.type.name === 'title' || node.attrs.hidden ? '' : String(node.attrs.help ?? '');
          if (help) {
            const helpId = `doc-part-help-${instance}-${id}`;
            attrs['aria-describedby'] = helpId;
            decorations.push(
              Decoration.widget(offset, () => helpLine(helpId, help), {
                key: `help:${helpId}:${help}`,
                side: -1,
                ignoreSelection: true,
              }),
            );
          }
          if (node.type.name === 'title' || node.type.name === 'heading_part') {
            if (node.content.size === 0) {
              attrs['data-placeholder'] = context.label(`part.${id}`);
              // An empty heading still has a name for screen readers: the placeholder they cannot see.
              attrs['aria-label'] = context.label(`part.${id}`);
            }
          }
          decorations.push(Decoration.node(offset, offset + node.nodeSize, attrs));
        });
        return DecorationSet.create(state.doc, decorations);
      },
    },
  });
}

/** Heading ids for internal links; only for this editor's own changes, so that two editors never race. */
function headingIdPlugin(): Plugin {
  return new Plugin({
    appendTransaction: (transactions, _old, state) => {
      if (!transactions.some((tr) => tr.docChanged && !tr.getMeta('collab$'))) return null;
      return assignHeadingIds(state);
    },
  });
}

/** Paste: clean office and web markup, keep plain-text paragraphs, fit what the part allows. */
export function pastePlugin(nested = false): Plugin {
  return new Plugin({
    props: {
      transformPastedHTML: (html) => cleanPastedHTML(html),
      clipboardTextParser: (text) => plainTextSlice(text),
      transformPasted: (slice, view) => {
        // A note's nested editor: paragraphs, breaks and formatting.
        if (nested) return fitSlice(slice, ['paragraph', 'hard_break'], FORMAT_MARKS);
        const part = partAt(view.state.selection.$from);
        if (!part) {
          // The title: text with the title's marks only.
          return fitSlice(
            slice,
            [],
            FORMAT_MARKS.filter((name) => schema.nodes.title.allowsMarkType(schema.marks[name])),
          );
        }
        if (part.type.name !== 'richtext_part') return fitSlice(slice, [], part.attrs.marks as string[]);
        return fitSlice(slice, part.attrs.elements as string[], part.attrs.marks as string[]);
      },
    },
  });
}

/**
 * Reads the browser's selection into the editor now. ProseMirror reads it on 'selectionchange', a
 * task that a key pressed right after moving the caret can overtake (the browser runs input events
 * first): Shift+Ctrl+Right then Mod-Alt-M commented on the old, empty selection, and ArrowRight
 * then Enter split the paragraph one character early.
 */
export function readDomSelection(view: EditorView): void {
  // Only a text caret or range moves natively; a selected figure or table cell is the editor's own.
  if (view.hasFocus() && view.state.selection instanceof TextSelection)
    view.dom.ownerDocument.dispatchEvent(new Event('selectionchange'));
}

/**
 * The same before a redraw that does not come from the user (a co-author's steps, a confirmation,
 * others' carets): the redraw writes the state's selection into the DOM and would put the caret
 * back where it was before the key (ProseMirror guards against this for mouse drags only). Only
 * while the view holds `state`: what is read is dispatched on the view's state, so it must be the
 * one about to change. An open nested editor (a note's) is read too, here and not in its own update:
 * there, what it read (typed text) would reach the outer view in the middle of that view's update.
 */
export function readDomSelectionBeforeRedraw(view: EditorView | null, state: EditorState | null): void {
  if (!view || view.isDestroyed || !state || view.state !== state) return;
  readDomSelection(view);
  for (const nested of nestedEditorsOf(view)) readDomSelection(nested);
}

/**
 * Before any keymap: a key a command handles (Enter, Backspace, a shortcut...) acts on the
 * selection the user sees (see readDomSelection). Typed characters need nothing: the browser
 * inserts them at its own selection.
 */
export function currentSelectionPlugin(): Plugin {
  return new Plugin({
    props: {
      handleKeyDown: (view, event) => {
        if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) readDomSelection(view);
        return false;
      },
    },
  });
}

/** A table of contents' entry: a heading of the document's visible rich-text parts. */
export interface TocLine {
  id: string;
  level: number;
  text: string;
}

/** The headings (levels 1 to 3) of the document's visible rich-text parts, in order. */
export function documentHeadings(doc: PMNode): TocLine[] {
  const lines: TocLine[] = [];
  doc.forEach((part) => {
    if (part.type.name !== 'richtext_part' || part.attrs.hidden || part.attrs.id === 'abstract') return;
    part.descendants((node) => {
      if (node.type.name === 'heading') {
        const level = Number(node.attrs.level);
        if (level <= 3 && node.textContent.trim())
          lines.push({ id: String(node.attrs.id), level, text: node.textContent });
        return false;
      }
      return !isAside(node) && node.type.name !== 'table';
    });
  });
  return lines;
}

/** How many blocks from the document's start are always rendered: more than a first screen holds. */
export const FIRST_SCREEN_BLOCKS = 40;

const renderedKey = new PluginKey<{ key: string; set: DecorationSet }>('renderedAroundSelection');

/** The [from, to) of each block that must stay rendered, in document order, without repeats. */
function alwaysRenderedBlocks(state: EditorState, firstBlocks: number): [number, number][] {
  const ranges: [number, number][] = [];
  // The first screen: without it, the blocks there were laid out at their estimated height
  // (contain-intrinsic-size) in the first frame and at their own in the next, a layout shift
  // of everything below them (Lighthouse: cumulative layout shift on opening a document).
  let left = firstBlocks;
  state.doc.forEach((part, offset) => {
    if (left <= 0 || part.isTextblock) return;
    let pos = offset + 1;
    for (let index = 0; index < part.childCount && left > 0; index++, left--) {
      const size = part.child(index).nodeSize;
      ranges.push([pos, pos + size]);
      pos += size;
    }
  });
  const { $from, $to } = state.selection;
  // Blocks of a part are the document's grandchildren (doc > part > block). Their places come from
  // the resolved positions: no walk over the blocks before the selection in a long paper.
  if ($from.depth >= 2 && $to.depth >= 2 && $from.index(0) === $to.index(0)) {
    const part = $from.node(1);
    const first = $from.index(1);
    const last = $to.index(1);
    let pos = $from.before(2);
    if (first > 0) ranges.push([pos - part.child(first - 1).nodeSize, pos]);
    for (let index = first; index <= last; index++) {
      const size = part.child(index).nodeSize;
      ranges.push([pos, pos + size]);
      pos += size;
    }
    if (last + 1 < part.childCount) ranges.push([pos, pos + part.child(last + 1).nodeSize]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return ranges.filter((range, index) => index === 0 || range[0] !== ranges[index - 1][0]);
}

/**
 * The blocks around the selection are always rendered (class doc-rendered). Far from the screen,
 * blocks of a long paper skip rendering (content-visibility in editor.css), and a block a keystroke
 * has just made (Enter, a list) would be skipped until the browser's next frame: keys typed in that
 * moment went astray. The block before and after are kept too, for the arrow keys; and the first
 * `firstBlocks` blocks of the document (the first screen on opening). The set is made again only
 * when those blocks' places change, and is otherwise the same object (the view skips it).
 */
export function renderedAroundSelectionPlugin(firstBlocks = FIRST_SCREEN_BLOCKS): Plugin {
  const derive = (state: EditorState, previous?: { key: string; set: DecorationSet }) => {
    const ranges = alwaysRenderedBlocks(state, firstBlocks);
    const key = ranges.join(';');
    if (previous && previous.key === key) return previous;
    const set = DecorationSet.create(
      state.doc,
      ranges.map(([from, to]) => Decoration.node(from, to, { class: 'doc-rendered' })),
    );
    return { key, set };
  };
  return new Plugin({
    key: renderedKey,
    state: {
      init: (_config, state) => derive(state),
      apply: (tr, value, _old, state) => (tr.docChanged || tr.selectionSet ? derive(state, value) : value),
    },
    props: { decorations: (state) => renderedKey.getState(state)?.set },
  });
}

/**
 * Tables of contents follow the headings: each toc_part gets a node decoration whose spec holds
 * the current headings, which its node view (part-views.ts tocPartView) draws.
 */
export function tocPlugin(): Plugin {
  return new Plugin({
    props: {
      decorations: (state) => {
        const parts: [number, PMNode][] = [];
        state.doc.forEach((node, offset) => {
          if (node.type.name === 'toc_part') parts.push([offset, node]);
        });
        if (!parts.length) return null;
        const toc = documentHeadings(state.doc);
        return DecorationSet.create(
          state.doc,
          parts.map(([offset, node]) => Decoration.node(offset, offset + node.nodeSize, {}, { toc })),
        );
      },
    },
  });
}

/**
 * The editor enforces the template: no author's edit removes, adds or reorders a part (the rule
 * the collaboration server applies, `keepsTemplateParts`; a refused diff would stop sending).
 * Steps of others (collab) are the server's to judge. Typing, pasting or cutting over a selection
 * across parts (Select all) works on what it covers inside each part instead.
 */
function partGuardPlugin(): Plugin {
  return new Plugin({
    filterTransaction: (tr, state) =>
      !tr.docChanged || Boolean(tr.getMeta('collab$')) || keepsTemplateParts(state.doc, tr.doc),
    props: {
      handleTextInput: (view, _from, _to, text) =>
        replaceAcrossParts(view, (tr) => tr.insertText(text), 'input'),
      handlePaste: (view, _event, slice) =>
        replaceAcrossParts(view, (tr) => tr.replaceSelection(slice), 'paste'),
      handleDOMEvents: {
        cut: (view, event) => {
          if (!view.editable || !event.clipboardData || !partRangesOf(view.state)) return false;
          // ProseMirror's own cut would delete the parts themselves (refused above): copy as it
          // does, then empty the parts.
          const { dom, text } = view.serializeForClipboard(view.state.selection.content());
          event.preventDefault();
          event.clipboardData.clearData();
          event.clipboardData.setData('text/html', dom.innerHTML);
          event.clipboardData.setData('text/plain', text);
          return replaceAcrossParts(view, () => {}, 'cut');
        },
      },
    },
  });
}

/** What a selection across two or more top-level parts covers inside each of them, or null. */
function partRangesOf(state: EditorState): [number, number][] | null {
  const { from, to, empty } = state.selection;
  if (empty) return null;
  const ranges: [number, number][] = [];
  state.doc.forEach((node, offset) => {
    const start = offset + 1;
    const end = offset + node.nodeSize - 1;
    if (end > from && start < to) ranges.push([Math.max(from, start), Math.min(to, end)]);
  });
  return ranges.length < 2 ? null : ranges;
}

/**
 * Deletes what a selection across parts covers inside each part, keeping the parts, then lets
 * `insert` put what replaces it where the selection began (typing, a paste; nothing for a cut).
 */
function replaceAcrossParts(
  view: { state: EditorState; dispatch: (tr: Transaction) => void },
  insert: (tr: Transaction) => void,
  uiEvent: string,
): boolean {
  const { state } = view;
  const ranges = partRangesOf(state);
  if (!ranges) return false;
  const tr = state.tr;
  for (const [rangeFrom, rangeTo] of [...ranges].reverse())
    if (rangeTo > rangeFrom) tr.delete(rangeFrom, rangeTo);
  tr.setSelection(Selection.near(tr.doc.resolve(tr.mapping.map(ranges[0][0], -1))));
  insert(tr);
  // What cannot go there (blocks pasted into the title) leaves the document as it was.
  if (keepsTemplateParts(state.doc, tr.doc)) view.dispatch(tr.scrollIntoView().setMeta('uiEvent', uiEvent));
  return true;
}

/**
 * Backspace or Delete over a selection across parts (Select all, a drag over two parts) deletes
 * what it covers inside each part and keeps the parts.
 */
export const deleteAcrossParts: Command = (state, dispatch) => {
  if (!partRangesOf(state)) return false;
  if (dispatch) replaceAcrossParts({ state, dispatch }, () => {}, 'delete');
  return true;
};

export function editorPlugins(context: PluginContext): Plugin[] {
  return [
    currentSelectionPlugin(),
    editorInputRulesPlugin(),
    keymap({ Backspace: deleteAcrossParts, Delete: deleteAcrossParts }),
    ...featurePlugins(),
    editorKeymap(),
    keymap(baseKeymap),
    history(),
    tableKeysPlugin(),
    linkPastePlugin(),
    columnResizing(),
    tableEditing(),
    dropCursor(),
    gapCursor(),
    ...documentEdgesPlugins(),
    pastePlugin(),
    headingIdPlugin(),
    searchPlugin(),
    partLabelPlugin(context),
    tocPlugin(),
    renderedAroundSelectionPlugin(),
    partGuardPlugin(),
    caretPlugin(context),
  ];
}

/** The keymap of a nested editor (a note's): formatting, lists and breaks, without history. */
function nestedKeymap(): Plugin {
  const bindings: Record<string, Command> = {};
  for (const action of EDITOR_ACTIONS) {
    if (action.keys && action.command && action.group === 'marks')
      bindings[keymapName(action.keys)] = action.command;
  }
  return keymap(bindings);
}

/** A nested editor's plugins (a note's); quotation marks follow the outer document's language. */
export function nestedEditorPlugins(language: () => string): Plugin[] {
  return [
    currentSelectionPlugin(),
    editorInputRulesPlugin(language),
    nestedKeymap(),
    keymap(baseKeymap),
    linkPastePlugin(),
    pastePlugin(true),
  ];
}
