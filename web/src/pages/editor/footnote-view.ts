import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, type Transaction } from 'prosemirror-state';
import { StepMap } from 'prosemirror-transform';
import {
  type Decoration,
  DecorationSet,
  type DecorationSource,
  type EditorProps,
  EditorView,
  type NodeView,
} from 'prosemirror-view';

export interface FootnoteViewOptions {
  /** Plugins of the nested editor (its keymap and input rules); no history: the outer one keeps it. */
  plugins: () => EditorState['plugins'];
  /** The accessible name of the nested editor. */
  label: () => string;
  editable: () => boolean;
  /** Keys the outer editor must still handle (undo and redo) while typing in the footnote. */
  outerKeys: (event: KeyboardEvent) => boolean;
  /** How the nested editor draws equations, citations and cross-references. */
  nodeViews?: EditorProps['nodeViews'];
}

/** The open nested editors of each outer view (the selected footnote's). */
const nestedEditors = new WeakMap<EditorView, Set<EditorView>>();

/** The footnote editors open in `outer`. */
export function footnoteEditorsOf(outer: EditorView): EditorView[] {
  return [...(nestedEditors.get(outer) ?? [])];
}

/**
 * A footnote is shown as its number (CSS counters number them in document order); selecting it
 * opens its paragraphs in a nested editor beside it. Edits there become ordinary steps of the
 * outer document (offset by the footnote's position), so co-authors editing one footnote merge
 * like anywhere else; remote changes reach the nested editor through `update`.
 */
export class FootnoteView implements NodeView {
  dom: HTMLElement;
  private inner: EditorView | null = null;

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
  }

  selectNode(): void {
    this.dom.classList.add('ProseMirror-selectednode');
    if (!this.inner) this.open();
  }

  deselectNode(): void {
    this.dom.classList.remove('ProseMirror-selectednode');
    if (this.inner) this.close();
  }

  private open(): void {
    const popup = this.dom.appendChild(document.createElement('span'));
    popup.className = 'doc-footnote-editor';
    this.inner = new EditorView(popup, {
      state: EditorState.create({ doc: this.node, plugins: this.options.plugins() }),
      editable: this.options.editable,
      nodeViews: this.options.nodeViews,
      decorations: () => this.innerDecorations,
      attributes: { 'aria-label': this.options.label(), role: 'textbox', 'aria-multiline': 'true' },
      dispatchTransaction: (tr) => this.dispatchInner(tr),
      handleDOMEvents: {
        mousedown: () => {
          // Clicking inside keeps the outer selection on the footnote, so the editor stays open.
          if (this.inner && this.outer.hasFocus()) this.inner.focus();
          return false;
        },
        keydown: (_view, event) => this.options.outerKeys(event),
      },
    });
    const open = nestedEditors.get(this.outer) ?? new Set();
    nestedEditors.set(this.outer, open.add(this.inner));
    this.inner.focus();
  }

  private close(): void {
    if (this.inner) nestedEditors.get(this.outer)?.delete(this.inner);
    this.inner?.destroy();
    this.inner = null;
    this.dom.textContent = '';
  }

  private dispatchInner(tr: Transaction): void {
    const inner = this.inner;
    if (!inner) return;
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
    if (inner) {
      // A change from outside (a co-author, undo): bring the nested editor to the new content.
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
    }
    return true;
  }

  stopEvent(event: Event): boolean {
    return Boolean(this.inner && event.target instanceof Node && this.inner.dom.contains(event.target));
  }

  ignoreMutation(): boolean {
    return true;
  }

  destroy(): void {
    if (this.inner) this.close();
  }
}
