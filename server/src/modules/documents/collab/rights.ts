import type { AccessRight } from '@scriptorium/common/api/documents';
import { COMMENT_MARK } from '@scriptorium/common/editor/schema';
import { ReviewStepChecker } from '@scriptorium/common/editor/track-changes';
import { abilities, reviewPermissions } from '@scriptorium/common/rules/document-abilities';
import type { Kysely } from 'kysely';
import type { Node as PMNode } from 'prosemirror-model';
import { RemoveMarkStep, type Step } from 'prosemirror-transform';
import type { Database } from '../../../db/schema';

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
 *
 *   Comment anchors of other people's threads are removed only by write. A suggestion belongs to
 *   its author: no other suggester replaces, withdraws or decides it (issue 50).
 *   read, read-without-comments   nothing
 *
 * The rule itself is `ReviewStepChecker` (common/src/editor/track-changes.ts), the same the editor
 * applies before it sends, so that the server never has to refuse what the editor produced.
 */
/** Judges the steps of one diff in order: `allows` before each step, `finish` after the last. */
export interface StepChecker {
  allows(step: Step, doc: PMNode): boolean;
  finish(doc: PMNode): boolean;
}

const ANYTHING: StepChecker = { allows: () => true, finish: () => true };

/**
 * The checker of one diff by `userId` with `right`; `othersThreads`: the document's comment
 * threads started by other people, whose anchors only a writer may remove.
 */
export function stepChecker(
  right: AccessRight,
  userId: number,
  othersThreads: ReadonlySet<number> = new Set(),
): StepChecker {
  if (right === 'write') return ANYTHING;
  return new ReviewStepChecker(userId, { ...reviewPermissions(right), othersThreads });
}

/** Whether some step takes a comment mark away (then the threads' authors are read). */
export function removesCommentMarks(steps: readonly Step[]): boolean {
  return steps.some((step) => step instanceof RemoveMarkStep && step.mark.type.name === COMMENT_MARK);
}

/** The comment threads of a document that someone other than `userId` started. */
export async function othersThreadsOf(
  db: Kysely<Database>,
  documentId: number,
  userId: number,
): Promise<Set<number>> {
  const rows = await db
    .selectFrom('document_threads')
    .select(['thread_id', 'user_id'])
    .where('document_id', '=', documentId)
    .execute();
  return new Set(rows.filter((row) => row.user_id !== userId).map((row) => row.thread_id));
}

/** Whether a right may change the document at all (read rights send nothing). */
export function rightMayEdit(right: AccessRight): boolean {
  const can = abilities(right);
  return can.edit || can.comment; // a comment anchor is a step too
}

/** Whether a right may see comment threads. */
export function rightSeesComments(right: AccessRight): boolean {
  return abilities(right).seeComments;
}

/** Whether a right may write comments (start threads and answer). */
export function rightMayComment(right: AccessRight): boolean {
  return abilities(right).comment;
}

/** Whether a right must work in suggestion mode (write may choose). */
export function rightSuggestsOnly(right: AccessRight): boolean {
  return abilities(right).suggestOnly;
}
