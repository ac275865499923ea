import { Fragment, type Mark, type Node as PMNode, Slice } from 'prosemirror-model';
import { RemoveNodeMarkStep, ReplaceStep, type Transform } from 'prosemirror-transform';
import { markInsertedSlice } from './track-blocks';

/**
 * Citing an entry new to the document in suggestion mode (issue 55): the citation is a suggested
 * insertion like typed text, and the entry's data, copied into the document's bibliography in the
 * same transaction, travels with it as a `bib_entry` carrying the author's insertion mark. The
 * entry has no card of its own in the review margin: it is decided with the citations that cite it
 * (`settleSuggestedEntries`): accepted once a citation of it is accepted, removed once no citation
 * cites it any more (the citation rejected or withdrawn).
 *
 * The first citation of a document also makes its bibliography part (at the document's end). That
 * part is structure without content of its own, so a reviewer may add it empty, and take it out
 * again while it is empty (undo): `emptyBibliographyStep`.
 */

function isBibliographyPart(node: PMNode | null | undefined): boolean {
  return node?.type.name === 'bibliography_part';
}

function hasBibliographyPart(doc: PMNode): boolean {
  let found = false;
  doc.forEach((node) => {
    if (isBibliographyPart(node)) found = true;
  });
  return found;
}

/** The bibliography part a step inserts at the document's top level (with its entries), if that is all it does. */
function insertedPart(step: ReplaceStep, doc: PMNode): PMNode | null {
  const { slice } = step;
  if (step.from !== step.to || slice.openStart || slice.openEnd || slice.content.childCount !== 1)
    return null;
  const part = slice.content.firstChild;
  if (!isBibliographyPart(part) || doc.resolve(step.from).depth !== 0 || hasBibliographyPart(doc))
    return null;
  return part;
}

/**
 * Whether the step adds an empty bibliography part to a document that has none, or takes an empty
 * one out: what a user without the write right may do (it shows nothing by itself).
 */
export function emptyBibliographyStep(step: ReplaceStep, doc: PMNode): boolean {
  if (step.slice.size) return insertedPart(step, doc)?.childCount === 0;
  const node = doc.nodeAt(step.from);
  return (
    isBibliographyPart(node) &&
    node?.childCount === 0 &&
    doc.resolve(step.from).depth === 0 &&
    step.to === step.from + node.nodeSize
  );
}

/**
 * Records a step that makes the bibliography part with entries in it as the author's suggestion:
 * the part added empty, the entries inserted in it carrying `mark`. False when the step is not
 * that (or cannot be recorded).
 */
export function trackNewBibliography(tr: Transform, step: ReplaceStep, mark: Mark): boolean {
  const part = insertedPart(step, tr.doc);
  if (!part) return false;
  if (tr.maybeStep(new ReplaceStep(step.from, step.from, new Slice(Fragment.from(part.copy()), 0, 0))).failed)
    return false;
  if (!part.childCount) return true;
  const entries = markInsertedSlice(new Slice(part.content, 0, 0), mark);
  return (
    Boolean(entries) && !tr.maybeStep(new ReplaceStep(step.from + 1, step.from + 1, entries as Slice)).failed
  );
}

/** Whether a change recorded on this node is decided with the citations (not listed on its own). */
export function decidedWithCitations(node: PMNode): boolean {
  return node.type.name === 'bib_entry';
}

/**
 * After suggestions were decided: the suggested entries of the bibliography that a citation
 * (no longer a suggestion) cites are accepted, those no citation cites any more are removed.
 * Entries cited only by suggested citations stay suggested.
 */
export function settleSuggestedEntries(tr: Transform): void {
  const insertion = tr.doc.type.schema.marks.insertion;
  const accepted = new Set<string>();
  const suggested = new Set<string>();
  tr.doc.descendants((node) => {
    if (node.type.name !== 'citation') return !isBibliographyPart(node);
    const target = insertion.isInSet(node.marks) ? suggested : accepted;
    for (const reference of node.attrs.references as { id: string }[]) target.add(reference.id);
    return false;
  });
  const settle: { pos: number; node: PMNode }[] = [];
  tr.doc.forEach((part, offset) => {
    if (!isBibliographyPart(part)) return;
    part.forEach((entry, entryOffset) => {
      if (insertion.isInSet(entry.marks)) settle.push({ pos: offset + 1 + entryOffset, node: entry });
    });
  });
  // From the end: removing an entry does not move the ones before it.
  for (const { pos, node } of settle.reverse()) {
    const id = String(node.attrs.id);
    const mark = insertion.isInSet(node.marks) as Mark;
    if (accepted.has(id)) tr.step(new RemoveNodeMarkStep(pos, mark));
    else if (!suggested.has(id)) tr.delete(pos, pos + node.nodeSize);
  }
}
