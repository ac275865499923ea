import type { Node as PMNode } from 'prosemirror-model';
import {
  AddMarkStep,
  type Mapping,
  RemoveMarkStep,
  ReplaceStep,
  type Step,
  type Transform,
} from 'prosemirror-transform';
import { COMMENT_MARK } from './review-marks';
import { type CommentAnchor, commentAnchors, type TrackedChange, trackedChanges } from './track-changes';

/**
 * Where the review work of a document is (issue 18): its tracked changes and comment anchors,
 * kept up to date through each transaction without scanning the whole document again. Positions
 * are mapped through the steps; only the ranges an edit touched are read again. The review margin
 * draws from it, so that a document with thousands of changes types as fast as one without.
 */
export interface ReviewIndex {
  /** In document order (as `trackedChanges`). */
  changes: readonly TrackedChange[];
  anchors: ReadonlyMap<number, CommentAnchor>;
}

export function indexReview(doc: PMNode): ReviewIndex {
  return {
    changes: trackedChanges(doc),
    anchors: new Map(commentAnchors(doc).map((anchor) => [anchor.id, anchor])),
  };
}

const keyOf = (change: TrackedChange) => `${change.block ? 'b' : 'i'}${change.type}:${change.from}`;

/** Whether a step adds or removes comment anchors (rare: anchors are then read again in full). */
function touchesComments(step: Step): boolean {
  if (step instanceof AddMarkStep || step instanceof RemoveMarkStep)
    return step.mark.type.name === COMMENT_MARK;
  if (!(step instanceof ReplaceStep)) return false;
  let found = false;
  step.slice.content.descendants((node) => {
    if (node.marks.some((mark) => mark.type.name === COMMENT_MARK)) found = true;
    return !found;
  });
  return found;
}

/** The textblock-wide ranges of the new document an edit touched. */
export function touchedRanges(tr: Transform): { from: number; to: number }[] {
  const ranges: { from: number; to: number }[] = [];
  tr.mapping.maps.forEach((map, index) => {
    map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      const rest = tr.mapping.slice(index + 1);
      ranges.push({ from: rest.map(newStart, -1), to: rest.map(newEnd, 1) });
    });
  });
  // Mark steps have empty maps: their ranges come from the steps (a node mark's from its node).
  tr.steps.forEach((step, index) => {
    const json = step.toJSON() as { from?: number; to?: number; pos?: number };
    const rest = tr.mapping.slice(index + 1);
    if (typeof json.from === 'number' && typeof json.to === 'number')
      ranges.push({ from: rest.map(json.from, -1), to: rest.map(json.to, 1) });
    else if (typeof json.pos === 'number') {
      const pos = rest.map(json.pos, 1);
      ranges.push({ from: pos, to: pos + (tr.doc.nodeAt(pos)?.nodeSize ?? 0) });
    }
  });
  const size = tr.doc.content.size;
  return ranges.map(({ from, to }) => {
    const $from = tr.doc.resolve(Math.max(0, Math.min(from, size)));
    const $to = tr.doc.resolve(Math.max(0, Math.min(to, size)));
    return {
      from: $from.depth ? $from.start($from.depth) : 0,
      to: $to.depth ? $to.end($to.depth) : size,
    };
  });
}

/**
 * The index after a transaction: `touched` are the ranges of the new document the transaction
 * changed, each spanning whole textblocks (or whole blocks); what is in them is read again.
 */
export function updateReviewIndex(
  index: ReviewIndex,
  doc: PMNode,
  mapping: Mapping,
  steps: readonly Step[],
  touched: readonly { from: number; to: number }[],
): ReviewIndex {
  const changes =
    updatedChanges(index.changes, doc, mapping, touched) ??
    rescannedChanges(index.changes, doc, mapping, touched);
  let anchors: Map<number, CommentAnchor>;
  if (steps.some(touchesComments)) anchors = new Map(commentAnchors(doc).map((a) => [a.id, a]));
  else {
    anchors = new Map();
    for (const anchor of index.anchors.values()) {
      const from = mapping.map(anchor.from, 1);
      const to = mapping.map(anchor.to, -1);
      if (from < to) anchors.set(anchor.id, { id: anchor.id, from, to });
    }
  }
  return { changes, anchors };
}

/** The changes after an edit, by key (a later one of the same key replaces the earlier), sorted. */
function rescannedChanges(
  before: readonly TrackedChange[],
  doc: PMNode,
  mapping: Mapping,
  touched: readonly { from: number; to: number }[],
): TrackedChange[] {
  const changes = new Map<string, TrackedChange>();
  for (const change of before) {
    const from = mapping.map(change.from, 1);
    const to = mapping.map(change.to, -1);
    if (from >= to) continue;
    const moved = from === change.from && to === change.to ? change : { ...change, from, to };
    changes.set(keyOf(moved), moved);
  }
  for (const range of touched) {
    for (const [key, change] of changes)
      if (change.from >= range.from && change.from <= range.to) changes.delete(key);
    for (const change of trackedChanges(doc, range.from, range.to)) changes.set(keyOf(change), change);
  }
  return [...changes.values()].sort(byPosition);
}

const byPosition = (a: TrackedChange, b: TrackedChange) => a.from - b.from || a.to - b.to;

/**
 * The same as `rescannedChanges` without keys or a sort of all changes (each keystroke): the
 * changes outside the edit keep their order when mapped, those read again are merged in. Null
 * when that order or uniqueness does not hold (then the full way decides).
 */
function updatedChanges(
  before: readonly TrackedChange[],
  doc: PMNode,
  mapping: Mapping,
  touched: readonly { from: number; to: number }[],
): TrackedChange[] | null {
  const inTouched = (pos: number, after = 0) => {
    for (let i = after; i < touched.length; i++)
      if (pos >= touched[i].from && pos <= touched[i].to) return true;
    return false;
  };
  const kept: TrackedChange[] = [];
  for (const change of before) {
    const from = mapping.map(change.from, 1);
    const to = mapping.map(change.to, -1);
    if (from >= to || inTouched(from)) continue;
    const last = kept[kept.length - 1];
    if (last && byPosition(last, { from, to } as TrackedChange) > 0) return null;
    kept.push(from === change.from && to === change.to ? change : { ...change, from, to });
  }
  // A change read in one range and again in a later one counts in the later one (as above).
  const fresh: TrackedChange[] = [];
  touched.forEach((range, i) => {
    for (const change of trackedChanges(doc, range.from, range.to))
      if (!inTouched(change.from, i + 1)) fresh.push(change);
  });
  fresh.sort(byPosition);
  const merged: TrackedChange[] = [];
  let k = 0;
  let f = 0;
  while (k < kept.length || f < fresh.length) {
    const next =
      f >= fresh.length || (k < kept.length && byPosition(kept[k], fresh[f]) <= 0) ? kept[k++] : fresh[f++];
    // Two of one key (the same kind of change at one place): left to the full way.
    for (let i = merged.length - 1; i >= 0 && merged[i].from === next.from; i--)
      if (keyOf(merged[i]) === keyOf(next)) return null;
    merged.push(next);
  }
  return merged;
}

/** The first index in `changes` (sorted) whose change starts at or after `pos`. */
export function firstChangeFrom(changes: readonly TrackedChange[], pos: number): number {
  let low = 0;
  let high = changes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (changes[middle].from < pos) low = middle + 1;
    else high = middle;
  }
  return low;
}
