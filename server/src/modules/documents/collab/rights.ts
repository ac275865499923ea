import type { AccessRight } from '@scriptorium/common/api/documents';
import { COMMENT_MARK, TRACKED_CHANGE_MARKS } from '@scriptorium/common/editor/schema';
import type { Mark, Node as PMNode, Slice } from 'prosemirror-model';
import { AddMarkStep, RemoveMarkStep, ReplaceStep, type Step } from 'prosemirror-transform';

/**
 * Which steps each right may send (issue 16). The server checks every step of a diff against the
 * sender's right before anything is written; one step outside the rule refuses the whole diff.
 *
 *   write                  any step
 *   write-tracked          only tracked changes: adding or removing tracked-change marks, and
 *                          inserting content that carries the insertion mark (text typed in
 *                          suggestion mode), or taking out content that still carries one
 *   comment, review        only adding or removing comment marks
 *   read, read-without-comments   nothing
 *
 * The review issue refines write-tracked and review here (e.g. who may accept a change); the rule
 * table is the one place to do it.
 */
export type StepRule = (step: Step, doc: PMNode) => boolean;

const TRACKED = new Set<string>(TRACKED_CHANGE_MARKS);

function markStepOf(step: Step, allowed: (mark: Mark) => boolean): boolean {
  if (step instanceof AddMarkStep || step instanceof RemoveMarkStep) return allowed(step.mark);
  return false;
}

/** Every inline leaf of the slice carries the insertion mark. */
function sliceAllInserted(slice: Slice): boolean {
  let ok = true;
  slice.content.descendants((node) => {
    if (node.isInline && !node.marks.some((mark) => mark.type.name === 'insertion')) ok = false;
    return ok;
  });
  return ok;
}

/** The range holds only inline content carrying the insertion mark (a suggestion being undone). */
function rangeAllInserted(doc: PMNode, from: number, to: number): boolean {
  if (from === to) return true;
  let ok = true;
  doc.nodesBetween(from, to, (node) => {
    if (!ok) return false;
    if (node.isInline) {
      if (!node.marks.some((mark) => mark.type.name === 'insertion')) ok = false;
      return false;
    }
    // A block boundary inside the range would be removed: not a tracked change.
    if (node.isTextblock && (from < doc.resolve(from).start() || to > doc.resolve(to).end())) ok = false;
    return ok;
  });
  return ok && doc.resolve(from).sameParent(doc.resolve(to));
}

const isComment = (mark: Mark) => mark.type.name === COMMENT_MARK;
const isTracked = (mark: Mark) => TRACKED.has(mark.type.name);

export const STEP_RULES: Record<AccessRight, StepRule> = {
  read: () => false,
  'read-without-comments': () => false,
  comment: (step) => markStepOf(step, isComment),
  review: (step) => markStepOf(step, isComment),
  'write-tracked': (step, doc) => {
    if (markStepOf(step, isTracked)) return true;
    // A structural replace (a split or join of blocks) is never a tracked change; the flag is only
    // visible in the step's JSON.
    if (!(step instanceof ReplaceStep) || (step.toJSON() as { structure?: boolean }).structure) return false;
    return sliceAllInserted(step.slice) && rangeAllInserted(doc, step.from, step.to);
  },
  write: () => true,
};

/** Whether a right may change the document at all (read rights send nothing). */
export function rightMayEdit(right: AccessRight): boolean {
  return right !== 'read' && right !== 'read-without-comments';
}
