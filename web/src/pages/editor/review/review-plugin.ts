import {
  indexReview,
  type ReviewIndex,
  touchedRanges,
  updateReviewIndex,
} from '@scriptorium/common/editor/review-index';
import { COMMENT_MARK, TRACKED_CHANGE_MARKS } from '@scriptorium/common/editor/review-marks';
import type { Node as PMNode } from 'prosemirror-model';
import { type Command, type EditorState, Plugin, PluginKey } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';

/**
 * The review plugin of the editor (issue 18): whether this editor is in suggestion mode, and the
 * decorations that colour tracked changes per author and highlight the comment anchors of the
 * threads this user may see (a resolved thread hides its highlight).
 *
 * Decorations are kept per inline node and, after an edit, recomputed only inside the textblocks
 * the edit touched: a document with thousands of changes and comments types as fast as one
 * without (bench/review.ts).
 */

export interface ReviewPluginOptions {
  /** Suggestion mode at the start (forced for write-tracked and review). */
  suggesting(): boolean;
  /** The threads to highlight: visible and not resolved. */
  highlighted(): ReadonlySet<number>;
  activeThread(): number | null;
  colour(userId: number): string;
}

/** Which threads the decorations highlight, and which one as active. */
interface Highlight {
  shown: ReadonlySet<number>;
  active: number | null;
  /** Both in one string, to compare. */
  key: string;
}

interface ReviewState {
  suggesting: boolean;
  decorations: DecorationSet;
  /** The changes and comment anchors, kept through each transaction (the margin draws from it). */
  index: ReviewIndex;
  /** What the highlighted threads were when the decorations were made. */
  highlight: Highlight;
}

export const reviewKey = new PluginKey<ReviewState>('review');

/** Where the tracked changes and comment anchors of the document are. */
export function reviewIndexOf(state: EditorState): ReviewIndex {
  return reviewKey.getState(state)?.index ?? indexReview(state.doc);
}

export function isSuggesting(state: EditorState): boolean {
  return reviewKey.getState(state)?.suggesting ?? false;
}

/** Switches suggestion mode on or off (only offered to write users). */
export const toggleSuggesting: Command = (state, dispatch) => {
  if (!reviewKey.getState(state)) return false;
  dispatch?.(state.tr.setMeta(reviewKey, { suggesting: !isSuggesting(state) }));
  return true;
};

const TRACKED = new Set<string>(TRACKED_CHANGE_MARKS);

/** The decorations of the inline nodes in [from, to) (the whole document by default). */
function decorationsIn(
  doc: PMNode,
  options: ReviewPluginOptions,
  from = 0,
  to = doc.content.size,
): Decoration[] {
  const shown = options.highlighted();
  const active = options.activeThread();
  const decorations: Decoration[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    const end = pos + node.nodeSize;
    if (!node.isInline) {
      // Structure suggestions (track-blocks.ts): a new block, a join with the one before, a type change.
      for (const mark of node.marks)
        if (TRACKED.has(mark.type.name))
          decorations.push(
            Decoration.node(pos, end, {
              class: `review-block-${mark.type.name.replace('_', '-')}`,
              style: `--review-author: ${options.colour(mark.attrs.user as number)}`,
              title: String(mark.attrs.username),
            }),
          );
      return true;
    }
    for (const mark of node.marks) {
      if (TRACKED.has(mark.type.name)) {
        decorations.push(
          Decoration.inline(pos, end, {
            class: `review-${mark.type.name.replace('_', '-')}`,
            style: `--review-author: ${options.colour(mark.attrs.user as number)}`,
            title: String(mark.attrs.username),
          }),
        );
      } else if (mark.type.name === COMMENT_MARK && shown.has(mark.attrs.id as number)) {
        const id = mark.attrs.id as number;
        decorations.push(
          Decoration.inline(pos, end, {
            class: id === active ? 'review-comment review-comment-active' : 'review-comment',
            'data-thread': String(id),
          }),
        );
      }
    }
    return true;
  });
  return decorations;
}

function highlightOf(options: ReviewPluginOptions): Highlight {
  const shown = options.highlighted();
  const active = options.activeThread();
  return { shown, active, key: `${[...shown].join(',')}|${active}` };
}

/** The document range to draw again around [from, to]: whole textblocks (or the whole document). */
function blockRange(doc: PMNode, from: number, to: number): { from: number; to: number } {
  const size = doc.content.size;
  const $from = doc.resolve(Math.max(0, Math.min(from, size)));
  const $to = doc.resolve(Math.max(0, Math.min(to, size)));
  return { from: $from.depth ? $from.start($from.depth) : 0, to: $to.depth ? $to.end($to.depth) : size };
}

/**
 * The decorations with those of `ranges` made again. The others stay the same objects: the view
 * compares an unchanged paragraph's decorations by identity, and equal copies would be compared
 * one by one on every keystroke.
 */
function redraw(
  set: DecorationSet,
  doc: PMNode,
  options: ReviewPluginOptions,
  ranges: readonly { from: number; to: number }[],
): DecorationSet {
  let decorations = set;
  for (const range of ranges) {
    decorations = decorations.remove(decorations.find(range.from, range.to));
    decorations = decorations.add(doc, decorationsIn(doc, options, range.from, range.to));
  }
  return decorations;
}

/** The ranges of the anchors whose highlight differs between `before` and `after`. */
function rehighlighted(doc: PMNode, index: ReviewIndex, before: Highlight, after: Highlight) {
  const threads = new Set<number>();
  for (const id of before.shown) if (!after.shown.has(id)) threads.add(id);
  for (const id of after.shown) if (!before.shown.has(id)) threads.add(id);
  if (before.active !== after.active) {
    if (before.active !== null) threads.add(before.active);
    if (after.active !== null) threads.add(after.active);
  }
  const ranges: { from: number; to: number }[] = [];
  for (const id of threads) {
    const anchor = index.anchors.get(id);
    if (anchor) ranges.push(blockRange(doc, anchor.from, anchor.to));
  }
  return ranges;
}

export function reviewPlugin(options: ReviewPluginOptions): Plugin<ReviewState> {
  const full = (doc: PMNode): ReviewState['decorations'] =>
    DecorationSet.create(doc, decorationsIn(doc, options));
  // The decorations drawn after the highlighted threads changed without a transaction (an answer
  // from the server), for that document; the next transaction goes on from them.
  let current: { doc: PMNode; highlight: Highlight; set: DecorationSet } | null = null;
  /** The decorations of `value` (on `doc`) for the threads highlighted now. */
  const highlighted = (value: ReviewState, doc: PMNode, highlight: Highlight): DecorationSet => {
    if (highlight.key === value.highlight.key) return value.decorations;
    if (current?.doc === doc && current.highlight.key === highlight.key) return current.set;
    const ranges = rehighlighted(doc, value.index, value.highlight, highlight);
    current = { doc, highlight, set: redraw(value.decorations, doc, options, ranges) };
    return current.set;
  };
  return new Plugin<ReviewState>({
    key: reviewKey,
    state: {
      init: (_config, state) => ({
        suggesting: options.suggesting(),
        decorations: full(state.doc),
        index: indexReview(state.doc),
        highlight: highlightOf(options),
      }),
      apply: (tr, value) => {
        const meta = tr.getMeta(reviewKey) as { suggesting: boolean } | undefined;
        const suggesting = meta ? meta.suggesting : value.suggesting;
        if (!tr.docChanged) return suggesting === value.suggesting ? value : { ...value, suggesting };
        const ranges = touchedRanges(tr);
        const index = updateReviewIndex(value.index, tr.doc, tr.mapping, tr.steps, ranges);
        const highlight = highlightOf(options);
        const before = highlighted(value, tr.before, highlight);
        const decorations = redraw(before.map(tr.mapping, tr.doc), tr.doc, options, ranges);
        return { suggesting, decorations, index, highlight };
      },
    },
    props: {
      decorations(state) {
        const value = reviewKey.getState(state);
        if (!value) return null;
        // The threads shown changed without a transaction (an answer from the server).
        return highlighted(value, state.doc, highlightOf(options));
      },
    },
  });
}
