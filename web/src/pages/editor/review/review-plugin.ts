import { commentAnchors, trackedChanges } from '@scriptorium/common/editor/track-changes';
import type { Node as PMNode } from 'prosemirror-model';
import { type Command, type EditorState, Plugin, PluginKey } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';

/**
 * The review plugin of the editor (issue 18): whether this editor is in suggestion mode, and the
 * decorations that colour tracked changes per author and highlight the comment anchors of the
 * threads this user may see (a resolved thread hides its highlight).
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
}

export const reviewKey = new PluginKey<ReviewState>('review');

export function isSuggesting(state: EditorState): boolean {
  return reviewKey.getState(state)?.suggesting ?? false;
}

/** Switches suggestion mode on or off (only offered to write users). */
export const toggleSuggesting: Command = (state, dispatch) => {
  if (!reviewKey.getState(state)) return false;
  dispatch?.(state.tr.setMeta(reviewKey, { suggesting: !isSuggesting(state) }));
  return true;
};

function decorate(doc: PMNode, options: ReviewPluginOptions): DecorationSet {
  const decorations: Decoration[] = [];
  for (const change of trackedChanges(doc)) {
    decorations.push(
      Decoration.inline(change.from, change.to, {
        class: `review-${change.type.replace('_', '-')}`,
        style: `--review-author: ${options.colour(change.user)}`,
        title: change.username,
      }),
    );
  }
  const shown = options.highlighted();
  const active = options.activeThread();
  for (const anchor of commentAnchors(doc)) {
    if (!shown.has(anchor.id)) continue;
    decorations.push(
      Decoration.inline(anchor.from, anchor.to, {
        class: anchor.id === active ? 'review-comment review-comment-active' : 'review-comment',
        'data-thread': String(anchor.id),
      }),
    );
  }
  return DecorationSet.create(doc, decorations);
}

export function reviewPlugin(options: ReviewPluginOptions): Plugin<ReviewState> {
  // Recomputed only when the document or what is highlighted changed (a long review keeps typing fast).
  let cache: { doc: PMNode; key: string; set: DecorationSet } | null = null;
  return new Plugin<ReviewState>({
    key: reviewKey,
    state: {
      init: () => ({ suggesting: options.suggesting() }),
      apply: (tr, value) => (tr.getMeta(reviewKey) as ReviewState | undefined) ?? value,
    },
    props: {
      decorations(state) {
        const key = `${[...options.highlighted()].join(',')}|${options.activeThread()}`;
        if (cache && cache.key === key && cache.doc === state.doc) return cache.set;
        cache = { doc: state.doc, key, set: decorate(state.doc, options) };
        return cache.set;
      },
    },
  });
}
