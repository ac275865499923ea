import { Fragment, Mark, type Node as PMNode, Slice } from 'prosemirror-model';
import {
  AddNodeMarkStep,
  RemoveNodeMarkStep,
  ReplaceAroundStep,
  ReplaceStep,
  type Transform,
} from 'prosemirror-transform';
import { type BlockBefore, TRACKED_CHANGE_MARKS } from './review-marks';

/**
 * Tracked changes of block structure (issue 18), recorded as marks on the blocks themselves
 * (review-marks.ts): a block's `insertion` says that the split before it is suggested, its
 * `deletion` that joining it with the block before is suggested, its `block_change` that its type
 * or attributes changed (`before` keeps the old ones). The same shapes are what the server lets a
 * write-tracked or review user send (`reviewStepAllowed` in track-changes.ts), so both sides
 * agree on what a structural suggestion is:
 *
 *   split (Enter)            one ReplaceStep at a point, the slice two empty chains of blocks; the
 *                            new (second) block carries the author's insertion
 *   join (Backspace/Delete)  a pure block boundary removed: only allowed (really joined) when the
 *                            block after it is the author's own split; otherwise recorded as the
 *                            author's deletion mark on that block (AddNodeMarkStep)
 *   block type change        a ReplaceAroundStep keeping the content of one textblock; the new
 *                            block carries the author's block_change with the original type/attrs
 */

const TRACKED = new Set<string>(TRACKED_CHANGE_MARKS);

const byUser = (type: string, user: number) => (mark: Mark) =>
  mark.type.name === type && mark.attrs.user === user;

/**
 * How many levels joining the two blocks meeting at `pos` closes, down to their textblocks (1 for
 * two paragraphs, 2 for two list items); 0 when they do not end and start in textblocks.
 */
export function joinDepth(doc: PMNode, pos: number): number {
  const $pos = doc.resolve(pos);
  if ($pos.parent.inlineContent) return 0;
  let before = $pos.nodeBefore;
  let after = $pos.nodeAfter;
  let depth = 1;
  while (before && after && !before.isTextblock && !after.isTextblock) {
    if (before.isLeaf || after.isLeaf) return 0;
    before = before.lastChild;
    after = after.firstChild;
    depth++;
  }
  return before?.isTextblock && after?.isTextblock ? depth : 0;
}

/** When [from, to) is exactly a block boundary (what a join removes): the position of the block after it. */
export function joinedBlock(doc: PMNode, from: number, to: number): number | null {
  if (to <= from || (to - from) % 2) return null;
  const depth = (to - from) / 2;
  return joinDepth(doc, from + depth) === depth ? from + depth : null;
}

/** The blocks starting inside [from, to) that a deletion of the range joins with the block before them. */
export function boundariesIn(doc: PMNode, from: number, to: number): number[] {
  const deletion = doc.type.schema.marks.deletion;
  const found: number[] = [];
  doc.nodesBetween(from, to, (node, pos, parent, index) => {
    if (node.isInline) return false;
    if (pos >= from && pos < to && index > 0 && parent?.type.allowsMarkType(deletion) && joinDepth(doc, pos))
      found.push(pos);
    return true;
  });
  return found;
}

/** Joins the block at `pos` with the one before it, through to their textblocks. */
export function joinBlock(tr: Transform, pos: number): boolean {
  const depth = joinDepth(tr.doc, pos);
  return depth > 0 && !tr.maybeStep(new ReplaceStep(pos - depth, pos + depth, Slice.empty, true)).failed;
}

/**
 * A deletion of the boundary before the block at `pos`: the author's own split is undone for real,
 * anyone else's block gets the author's deletion mark (once).
 */
export function trackJoin(tr: Transform, pos: number, mark: Mark): boolean {
  const node = tr.doc.nodeAt(pos);
  if (!node) return false;
  if (node.marks.some(byUser('insertion', mark.attrs.user as number))) return joinBlock(tr, pos);
  if (node.marks.some((m) => m.type === mark.type)) return true;
  return !tr.maybeStep(new AddNodeMarkStep(pos, mark)).failed;
}

/** The new block of a split: the step inserts, at one point, two chains of empty blocks open on their inner sides. */
export function splitBlockOf(step: ReplaceStep): PMNode | null {
  const { slice } = step;
  const depth = slice.openStart;
  if (step.from !== step.to || depth < 1 || slice.openEnd !== depth || slice.content.childCount !== 2)
    return null;
  for (let index = 0; index < 2; index++) {
    let node = slice.content.child(index);
    for (let level = 1; level < depth; level++) {
      if (node.childCount !== 1) return null;
      node = node.child(0);
    }
    if (node.isInline || node.content.size) return null;
  }
  return slice.content.child(1);
}

/** The chain of a split's new block without the tracked marks it copied from the block it came from. */
function withoutTracked(node: PMNode, levels: number): PMNode {
  const content =
    levels > 1 && node.firstChild ? Fragment.from(withoutTracked(node.firstChild, levels - 1)) : node.content;
  return node.type.create(
    node.attrs,
    content,
    node.marks.filter((m) => !TRACKED.has(m.type.name)),
  );
}

/** Makes a split whose new block carries `mark` (the author's insertion). */
export function trackSplit(tr: Transform, step: ReplaceStep, mark: Mark): boolean {
  const { slice } = step;
  const block = withoutTracked(slice.content.child(1), slice.openStart);
  const content = slice.content.replaceChild(1, block.mark(mark.addToSet(block.marks)));
  const split = new ReplaceStep(step.from, step.to, new Slice(content, slice.openStart, slice.openEnd), true);
  return !tr.maybeStep(split).failed;
}

/** A split the server accepts from `user`: the new block carries their insertion and no one else's marks. */
export function ownSplit(block: PMNode, user: number): boolean {
  let others = false;
  block.descendants((node) => {
    if (node.marks.some((m) => TRACKED.has(m.type.name))) others = true;
    return !others;
  });
  const marks = block.marks.filter((m) => TRACKED.has(m.type.name));
  return !others && marks.length === 1 && byUser('insertion', user)(marks[0]);
}

/** The old and new textblock of a step that changes one textblock's type or attributes only. */
function blockChangeOf(step: ReplaceAroundStep, doc: PMNode): { old: PMNode; node: PMNode } | null {
  const { slice } = step;
  if (step.gapFrom !== step.from + 1 || step.gapTo !== step.to - 1 || step.insert !== 1) return null;
  if (slice.openStart || slice.openEnd || slice.content.childCount !== 1) return null;
  const node = slice.content.child(0);
  const old = doc.nodeAt(step.from);
  if (!old || old.nodeSize !== step.to - step.from || !old.isTextblock || !node.isTextblock) return null;
  return node.content.size ? null : { old, node };
}

function sameBefore(a: BlockBefore | null, b: BlockBefore): boolean {
  if (!a || a.type !== b.type) return false;
  const keys = new Set([...Object.keys(a.attrs ?? {}), ...Object.keys(b.attrs)]);
  return [...keys].every((key) => JSON.stringify(a.attrs?.[key]) === JSON.stringify(b.attrs[key]));
}

/** What the block was before `user` changed it (their record's, or now); null if someone else's change is recorded. */
function originalOf(old: PMNode, user: number): BlockBefore | null {
  const record = old.marks.find((m) => m.type.name === 'block_change');
  if (record && record.attrs.user !== user) return null;
  return (
    (record?.attrs.before as BlockBefore | undefined) ?? { type: old.type.name, attrs: { ...old.attrs } }
  );
}

/** Makes a block type change that records the block's original type in the author's block_change. */
export function trackBlockChange(tr: Transform, step: ReplaceAroundStep, record: Mark): boolean {
  const shape = blockChangeOf(step, tr.doc);
  const original = shape && originalOf(shape.old, record.attrs.user as number);
  if (!shape || !original) return false;
  const { node } = shape;
  let marks = record.type.removeFromSet(node.marks);
  if (!sameBefore(original, { type: node.type.name, attrs: node.attrs }))
    marks = record.type.create({ ...record.attrs, before: original }).addToSet(marks);
  const slice = new Slice(Fragment.from(node.mark(marks)), 0, 0);
  return !tr.maybeStep(new ReplaceAroundStep(step.from, step.to, step.gapFrom, step.gapTo, slice, 1, true))
    .failed;
}

/** A block type change the server accepts from `user`: recorded in their block_change, or back to the original. */
export function blockChangeAllowed(step: ReplaceAroundStep, doc: PMNode, user: number): boolean {
  const shape = blockChangeOf(step, doc);
  const original = shape && originalOf(shape.old, user);
  if (!shape || !original) return false;
  const { old, node } = shape;
  const type = doc.type.schema.marks.block_change;
  if (!Mark.sameSet(type.removeFromSet(old.marks), type.removeFromSet(node.marks))) return false;
  const record = type.isInSet(node.marks);
  if (sameBefore(original, { type: node.type.name, attrs: node.attrs })) return !record;
  return Boolean(
    record && record.attrs.user === user && sameBefore(record.attrs.before as BlockBefore, original),
  );
}

/** Node-mark steps a suggesting user may send: their own deletion mark on a block, added or taken back. */
export function nodeMarkAllowed(
  step: AddNodeMarkStep | RemoveNodeMarkStep,
  doc: PMNode,
  user: number,
): boolean {
  const node = doc.nodeAt(step.pos);
  return Boolean(node && !node.isInline && byUser('deletion', user)(step.mark));
}

/**
 * Accepts or rejects a change recorded on the block at `pos`: an accepted deletion or a rejected
 * insertion joins the block with the one before it; a rejected block change restores the type.
 */
export function decideBlock(tr: Transform, pos: number, mark: Mark, accept: boolean): void {
  const name = mark.type.name;
  if ((name === 'deletion' && accept) || (name === 'insertion' && !accept)) {
    // The join takes the block's marks with it; when it cannot be joined, the record goes.
    if (joinBlock(tr, pos)) return;
  } else if (name === 'block_change' && !accept) {
    const before = mark.attrs.before as BlockBefore | null;
    const type = before && tr.doc.type.schema.nodes[before.type];
    const node = tr.doc.nodeAt(pos);
    if (type && node) {
      try {
        tr.setNodeMarkup(pos, type, before.attrs, mark.removeFromSet(node.marks));
        return;
      } catch {
        // The content no longer fits the old type: only the record goes.
      }
    }
  }
  tr.step(new RemoveNodeMarkStep(pos, mark));
}
