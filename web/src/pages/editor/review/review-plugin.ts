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

interface ReviewState {
  suggesting: boolean;
  decorations: DecorationSet;
  /** The changes and comment anchors, kept through each transaction (the margin draws from it). */
  index: ReviewIndex;
  /** What the highlighted threads were when the decorations were made. */
  key: string;
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

function keyOf(options: ReviewPluginOptions): string {
  return `${[...options.highlighted()].join(',')}|${options.activeThread()}`;
}

export function reviewPlugin(options: ReviewPluginOptions): Plugin<ReviewState> {
  const full = (doc: PMNode): ReviewState['decorations'] =>
    DecorationSet.create(doc, decorationsIn(doc, options));
  let current: { doc: PMNode; key: string; set: DecorationSet } | null = null;
  return new Plugin<ReviewState>({
    key: reviewKey,
    state: {
      init: (_config, state) => ({
        suggesting: options.suggesting(),
        decorations: full(state.doc),
        index: indexReview(state.doc),
        key: keyOf(options),
      }),
      apply: (tr, value) => {
        const meta = tr.getMeta(reviewKey) as { suggesting: boolean } | undefined;
        const suggesting = meta ? meta.suggesting : value.suggesting;
        if (!tr.docChanged) return suggesting === value.suggesting ? value : { ...value, suggesting };
        const ranges = touchedRanges(tr);
        const index = updateReviewIndex(value.index, tr.doc, tr.mapping, tr.steps, ranges);
        const key = keyOf(options);
        if (key !== value.key) return { suggesting, decorations: full(tr.doc), index, key };
        let decorations = value.decorations.map(tr.mapping, tr.doc);
        for (const range of ranges) {
          decorations = decorations.remove(decorations.find(range.from, range.to));
          decorations = decorations.add(tr.doc, decorationsIn(tr.doc, options, range.from, range.to));
        }
        return { suggesting, decorations, index, key };
      },
    },
    props: {
      decorations(state) {
        const value = reviewKey.getState(state);
        if (!value) return null;
        // The threads shown changed without a transaction (an answer from the server): redo once.
        const key = keyOf(options);
        if (key === value.key) return value.decorations;
        if (!current || current.doc !== state.doc || current.key !== key)
          current = { doc: state.doc, key, set: full(state.doc) };
        return current.set;
      },
    },
  });
}
