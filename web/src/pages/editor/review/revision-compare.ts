import { ChangeSet } from 'prosemirror-changeset';
import { type Node as PMNode, Slice } from 'prosemirror-model';
import { ReplaceStep, Transform } from 'prosemirror-transform';

/**
 * Two revisions compared in one document: the later one with what the earlier one had and it has
 * not put back in place, so that deleted citations, equations and cross-references are drawn by
 * the editor's own node views like everything else (a deletion kept as plain text would show a
 * citation as its key).
 */

export interface Range {
  from: number;
  to: number;
}

export interface Comparison {
  /** `after` with the deleted content of `before` inserted where it was. */
  doc: PMNode;
  inserted: Range[];
  deleted: Range[];
}

/** The changes that turn `before` into `after` (prosemirror-changeset, down to the changed characters). */
function changesBetween(before: PMNode, after: PMNode) {
  const step = new ReplaceStep(0, before.content.size, new Slice(after.content, 0, 0));
  return ChangeSet.create(before).addSteps(after, [step.getMap()], null).changes;
}

/**
 * `after` with every deletion of `before` put back at its place, and the ranges that are new and
 * that are gone in it. A deletion that cannot be put back within the schema is left out of the
 * document (its range is then empty and skipped).
 */
export function compareRevisions(before: PMNode, after: PMNode): Comparison {
  const changes = changesBetween(before, after);
  const tr = new Transform(after);
  /** Per deletion put back: the index of its step and the range it filled in that step's document. */
  const putBack: { step: number; range: Range }[] = [];
  // From the end: each insertion leaves the places of the changes before it as they were.
  for (const change of [...changes].reverse()) {
    if (change.toA <= change.fromA) continue;
    const steps = tr.steps.length;
    try {
      tr.replace(change.fromB, change.fromB, before.slice(change.fromA, change.toA));
    } catch {
      continue;
    }
    if (tr.steps.length === steps) continue;
    let range: Range | null = null;
    tr.steps[steps].getMap().forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      range = { from: newStart, to: newEnd };
    });
    if (range) putBack.push({ step: steps, range });
  }
  const deleted = putBack
    .map(({ step, range }) => {
      const later = tr.mapping.slice(step + 1);
      return { from: later.map(range.from, -1), to: later.map(range.to, 1) };
    })
    .filter((range) => range.to > range.from);
  const inserted = changes
    .filter((change) => change.toB > change.fromB)
    // A deletion put back at the same place stands before the insertion that replaced it.
    .map((change) => ({ from: tr.mapping.map(change.fromB, 1), to: tr.mapping.map(change.toB, -1) }))
    .filter((range) => range.to > range.from);
  const byStart = (a: Range, b: Range) => a.from - b.from;
  return { doc: tr.doc, inserted: inserted.sort(byStart), deleted: deleted.sort(byStart) };
}
