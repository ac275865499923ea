import { caretBesideNote, type NoteSide, noteExit } from '@scriptorium/common/features/footnote/keys';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, NodeSelection, Plugin, Selection, type Transaction } from 'prosemirror-state';
import { StepMap } from 'prosemirror-transform';
import {
  type Decoration,
  DecorationSet,
  type DecorationSource,
  type EditorProps,
  EditorView,
  type NodeView,
} from 'prosemirror-view';
import { academicKey } from '../academic/academic-plugin';
import {
  existingFootnoteList,
  type FootnoteList,
  footnoteListOf,
  noteOfMarker,
  registerMarker,
} from './list';

export interface FootnoteViewOptions {
  /** Plugins of the nested editor (its keymap and input rules); no history: the outer one keeps it. */
  plugins: () => EditorState['plugins'];
  /** The accessible name of the nested editor, for footnote `number`. */
  label: (number: number) => string;
  /** The accessible name of the note's number in the list, which leads back to the text. */
  backLabel: (number: number) => string;
  /** The heading of the list of notes under the text. */
  heading: () => string;
  editable: () => boolean;
  /** Keys the outer editor must still handle (undo and redo) while typing in the footnote. */
  outerKeys: (event: KeyboardEvent) => boolean;
  /** How the nested editor draws equations, citations and cross-references. */
  nodeViews?: EditorProps['nodeViews'];
}

/** The nested editors of each outer view (one per footnote). */
const nestedEditors = new WeakMap<EditorView, Set<EditorView>>();

/** The footnote editors of `outer`. */
export function footnoteEditorsOf(outer: EditorView): EditorView[] {
  return [...(nestedEditors.get(outer) ?? [])];
}

/** Moves the caret into the note of the footnote at `pos` (Enter on a selected footnote number). */
export function editFootnoteAt(outer: EditorView, pos: number): boolean {
  const note = noteOfMarker(outer.nodeDOM(pos));
  if (!(note instanceof FootnoteView)) return false;
  note.focusNote();
  return true;
}

/**
 * A footnote is its number in the text (CSS counters number them in document order) and its
 * paragraphs in a nested editor listed under the text (list.ts), always shown and
 * editable in place. Edits there become ordinary steps of the outer document (offset by the
 * footnote's position), so co-authors editing one footnote merge like anywhere else, and
 * suggestion mode records them as it records the text's; remote changes reach the nested editor
 * through `update`. Clicking the number (or Enter on it) moves into the note; Escape, or an arrow
 * key at the note's edge, or its number in the list, back to the text (common/src/features/footnote/keys.ts).
 */
export class FootnoteView implements NodeView {
  dom: HTMLElement;
  readonly item: HTMLLIElement;
  private readonly back: HTMLButtonElement;
  private readonly inner: EditorView;
  private readonly list: FootnoteList;
  private number = 0;
  /** Made by the current change: selected at once, it is a new footnote to type into. */
  private fresh = true;

  constructor(
    private node: PMNode,
    private readonly outer: EditorView,
    private readonly getPos: () => number | undefined,
    private readonly options: FootnoteViewOptions,
    /** The outer editor's decorations inside the footnote (numbers, citation texts). */
    private innerDecorations: DecorationSource = DecorationSet.empty,
  ) {
    this.dom = document.createElement('span');
    this.dom.className = 'doc-footnote-marker';
    this.dom.setAttribute('data-footnote', '');
    this.dom.addEventListener('click', () => this.focusNote());
    queueMicrotask(() => {
      this.fresh = false;
    });

    this.item = document.createElement('li');
    this.item.className = 'doc-note';
    this.back = this.item.appendChild(document.createElement('button'));
    this.back.type = 'button';
    this.back.className = 'doc-note-number';
    this.back.addEventListener('click', () => this.leave('after'));
    const host = this.item.appendChild(document.createElement('div'));
    host.className = 'doc-footnote-editor';
    this.inner = new EditorView(host, {
      state: EditorState.create({ doc: this.node, plugins: this.options.plugins() }),
      editable: this.options.editable,
      nodeViews: this.options.nodeViews,
      decorations: () => this.innerDecorations,
      attributes: () => ({
        'aria-label': this.options.label(this.number),
        role: 'textbox',
        'aria-multiline': 'true',
      }),
      dispatchTransaction: (tr) => this.dispatchInner(tr),
      handleKeyDown: (view, event) => {
        const side = noteExit(view.state, event, (direction) => view.endOfTextblock(direction));
        if (side) {
          this.leave(side);
          return true;
        }
        return this.options.outerKeys(event);
      },
    });
    const editors = nestedEditors.get(this.outer) ?? new Set();
    nestedEditors.set(this.outer, editors.add(this.inner));
    registerMarker(this.dom, this);
    this.list = footnoteListOf(this.outer, this.options.heading);
    this.list.add(this);
  }

  get current(): PMNode {
    return this.node;
  }

  setNumber(number: number): void {
    if (number === this.number) return;
    this.number = number;
    this.back.textContent = String(number);
    this.back.setAttribute('aria-label', this.options.backLabel(number));
    this.inner.setProps({});
  }

  /** The caret into the note (at its end), the note scrolled into view. */
  focusNote(): void {
    const { doc } = this.inner.state;
    this.inner.dispatch(this.inner.state.tr.setSelection(Selection.atEnd(doc)));
    this.inner.focus();
    this.item.scrollIntoView?.({ block: 'nearest' });
  }

  /** Back to the text, the caret before or after the number. */
  private leave(side: NoteSide): void {
    const pos = this.getPos();
    if (pos === undefined) return;
    const tr = caretBesideNote(this.outer.state, pos, side);
    if (!tr) return;
    this.outer.dispatch(tr);
    this.outer.focus();
  }

  selectNode(): void {
    this.dom.classList.add('ProseMirror-selectednode');
    this.item.classList.add('doc-note-selected');
    // A footnote just inserted (empty, and selected by the command): its note is where to type. A
    // footnote drawn again while selected (a suggestion mark added to it) keeps the focus where it is.
    if (this.fresh && !this.node.textContent) queueMicrotask(() => this.focusNote());
  }

  deselectNode(): void {
    this.dom.classList.remove('ProseMirror-selectednode');
    this.item.classList.remove('doc-note-selected');
  }

  private dispatchInner(tr: Transaction): void {
    const inner = this.inner;
    const { state, transactions } = inner.state.applyTransaction(tr);
    inner.updateState(state);
    if (tr.getMeta('fromOutside')) return;
    const pos = this.getPos();
    if (pos === undefined) return;
    const outerTr = this.outer.state.tr;
    const offset = StepMap.offset(pos + 1);
    for (const transaction of transactions) {
      for (const step of transaction.steps) {
        const mapped = step.map(offset);
        if (mapped) outerTr.step(mapped);
      }
    }
    if (outerTr.docChanged) this.outer.dispatch(outerTr);
  }

  update(node: PMNode, _decorations: readonly Decoration[], innerDecorations: DecorationSource): boolean {
    if (!node.sameMarkup(this.node)) return false;
    this.node = node;
    const redraw = innerDecorations !== this.innerDecorations;
    this.innerDecorations = innerDecorations;
    const inner = this.inner;
    // A change from outside (a co-author, undo, a suggestion recorded): bring the nested editor to
    // the new content.
    const state = inner.state;
    const start = node.content.findDiffStart(state.doc.content);
    if (start != null) {
      const ends = node.content.findDiffEnd(state.doc.content);
      let endA = ends?.a ?? start;
      let endB = ends?.b ?? start;
      const overlap = start - Math.min(endA, endB);
      if (overlap > 0) {
        endA += overlap;
        endB += overlap;
      }
      inner.dispatch(state.tr.replace(start, endB, node.slice(start, endA)).setMeta('fromOutside', true));
    } else if (redraw) inner.updateState(state); // New numbers or citation texts, same content.
    return true;
  }

  ignoreMutation(): boolean {
    return true;
  }

  destroy(): void {
    nestedEditors.get(this.outer)?.delete(this.inner);
    this.inner.destroy();
    this.list.remove(this);
  }
}

/**
 * In the text: Enter on a selected footnote number moves into its note; after a change of the
 * document (or of the citation style, whose notes share the numbering) the list of notes is
 * ordered and numbered again when idle.
 */
export function footnotesPlugin(): Plugin {
  return new Plugin({
    props: {
      handleKeyDown: (view, event) => {
        if (event.key !== 'Enter' || event.shiftKey || event.ctrlKey || event.metaKey || event.altKey)
          return false;
        const { selection } = view.state;
        if (!(selection instanceof NodeSelection) || selection.node.type.name !== 'footnote') return false;
        return editFootnoteAt(view, selection.from);
      },
    },
    view: () => ({
      update: (view, previous) => {
        const style = (state: EditorState) => academicKey.getState(state)?.rendered?.styleClass;
        if (view.state.doc !== previous.doc || style(view.state) !== style(previous))
          existingFootnoteList(view)?.schedule('idle');
      },
    }),
  });
}
