import { Fragment, Mark, NodeRange, type Node as PMNode, Slice } from 'prosemirror-model';
import {
  AddNodeMarkStep,
  canJoin,
  liftTarget,
  RemoveNodeMarkStep,
  ReplaceAroundStep,
  ReplaceStep,
  Transform,
} from 'prosemirror-transform';
import { type BlockBefore, TRACKED_CHANGE_MARKS } from './review-marks';
import { removeTableRow } from './table-rows';

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
    if (
      pos >= from &&
      pos < to &&
      index > 0 &&
      recordsBoundary(node) &&
      parent?.type.allowsMarkType(deletion) &&
      joinDepth(doc, pos)
    )
      found.push(pos);
    return true;
  });
  return found;
}

/** Joins the block at `pos` with the one before it, through to their textblocks or `levels` deep. */
export function joinBlock(tr: Transform, pos: number, levels = 0): boolean {
  const full = joinDepth(tr.doc, pos);
  const depth = levels > 0 && levels < full ? levels : full;
  return depth > 0 && !tr.maybeStep(new ReplaceStep(pos - depth, pos + depth, Slice.empty, true)).failed;
}

/**
 * When [from, to) is a block boundary that a join closes only part of the way (two list items
 * merged, their paragraphs kept): the position of the block after it.
 */
export function shallowJoinedBlock(doc: PMNode, from: number, to: number): number | null {
  if (to <= from || (to - from) % 2) return null;
  const depth = (to - from) / 2;
  const block = doc.nodeAt(from + depth);
  return block && recordsBoundary(block) && joinDepth(doc, from + depth) > depth ? from + depth : null;
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
  // A split above the text (two paragraphs of an item made two items) is joined back as deep only.
  let inner = block;
  for (let level = 1; level < slice.openStart; level++) inner = inner.child(0);
  const record = inner.isTextblock ? mark : mark.type.create({ ...mark.attrs, join: slice.openStart });
  const content = slice.content.replaceChild(1, block.mark(record.addToSet(block.marks)));
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

/**
 * Node-mark steps a suggesting user may send: their own deletion mark on a block, and their own
 * record of an item lifted out of its list; added or taken back.
 */
export function nodeMarkAllowed(
  step: AddNodeMarkStep | RemoveNodeMarkStep,
  doc: PMNode,
  user: number,
): boolean {
  const node = doc.nodeAt(step.pos);
  if (!node || node.isInline) return false;
  // A mark replaces the block's mark of its type: never another author's suggestion (issue 50).
  if (node.marks.some((m) => m.type === step.mark.type && m.attrs.user !== user)) return false;
  if (byUser('deletion', user)(step.mark)) return true;
  if (!byUser('block_change', user)(step.mark) || node.type.name !== 'list_item') return false;
  const structure = recordedStructure(step.mark);
  if (structure === 'lift') return true;
  // An outdent is recorded on an item of a nested list only (its accept lifts it one level).
  return structure === 'outdent' && nestedItem(doc, step.pos);
}

function removeBlock(tr: Transform, pos: number, node: PMNode): boolean {
  return !tr.maybeStep(new ReplaceStep(pos, pos + node.nodeSize, Slice.empty)).failed;
}

/**
 * Accepts or rejects a change recorded on the block at `pos`. On a textblock or list item an
 * accepted deletion or a rejected insertion joins it with the block before (a rejected insertion
 * that cannot be joined and holds only its author's text goes); on any other block they remove
 * it. A rejected block change restores the type, a rejected list takes its blocks out again, an
 * accepted lift takes the item out of its list.
 */
export function decideBlock(tr: Transform, pos: number, mark: Mark, accept: boolean): void {
  const name = mark.type.name;
  const node = tr.doc.nodeAt(pos);
  const removes = (name === 'deletion' && accept) || (name === 'insertion' && !accept);
  const structure = recordedStructure(mark);
  if (!node) return;
  if (structure === 'sink') {
    if (accept ? acceptSink(tr, pos, mark) : liftSunk(tr, pos)) return;
  } else if (structure === 'outdent') {
    if (accept && outdentItem(tr, pos, mark)) return;
  } else if (structure) {
    if (structure === 'wrap' ? !accept && unwrap(tr, pos) : accept && liftItem(tr, pos)) return;
  } else if (removes && !recordsBoundary(node)) {
    if (node.type.spec.tableRole === 'row' ? removeTableRow(tr, pos) : removeBlock(tr, pos, node)) return;
  } else if (removes) {
    // The join takes the block's marks with it; when it cannot be joined, the record goes.
    if (joinBlock(tr, pos, (mark.attrs.join as number | undefined) ?? 0)) return;
    const own = name === 'insertion' && onlyInserted(node, mark.attrs.user as number);
    if (own && !tr.maybeStep(new ReplaceStep(pos, pos + node.nodeSize, Slice.empty)).failed) return;
  } else if (name === 'block_change' && !accept) {
    const before = mark.attrs.before as BlockBefore | null;
    const type = before && tr.doc.type.schema.nodes[before.type];
    if (type) {
      try {
        tr.setNodeMarkup(pos, type, before.attrs, mark.removeFromSet(node.marks));
        return;
      } catch {
        // The content no longer fits the old type: only the record goes.
      }
    }
  }
  tr.maybeStep(new RemoveNodeMarkStep(pos, mark));
}

// ---------------------------------------------------------------------------------------------
// Whole blocks: tables, rows, cells, lists and pasted blocks (issue 18).
//
//   inserted blocks        one ReplaceStep at a point whose slice carries the author's insertion:
//                          every inline node, every new whole block (a table, a row, a cell, a
//                          list: rejecting removes it) and the new block at the slice's open end
//                          (a split: rejecting joins it again)
//   deleted whole blocks   the author's deletion mark on each block of a run of whole siblings
//                          (rows, cells, a table): accepting removes them
//   a list made            a ReplaceAroundStep wrapping blocks; the new wrapper carries the
//                          author's block_change {structure: 'wrap'}: rejecting lifts them out
//   an item lifted out     not made: the item gets the author's block_change {structure: 'lift'},
//                          accepting lifts it out of its list

/**
 * Blocks whose insertion or deletion mark records a boundary (a split before them, a join with the
 * block before): textblocks and list items. On any other block the mark records the whole block.
 */
export function recordsBoundary(node: PMNode): boolean {
  return node.isTextblock || node.type.name === 'list_item';
}

function withoutTrackedMarks(fragment: Fragment): Fragment {
  const nodes: PMNode[] = [];
  fragment.forEach((node) => {
    const marks = node.marks.filter((m) => !TRACKED.has(m.type.name));
    nodes.push(
      node.isText ? node.mark(marks) : node.type.create(node.attrs, withoutTrackedMarks(node.content), marks),
    );
  });
  return Fragment.from(nodes);
}

/**
 * The slice's content with `mark` where an insertion records it (see above). `interior`: inside a
 * new block, whose nested blocks are new with it (only their text is marked). Null when the
 * insertion cannot be recorded: a new block at the open end that is not a textblock or list item.
 */
function markFragment(
  content: Fragment,
  openStart: number,
  openEnd: number,
  mark: Mark,
  interior: boolean,
): Fragment | null {
  const nodes: PMNode[] = [];
  for (let index = 0; index < content.childCount; index++) {
    const node = content.child(index);
    const last = index === content.childCount - 1;
    if (node.isInline) {
      nodes.push(node.mark(mark.addToSet(node.marks)));
      continue;
    }
    const innerEnd = last ? Math.max(openEnd - 1, 0) : 0;
    let inner: Fragment | null;
    if (interior || (index === 0 && openStart > 0)) {
      // Inside a new block, or the block the insertion starts in (it exists already): not marked.
      inner = markFragment(node.content, interior ? 0 : openStart - 1, innerEnd, mark, interior);
      if (!inner) return null;
      nodes.push(node.copy(inner));
      continue;
    }
    if (!recordsBoundary(node)) {
      // A whole new block; one continuing with what follows the insertion point could not be removed alone.
      if (last && openEnd > 0) return null;
      nodes.push(node.mark(mark.addToSet(node.marks)));
      continue;
    }
    // A new textblock: only its text. A new list item: its first block is the one rejecting joins
    // with the block before (only its text marked), the blocks after it are new of their own.
    inner = node.isTextblock
      ? markFragment(node.content, 0, innerEnd, mark, true)
      : markFragment(node.content, 1, innerEnd, mark, false);
    if (!inner) return null;
    nodes.push(node.type.create(node.attrs, inner, mark.addToSet(node.marks)));
  }
  return Fragment.from(nodes);
}

/** The slice as the author's suggested insertion (tracked marks it copied from elsewhere dropped). */
export function markInsertedSlice(slice: Slice, mark: Mark): Slice | null {
  const content = markFragment(
    withoutTrackedMarks(slice.content),
    slice.openStart,
    slice.openEnd,
    mark,
    false,
  );
  return content && new Slice(content, slice.openStart, slice.openEnd);
}

/** A slice of blocks exactly as `markInsertedSlice` makes it with one insertion mark of `user`. */
export function ownInsertedSlice(slice: Slice, user: number): boolean {
  let mark: Mark | undefined;
  slice.content.descendants((node) => {
    mark ??= node.marks.find(byUser('insertion', user));
    return !mark;
  });
  if (!mark) return false;
  const expected = markInsertedSlice(slice, mark);
  return Boolean(expected?.eq(slice));
}

/**
 * Whether [from, to) holds only the ends of the blocks `from` is in (also when empty): replacing
 * it with a slice that closes them again inserts and removes nothing else. (Opening tokens are
 * not allowed: re-creating another's boundary as one's own split would let one join it.)
 */
export function onlyClosingTokens(doc: PMNode, from: number, to: number): boolean {
  const $from = doc.resolve(from);
  const levels = to - from;
  if (levels < 0 || levels > $from.depth) return false;
  for (let index = 0; index < levels; index++)
    if ($from.end($from.depth - index) !== from + index) return false;
  return true;
}

/** When [from, to) is a run of whole sibling blocks recorded whole (rows, cells, a table): their positions. */
export function wholeBlocksIn(doc: PMNode, from: number, to: number): number[] | null {
  if (from >= to) return null;
  const $from = doc.resolve(from);
  const $to = doc.resolve(to);
  if ($from.depth !== $to.depth || $from.parent !== $to.parent || $from.parent.inlineContent) return null;
  const found: number[] = [];
  for (let pos = from; pos < to; ) {
    const node = doc.nodeAt(pos);
    if (!node || node.isInline || recordsBoundary(node)) return null;
    found.push(pos);
    pos += node.nodeSize;
  }
  return $from.parent.type.allowsMarkType(doc.type.schema.marks.deletion) ? found : null;
}

/** Marks whole blocks as deleted by the author; their own inserted blocks are really removed. */
export function trackWholeDeletion(tr: Transform, blocks: readonly number[], mark: Mark): boolean {
  for (const pos of [...blocks].reverse()) {
    const node = tr.doc.nodeAt(pos);
    if (!node) return false;
    if (node.marks.some(byUser('insertion', mark.attrs.user as number))) {
      if (node.type.spec.tableRole === 'row' ? !removeTableRow(tr, pos) : !removeBlock(tr, pos, node))
        return false;
    } else if (
      !node.marks.some((m) => m.type === mark.type) &&
      tr.maybeStep(new AddNodeMarkStep(pos, mark)).failed
    )
      return false;
  }
  return true;
}

/** Removing one block the author inserted whole (withdrawing or undoing it). */
export function removesOwnBlock(doc: PMNode, from: number, to: number, user: number): boolean {
  const node = doc.nodeAt(from);
  if (!node || node.nodeSize !== to - from || node.isInline) return false;
  return node.marks.some(byUser('insertion', user)) && (!recordsBoundary(node) || onlyInserted(node, user));
}

/** Every inline node in the block carries `user`'s insertion (vacuously so for an empty block). */
function onlyInserted(block: PMNode, user: number): boolean {
  let ok = true;
  block.descendants((node) => {
    if (node.isInline && !node.marks.some(byUser('insertion', user))) ok = false;
    return ok && !node.isInline;
  });
  return ok;
}

/**
 * What a block_change records about structure: a list made ('wrap', on the list), an item lifted
 * out ('lift'), items indented ('sink', on the nested list made for them), an item of a nested list
 * outdented ('outdent', on the item).
 */
export type RecordedStructure = 'wrap' | 'lift' | 'sink' | 'outdent';

const STRUCTURES = new Set<string>(['wrap', 'lift', 'sink', 'outdent']);

/** The structure a block_change records, or null (a type change, or another mark). */
export function recordedStructure(mark: Mark | undefined): RecordedStructure | null {
  const before =
    mark?.type.name === 'block_change' ? (mark.attrs.before as { structure?: string } | null) : null;
  return before?.structure && STRUCTURES.has(before.structure)
    ? (before.structure as RecordedStructure)
    : null;
}

/** The wrapper chain of a step that puts whole blocks into new wrappers (a list and its item, a quote). */
function wrapOf(step: ReplaceAroundStep, doc: PMNode): PMNode | null {
  const { slice } = step;
  if (step.gapFrom !== step.from || step.gapTo !== step.to || step.from >= step.to) return null;
  if (slice.openStart || slice.openEnd || slice.content.childCount !== 1) return null;
  let depth = 0;
  for (let node: PMNode | null = slice.content.firstChild; node; node = node.firstChild) {
    if (node.isTextblock || node.isInline || node.childCount > 1) return null;
    depth++;
  }
  const $from = doc.resolve(step.from);
  if (step.insert !== depth || $from.parent !== doc.resolve(step.to).parent || $from.parent.inlineContent)
    return null;
  return slice.content.firstChild;
}

/** Wraps blocks, the outer wrapper carrying `record` (the author's block_change {structure: 'wrap'}). */
export function trackWrap(tr: Transform, step: ReplaceAroundStep, record: Mark): boolean {
  const wrapper = wrapOf(step, tr.doc);
  if (!wrapper) return false;
  const marked = wrapper.mark(record.addToSet(wrapper.marks.filter((m) => !TRACKED.has(m.type.name))));
  const slice = new Slice(Fragment.from(marked), 0, 0);
  return !tr.maybeStep(
    new ReplaceAroundStep(step.from, step.to, step.from, step.to, slice, step.insert, true),
  ).failed;
}

function wrapAllowed(step: ReplaceAroundStep, doc: PMNode, user: number): boolean {
  const wrapper = wrapOf(step, doc);
  if (!wrapper) return false;
  const records = wrapper.marks.filter((m) => TRACKED.has(m.type.name));
  let inner = false;
  wrapper.descendants((node) => {
    if (node.marks.some((m) => TRACKED.has(m.type.name))) inner = true;
    return !inner;
  });
  return (
    !inner &&
    records.length === 1 &&
    byUser('block_change', user)(records[0]) &&
    recordedStructure(records[0]) === 'wrap'
  );
}

/** The list item a step lifts out of its list (its content stays, its list closed around it). */
function liftedItemOf(step: ReplaceAroundStep, doc: PMNode): number | null {
  const item = step.gapFrom - 1;
  const node = item >= 0 ? doc.nodeAt(item) : null;
  if (node?.type.name !== 'list_item' || item + node.nodeSize !== step.gapTo + 1) return null;
  const $item = doc.resolve(item);
  const listStart = $item.before();
  const listEnd = $item.after();
  if (step.from < listStart || step.to > listEnd || step.from > item || step.to < item + node.nodeSize)
    return null;
  // What the step puts around the content: only empty copies of the list (closing and reopening it).
  let only = true;
  step.slice.content.forEach((copy) => {
    if (copy.type !== $item.parent.type || copy.childCount) only = false;
  });
  return only ? item : null;
}

/** A list item taken out of a list of the top level: recorded on the item, not made. */
export function trackLift(tr: Transform, step: ReplaceAroundStep, record: Mark): boolean {
  // Out of the author's own suggested list or quotation: made for real (taken back).
  if (unwrapAllowed(step, tr.doc, record.attrs.user as number)) return !tr.maybeStep(step).failed;
  const item = liftedItemOf(step, tr.doc);
  if (item === null || tr.doc.resolve(item).node(-1).type.name === 'list_item') return false;
  const node = tr.doc.nodeAt(item);
  // Lifted once already: nothing more to record. Another change recorded on it: not this one too.
  const recorded = node && record.type.isInSet(node.marks);
  if (recorded) return recordedStructure(recorded) === 'lift';
  return !tr.maybeStep(new AddNodeMarkStep(item, record)).failed;
}

const ownWrap = (node: PMNode, user: number) => {
  const record = node.marks.find((m) => m.type.name === 'block_change');
  return Boolean(record && byUser('block_change', user)(record) && recordedStructure(record) === 'wrap');
};

/** Taking back a wrapper the author made: an item lifted out of their list, or their quotation removed. */
function unwrapAllowed(step: ReplaceAroundStep, doc: PMNode, user: number): boolean {
  const item = liftedItemOf(step, doc);
  if (item !== null) return ownWrap(doc.resolve(item).parent, user);
  const wrapper = doc.nodeAt(step.from);
  return Boolean(
    wrapper &&
      wrapper.nodeSize === step.to - step.from &&
      step.gapFrom === step.from + 1 &&
      step.gapTo === step.to - 1 &&
      !step.slice.size &&
      ownWrap(wrapper, user),
  );
}

/** The structural ReplaceAroundSteps a suggesting user may send: a list made or items indented, or their own taken back. */
export function structureAllowed(step: ReplaceAroundStep, doc: PMNode, user: number): boolean {
  return (
    wrapAllowed(step, doc, user) ||
    unwrapAllowed(step, doc, user) ||
    sinkAllowed(step, doc, user) ||
    unsinkAllowed(step, doc, user)
  );
}

/** Lifts the content of the list item at `pos` out of its list (an accepted lift, a rejected list). */
function liftItem(tr: Transform, pos: number): boolean {
  const node = tr.doc.nodeAt(pos);
  if (!node) return false;
  const range = tr.doc.resolve(pos + 1).blockRange(tr.doc.resolve(pos + node.nodeSize - 1));
  const target = range && liftTarget(range);
  if (!range || target === null || target === undefined) return false;
  tr.lift(range, target);
  return true;
}

/** Takes the blocks out of the wrapper at `pos` again: item by item from the last for a list. */
function unwrap(tr: Transform, pos: number): boolean {
  const wrapper = tr.doc.nodeAt(pos);
  if (!wrapper) return false;
  if (wrapper.firstChild?.type.name !== 'list_item') {
    const range = tr.doc.resolve(pos + 1).blockRange(tr.doc.resolve(pos + wrapper.nodeSize - 1));
    const target = range && liftTarget(range);
    if (!range || target === null || target === undefined) return false;
    tr.lift(range, target);
    return true;
  }
  const items: number[] = [];
  wrapper.forEach((_item, offset) => {
    items.push(pos + 1 + offset);
  });
  for (const item of items.reverse()) if (!liftItem(tr, item)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Nested lists: indenting and outdenting items (issue 18).
//
//   items indented   made, always into a new nested list at the end of the item before them (never
//                    joined into a nested list already there); the new list carries the author's
//                    block_change {structure: 'sink'}. Accepting removes the record and joins the
//                    list with an unrecorded list of its type beside it (what the untracked command
//                    gives); rejecting lifts its items back into the outer list.
//   items outdented  not made: each item gets the author's block_change {structure: 'outdent'};
//                    accepting lifts it one level (as Shift-Tab does), rejecting drops the record.
//                    Every item of the author's own indented list outdented: taken back for real.

/** The author's own record of an indent, and no other tracked change, on a list. */
function ownSink(node: PMNode | null | undefined, user: number): boolean {
  const records = node?.marks.filter((m) => TRACKED.has(m.type.name)) ?? [];
  return (
    records.length === 1 &&
    byUser('block_change', user)(records[0]) &&
    recordedStructure(records[0]) === 'sink'
  );
}

/** Whether the block at `pos` is an item of a list nested in another list's item. */
function nestedItem(doc: PMNode, pos: number): boolean {
  if (doc.nodeAt(pos)?.type.name !== 'list_item') return false;
  const $pos = doc.resolve(pos);
  return $pos.depth >= 2 && $pos.node(-1).type.name === 'list_item';
}

/**
 * The new list of a step that indents whole items of a list into the item before them (what
 * sinkListItem makes: a new nested list, `openStart` 1, or joined into a nested list there, 3).
 */
function sinkOf(step: ReplaceAroundStep, doc: PMNode): PMNode | null {
  const { slice } = step;
  const depth = slice.openStart;
  if (step.gapTo !== step.to || step.insert !== 1 || step.gapFrom >= step.gapTo) return null;
  if ((depth !== 1 && depth !== 3) || slice.openEnd || step.from !== step.gapFrom - depth) return null;
  const item = slice.content.firstChild;
  const list = item?.firstChild;
  if (slice.content.childCount !== 1 || item?.type.name !== 'list_item' || item.childCount !== 1 || !list)
    return null;
  if (item.marks.length || list.childCount !== (depth === 3 ? 1 : 0)) return null;
  const $gap = doc.resolve(step.gapFrom);
  const $end = doc.resolve(step.gapTo);
  if (!$gap.sameParent($end) || $gap.depth !== $end.depth || $gap.parent.type !== list.type) return null;
  return $gap.nodeBefore?.type === item.type ? list : null;
}

/** Indents items into a new nested list carrying `record` (the author's block_change {structure: 'sink'}). */
export function trackSink(tr: Transform, step: ReplaceAroundStep, record: Mark): boolean {
  const list = sinkOf(step, tr.doc);
  if (!list) return false;
  const nested = list.type.create(null, null, [record]);
  const slice = new Slice(Fragment.from(tr.doc.type.schema.nodes.list_item.create(null, nested)), 1, 0);
  return !tr.maybeStep(
    new ReplaceAroundStep(step.gapFrom - 1, step.gapTo, step.gapFrom, step.gapTo, slice, 1, true),
  ).failed;
}

/** An indent a suggesting user may send: into a new nested list carrying their record, and nothing else. */
function sinkAllowed(step: ReplaceAroundStep, doc: PMNode, user: number): boolean {
  const list = sinkOf(step, doc);
  return Boolean(list && step.slice.openStart === 1 && ownSink(list, user));
}

/** Lifts the items of the indented list at `pos` back into the list around it (a rejected indent). */
function liftSunk(tr: Transform, pos: number): boolean {
  const list = tr.doc.nodeAt(pos);
  if (!list?.childCount) return false;
  const $start = tr.doc.resolve(pos + 1);
  const range = new NodeRange($start, tr.doc.resolve(pos + list.nodeSize - 1), $start.depth);
  const target = liftTarget(range);
  if (target === null || target === undefined) return false;
  tr.lift(range, target);
  return true;
}

/** An accepted indent: the record goes, and the list joins unrecorded lists of its type beside it. */
function acceptSink(tr: Transform, pos: number, mark: Mark): boolean {
  if (tr.maybeStep(new RemoveNodeMarkStep(pos, mark)).failed) return false;
  const list = tr.doc.nodeAt(pos);
  if (!list) return true;
  const plain = (node: PMNode | null | undefined) =>
    node?.type === list.type && !node.marks.some((m) => TRACKED.has(m.type.name));
  const end = pos + list.nodeSize;
  if (plain(tr.doc.resolve(end).nodeAfter) && canJoin(tr.doc, end)) tr.join(end);
  if (plain(tr.doc.resolve(pos).nodeBefore) && canJoin(tr.doc, pos)) tr.join(pos);
  return true;
}

/** An accepted outdent: the record goes and the item is lifted one level, as liftListItem does. */
function outdentItem(tr: Transform, pos: number, mark: Mark): boolean {
  if (!nestedItem(tr.doc, pos) || tr.maybeStep(new RemoveNodeMarkStep(pos, mark)).failed) return false;
  const start = tr.steps.length;
  const item = tr.doc.nodeAt(pos) as PMNode;
  const $from = tr.doc.resolve(pos);
  let range = new NodeRange($from, tr.doc.resolve(pos + item.nodeSize), $from.depth);
  const end = range.end;
  const endOfList = range.$to.end(range.depth);
  if (end < endOfList) {
    // The items after it become its own nested list.
    const slice = new Slice(Fragment.from(item.type.create(null, range.parent.copy())), 1, 0);
    tr.step(new ReplaceAroundStep(end - 1, endOfList, end, endOfList, slice, 1, true));
    range = new NodeRange(tr.doc.resolve(pos), tr.doc.resolve(endOfList), range.depth);
  }
  const target = liftTarget(range);
  if (target === null || target === undefined) return false;
  tr.lift(range, target);
  const $after = tr.doc.resolve(tr.mapping.slice(start).map(end, -1) - 1);
  if (canJoin(tr.doc, $after.pos) && $after.nodeBefore?.type === $after.nodeAfter?.type) tr.join($after.pos);
  return true;
}

/**
 * Records the outdent of the items at `items` (siblings in a nested list): the author's own
 * indented list outdented whole is taken back; otherwise each item gets `record` (once: an item
 * already carrying a block change is refused, an outdent is one level).
 */
export function trackOutdent(tr: Transform, items: readonly number[], record: Mark): boolean {
  if (!items.length) return false;
  const $first = tr.doc.resolve(items[0]);
  if (ownSink($first.parent, record.attrs.user as number) && items.length === $first.parent.childCount)
    return liftSunk(tr, $first.before());
  for (const pos of items) {
    const node = tr.doc.nodeAt(pos);
    if (!node || !nestedItem(tr.doc, pos) || record.type.isInSet(node.marks)) return false;
    if (tr.maybeStep(new AddNodeMarkStep(pos, record)).failed) return false;
  }
  return true;
}

/** Taking back one's own indent (withdrawn, undone, outdented whole): the step rejecting it, exactly. */
function unsinkAllowed(step: ReplaceAroundStep, doc: PMNode, user: number): boolean {
  const result = step.apply(doc).doc;
  if (!result) return false;
  let ok = false;
  doc.nodesBetween(Math.max(step.from, 0), Math.min(step.to, doc.content.size), (node, pos) => {
    if (ok || node.isTextblock) return false;
    if (ownSink(node, user)) {
      const lifted = new Transform(doc);
      if (liftSunk(lifted, pos) && lifted.doc.eq(result)) ok = true;
    }
    return !ok;
  });
  return ok;
}
