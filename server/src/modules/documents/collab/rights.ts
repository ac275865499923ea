import type { AccessRight } from '@scriptorium/common/api/documents';
import { type ReviewPermissions, reviewStepAllowed } from '@scriptorium/common/editor/track-changes';
import type { Node as PMNode } from 'prosemirror-model';
import type { Step } from 'prosemirror-transform';

/**
 * Which steps each right may send (issues 16 and 18). The server checks every step of a diff
 * against the sender's right before anything is written; one step outside the rule refuses the
 * whole diff ('rights').
 *
 *   write                  any step (also accepting and rejecting others' suggestions)
 *   write-tracked, review  suggestions only: inline content carrying the sender's own insertion
 *                          mark (typed, pasted, or taken out again), the sender's own deletion and
 *                          format-change marks, formatting inside the sender's own format change;
 *                          blocks recorded as theirs (splits, joins, type changes, tables, rows,
 *                          cells, pasted blocks, lists made or lifted: track-blocks.ts);
 *                          and comment anchors. (review is forced into suggestion mode too.)
 *   comment                comment anchors only
 *   read, read-without-comments   nothing
 *
 * The rule itself is `reviewStepAllowed` (common/src/editor/track-changes.ts), the same the editor
 * applies before it sends, so that the server never has to refuse what the editor produced.
 */
export type StepRule = (step: Step, doc: PMNode, userId: number) => boolean;

const PERMISSIONS: Record<Exclude<AccessRight, 'write'>, ReviewPermissions> = {
  read: { comments: false, suggestions: false },
  'read-without-comments': { comments: false, suggestions: false },
  comment: { comments: true, suggestions: false },
  review: { comments: true, suggestions: true },
  'write-tracked': { comments: true, suggestions: true },
};

export const STEP_RULES: Record<AccessRight, StepRule> = {
  write: () => true,
  ...(Object.fromEntries(
    Object.entries(PERMISSIONS).map(([right, may]) => [
      right,
      (step: Step, doc: PMNode, userId: number) => reviewStepAllowed(step, doc, userId, may),
    ]),
  ) as Record<Exclude<AccessRight, 'write'>, StepRule>),
};

/** Whether a right may change the document at all (read rights send nothing). */
export function rightMayEdit(right: AccessRight): boolean {
  return right !== 'read' && right !== 'read-without-comments';
}

/** Whether a right may see comment threads. */
export function rightSeesComments(right: AccessRight): boolean {
  return right !== 'read-without-comments';
}

/** Whether a right may write comments (start threads and answer). */
export function rightMayComment(right: AccessRight): boolean {
  return rightMayEdit(right);
}

/** Whether a right must work in suggestion mode (write may choose). */
export function rightSuggestsOnly(right: AccessRight): boolean {
  return right === 'write-tracked' || right === 'review';
}
