import { Fragment, Mark, type MarkType, type Node as PMNode, type Schema, Slice } from 'prosemirror-model';
import { liftListItem } from 'prosemirror-schema-list';
import { EditorState, TextSelection, type Transaction } from 'prosemirror-state';
import {
  AddMarkStep,
  AddNodeMarkStep,
  AttrStep,
  Mapping,
  RemoveMarkStep,
  RemoveNodeMarkStep,
  ReplaceAroundStep,
  ReplaceStep,
  type Step,
  type StepMap,
  Transform,
} from 'prosemirror-transform';
import { COMMENT_MARK, TRACKED_CHANGE_MARKS, type TrackedChangeMark } from './review-marks';
import { FORMAT_MARKS } from './schema';
import { removeTableRow } from './table-rows';
import {
  decidedWithCitations,
  emptyBibliographyStep,
  settleSuggestedEntries,
  trackNewBibliography,
} from './track-bibliography';
import {
  blockChangeAllowed,
  boundariesIn,
  decideBlock,
  joinedBlock,
  markInsertedSlice,
  nodeMarkAllowed,
  onlyClosingTokens,
  ownInsertedSlice,
  ownSplit,
  recordedStructure,
  recordsBoundary,
  removesOwnBlock,
  shallowJoinedBlock,
  splitBlockOf,
  structureAllowed,
  trackBlockChange,
  trackJoin,
  trackLift,
  trackOutdent,
  trackSink,
  trackSplit,
  trackWholeDeletion,
  trackWrap,
  wholeBlocksIn,
} from './track-blocks';

/**
 * Tracked changes (issue 18): suggestion mode turns an ordinary transaction into one that records
 * the change instead of making it, as marks with author and time:
 *
 *   typed or pasted inline content   inserted, carrying an `insertion` mark
 *   deleted inline content           kept, carrying a `deletion` mark; content the same author
 *                                    suggested (their own insertion) is really deleted
 *   bold, italic, ... added/removed  made, and recorded in a `format_change` mark (before/after)
 *
 *   Enter, joining blocks, a block's type  marks on the blocks (track-blocks.ts)
 *   lists made or lifted, tables, rows,    marks on the blocks, whole (track-blocks.ts)
 *   cells, pasted blocks, list items
 *   indented or outdented
 *
 * What cannot be recorded as marks (cells merged or split, attributes of the document) is refused
 * in suggestion mode: `trackTransaction` returns null and the editor says so. A merge removes
 * cells that cannot stay beside the merged one (the table's geometry), so rejecting it would need
 * the removed cells kept outside the document, where no co-author's edit or mapping reaches them.
 * `reviewStepAllowed` is the rule the server applies to write-tracked and review users (and the
 * editor applies to undo and redo in suggestion mode), so both sides agree on what a suggestion is.
 */

export { recordedStructure } from './track-blocks';

export interface Reviewer {
  id: number;
  username: string;
}

/** Meta key: the transaction must not be tracked (accept/reject, comment anchors, restores). */
export const UNTRACKED = 'review.untracked';

const TRACKED = new Set<string>(TRACKED_CHANGE_MARKS);
const FORMATS = new Set<string>(FORMAT_MARKS);

const byUser = (type: string, user: number) => (mark: Mark) =>
  mark.type.name === type && mark.attrs.user === user;

/**
 * Unwraps a slice to the inline content it inserts: a flat inline slice, or a slice opened through
 * single textblocks on both sides (what copying part of one paragraph gives). Null otherwise.
 */
export function flatInline(slice: Slice): Fragment | null {
  if (slice.openStart !== slice.openEnd) return null;
  let content = slice.content;
  for (let depth = slice.openStart; depth > 0; depth--) {
    if (content.childCount !== 1) return null;
    const only = content.firstChild;
    if (!only || only.isInline) return null;
    content = only.content;
  }
  let inline = true;
  content.forEach((node) => {
    if (!node.isInline) inline = false;
  });
  return inline ? content : null;
}

interface Segment {
  from: number;
  to: number;
  node: PMNode;
}

/** The inline nodes (text, notes, ...) in a range, cut to it; null if a block leaf is in it. */
function inlineSegments(doc: PMNode, from: number, to: number): Segment[] | null {
  const segments: Segment[] = [];
  let ok = true;
  doc.nodesBetween(from, to, (node, pos) => {
    if (!ok) return false;
    if (node.isInline) {
      segments.push({ from: Math.max(pos, from), to: Math.min(pos + node.nodeSize, to), node });
      return false;
    }
    // A block that cannot hold marks (a rule, a keyword) would be removed outright.
    if (node.isLeaf || node.isAtom) ok = false;
    return ok;
  });
  return ok ? segments : null;
}

// ---------------------------------------------------------------------------------------------
// The rule: which steps are suggestions of one user.

export interface ReviewPermissions {
  /** May add comment anchors, and remove those of their own threads. */
  comments: boolean;
  /** May make tracked suggestions (and withdraw their own). */
  suggestions: boolean;
  /** Threads of other people: their anchors are not this user's to remove (the server knows them). */
  othersThreads?: ReadonlySet<number>;
}

/** What a format_change records: the formatting marks (by name) its author removed and added. */
interface FormatRecord {
  before: Set<string>;
  after: Set<string>;
}

function formatRecord(mark: Mark | undefined): FormatRecord {
  return {
    before: new Set((mark?.attrs.before as string[] | undefined) ?? []),
    after: new Set((mark?.attrs.after as string[] | undefined) ?? []),
  };
}

const isPlainMark = (mark: Mark) => Object.keys(mark.attrs).length === 0;
const sameNames = (a: Set<string>, b: Set<string>) =>
  a.size === b.size && [...a].every((name) => b.has(name));

/**
 * Whether the marks of one inline node went from `before` to `after` as a suggestion of `user`:
 * every other mark is untouched (others' suggestions, comments), and the formatting the node had
 * before the user's suggestions (what it has, less the user's recorded additions, plus their
 * recorded removals) is the same, so that rejecting the user's format change brings it back. A
 * formatting mark that is not recorded as added is one the node already had, exactly (a link's
 * address included), or a plain one (bold, ...) the record says the user had removed.
 */
function formatChangeRecorded(before: readonly Mark[], after: readonly Mark[], user: number): boolean {
  if (Mark.sameSet(before, after)) return true;
  const own = (mark: Mark) => mark.type.name === 'format_change' && mark.attrs.user === user;
  const untouched = (marks: readonly Mark[]) => marks.filter((m) => !FORMATS.has(m.type.name) && !own(m));
  if (!Mark.sameSet(untouched(before), untouched(after))) return false;
  const was = formatRecord(before.find(own));
  const now = formatRecord(after.find(own));
  const formats = (marks: readonly Mark[]) => marks.filter((m) => FORMATS.has(m.type.name));
  const keptBefore = formats(before).filter((m) => !was.after.has(m.type.name));
  const keptAfter = formats(after).filter((m) => !now.after.has(m.type.name));
  const original = (kept: Mark[], record: FormatRecord) =>
    new Set([...kept.map((m) => m.type.name), ...record.before]);
  if (!sameNames(original(keptBefore, was), original(keptAfter, now))) return false;
  for (const mark of keptAfter)
    if (!mark.isInSet(keptBefore) && !(isPlainMark(mark) && was.before.has(mark.type.name))) return false;
  // The record says what is: its additions are there, its removals (not replaced) are not.
  const present = new Set(formats(after).map((m) => m.type.name));
  for (const name of now.after) if (!FORMATS.has(name) || !present.has(name)) return false;
  for (const name of now.before)
    if (!FORMATS.has(name) || (present.has(name) && !now.after.has(name))) return false;
  return true;
}

/**
 * Formatting and format-change marks changed by a run of mark steps (positions do not move
 * under them) between `before` and `after`: every inline node in the ranges is checked.
 */
function formatsRecorded(
  before: PMNode,
  after: PMNode,
  ranges: readonly (readonly [number, number])[],
  user: number,
): boolean {
  const points = new Set<number>();
  for (const [from, to] of ranges) {
    points.add(from);
    for (const doc of [before, after])
      doc.nodesBetween(from, to, (node, pos) => {
        if (node.isInline) points.add(Math.max(pos, from));
        return true;
      });
  }
  for (const point of points) {
    const was = before.resolve(point).nodeAfter;
    const now = after.resolve(point).nodeAfter;
    if (!was?.isInline || !now?.isInline) continue;
    if (!formatChangeRecorded(was.marks, now.marks, user)) return false;
  }
  return true;
}

/** Some inline node in [from, to) carries a mark of `type` by someone other than `user`. */
function othersMarkIn(doc: PMNode, from: number, to: number, type: string, user: number): boolean {
  let found = false;
  doc.nodesBetween(from, to, (node) => {
    if (found) return false;
    if (node.isInline && node.marks.some((m) => m.type.name === type && m.attrs.user !== user)) found = true;
    return !found;
  });
  return found;
}

const isFormatStep = (step: Step): step is AddMarkStep | RemoveMarkStep =>
  (step instanceof AddMarkStep || step instanceof RemoveMarkStep) &&
  (FORMATS.has(step.mark.type.name) || step.mark.type.name === 'format_change');

/**
 * The rule over a sequence of steps (a diff, an undo). Suggestion mode records a format change in
 * two or three mark steps (the record, the formatting, an emptied record taken away), so a run of
 * formatting and format-change steps is judged as a whole, where it ends: what it did must be
 * recorded in the sender's format change (`formatChangeRecorded`). Every other step is judged
 * alone by `reviewStepAllowed`.
 */
export class ReviewStepChecker {
  private run: { before: PMNode; ranges: [number, number][] } | null = null;

  constructor(
    private readonly user: number,
    private readonly may: ReviewPermissions,
  ) {}

  /** Whether `step` may follow, applied to `doc` (the document the steps before it made). */
  allows(step: Step, doc: PMNode): boolean {
    if (this.may.suggestions && isFormatStep(step)) {
      if (step.mark.type.name === 'format_change' && step.mark.attrs.user !== this.user) return false;
      this.run ??= { before: doc, ranges: [] };
      this.run.ranges.push([step.from, step.to]);
      return true;
    }
    return this.finish(doc) && reviewStepAllowed(step, doc, this.user, this.may);
  }

  /** After the last step (or before a step of another kind): `doc` is what the steps made. */
  finish(doc: PMNode): boolean {
    const run = this.run;
    this.run = null;
    return !run || formatsRecorded(run.before, doc, run.ranges, this.user);
  }
}

/** Whether a user with these permissions may send these steps, applied one after the other to `doc`. */
export function reviewStepsAllowed(
  steps: readonly Step[],
  doc: PMNode,
  user: number,
  may: ReviewPermissions,
): boolean {
  const checker = new ReviewStepChecker(user, may);
  let current = doc;
  for (const step of steps) {
    if (!checker.allows(step, current)) return false;
    const result = step.apply(current);
    if (!result.doc) return false;
    current = result.doc;
  }
  return checker.finish(current);
}

/**
 * The slice inserts only inline content carrying `user`'s insertion mark and no suggestion of
 * anybody else (or further ones of theirs): what it brings is theirs to withdraw, nothing more.
 */
function insertsOwnSuggestion(slice: Slice, user: number): boolean {
  if (slice.size === 0) return true;
  const content = flatInline(slice);
  if (!content) return false;
  let ok = true;
  content.forEach((node) => {
    if (!node.marks.some(byUser('insertion', user))) ok = false;
    if (node.marks.some((m) => TRACKED.has(m.type.name) && m.type.name !== 'insertion')) ok = false;
  });
  return ok;
}

/** The range holds only inline content carrying `user`'s insertion mark, inside one textblock. */
function removesOwnSuggestion(doc: PMNode, from: number, to: number, user: number): boolean {
  if (from === to) return true;
  const $from = doc.resolve(from);
  if (!$from.parent.inlineContent || !$from.sameParent(doc.resolve(to))) return false;
  const segments = inlineSegments(doc, from, to);
  return Boolean(segments?.every((segment) => segment.node.marks.some(byUser('insertion', user))));
}

/**
 * The block at `pos` is the user's own suggestion (inserted, or its type changed): its attributes
 * are theirs to set (the id the editor gives a new table or heading, a caption).
 */
function ownNewBlock(doc: PMNode, pos: number, user: number): boolean {
  const node = doc.nodeAt(pos);
  if (!node || node.isInline) return false;
  if (node.marks.some((m) => byUser('insertion', user)(m) || byUser('block_change', user)(m))) return true;
  // Inside a block they inserted whole (a table in a pasted list).
  const $pos = doc.resolve(pos);
  for (let depth = $pos.depth; depth > 0; depth--) {
    const around = $pos.node(depth);
    if (!recordsBoundary(around) && around.marks.some(byUser('insertion', user))) return true;
  }
  return false;
}

/**
 * Whether `step` (applying to `doc`) is what a user with these permissions may send: comment
 * anchors (removing only those of their own threads); their own insertions (inline content
 * carrying their insertion mark and no other suggestion, also taken out again), their own deletion
 * marks (never over another author's), and formatting recorded in their own format change (one
 * step alone here; a diff's runs of them: ReviewStepChecker). Accepting or rejecting others'
 * suggestions, and any untracked change, is not.
 */
export function reviewStepAllowed(step: Step, doc: PMNode, user: number, may: ReviewPermissions): boolean {
  if (step instanceof AddMarkStep || step instanceof RemoveMarkStep) {
    const name = step.mark.type.name;
    if (name === COMMENT_MARK)
      return may.comments && (step instanceof AddMarkStep || !may.othersThreads?.has(step.mark.attrs.id));
    if (!may.suggestions) return false;
    if (name === 'deletion')
      return (
        step.mark.attrs.user === user &&
        (step instanceof RemoveMarkStep || !othersMarkIn(doc, step.from, step.to, 'deletion', user))
      );
    if (isFormatStep(step)) {
      if (name === 'format_change' && step.mark.attrs.user !== user) return false;
      const result = step.apply(doc);
      return Boolean(result.doc && formatsRecorded(doc, result.doc, [[step.from, step.to]], user));
    }
    return false;
  }
  if (!may.suggestions) return false;
  if (step instanceof AddNodeMarkStep || step instanceof RemoveNodeMarkStep)
    return nodeMarkAllowed(step, doc, user);
  if (step instanceof AttrStep) return ownNewBlock(doc, step.pos, user);
  if (step instanceof ReplaceAroundStep)
    return blockChangeAllowed(step, doc, user) || structureAllowed(step, doc, user);
  if (!(step instanceof ReplaceStep)) return false;
  // The bibliography part a first citation makes, empty (its entries: the author's insertions).
  if (emptyBibliographyStep(step, doc)) return true;
  const split = splitBlockOf(step);
  if (split) return ownSplit(split, user);
  // Joining a block with the one before: only the author's own split (also undoing it).
  const joined = step.slice.size
    ? null
    : (joinedBlock(doc, step.from, step.to) ?? shallowJoinedBlock(doc, step.from, step.to));
  if (joined !== null) return Boolean(doc.nodeAt(joined)?.marks.some(byUser('insertion', user)));
  // Any other change of structure is not a tracked change (the flag is only visible in the JSON).
  if (isStructure(step)) return false;
  // Blocks: inserted as the author's suggestion, or their own inserted blocks taken out again.
  if (step.slice.size > 0 && !flatInline(step.slice))
    return onlyClosingTokens(doc, step.from, step.to) && ownInsertedSlice(step.slice, user);
  const $from = doc.resolve(step.from);
  const inOneTextblock = $from.parent.inlineContent && $from.sameParent(doc.resolve(step.to));
  if (step.from < step.to && !step.slice.size && !inOneTextblock) {
    if (removesOwnBlock(doc, step.from, step.to, user)) return true;
    if (ownInsertedSlice(doc.slice(step.from, step.to), user)) return true;
  }
  if (step.slice.size > 0) {
    const $at = doc.resolve(step.from);
    if (!$at.parent.inlineContent) return false;
  }
  return insertsOwnSuggestion(step.slice, user) && removesOwnSuggestion(doc, step.from, step.to, user);
}

// ---------------------------------------------------------------------------------------------
// Suggestion mode: turning a transaction into a tracked one.

function isStructure(step: ReplaceStep): boolean {
  return Boolean((step.toJSON() as { structure?: boolean }).structure);
}

/** A mark of `type` by `user` right before `from` or right after `to`, to extend instead of starting a new one. */
function neighbourMark(doc: PMNode, from: number, to: number, type: MarkType, user: number): Mark | null {
  const before = from > 0 ? doc.resolve(from).nodeBefore : null;
  const after = to < doc.content.size ? doc.resolve(to).nodeAfter : null;
  for (const node of [before, after]) {
    const mark = node?.marks.find((m) => m.type === type && m.attrs.user === user);
    if (mark) return mark;
  }
  return null;
}

function trackMark(schema: Schema, name: TrackedChangeMark, user: Reviewer, now: number, extra = {}): Mark {
  return schema.marks[name].create({ user: user.id, username: user.username, date: now, ...extra });
}

/**
 * Marks [from, to) as deleted by `user`; their own insertions in it are really removed. Block
 * boundaries in the range become deletion marks on the block after them (their own splits are
 * really joined again).
 */
function trackDeletion(tr: Transform, from: number, to: number, user: Reviewer, now: number): boolean {
  const segments = inlineSegments(tr.doc, from, to);
  if (!segments) return false;
  const blocks = boundariesIn(tr.doc, from, to);
  if (!segments.length && !blocks.length && !tr.doc.resolve(from).sameParent(tr.doc.resolve(to)))
    return false;
  const type = tr.doc.type.schema.marks.deletion;
  const mark =
    neighbourMark(tr.doc, from, to, type, user.id) ?? trackMark(tr.doc.type.schema, 'deletion', user, now);
  // From the end, so that removing an own insertion does not move what is still to do.
  let block = blocks.length - 1;
  const boundariesFrom = (start: number): boolean => {
    for (; block >= 0 && blocks[block] >= start; block--)
      if (!trackJoin(tr, blocks[block], mark)) return false;
    return true;
  };
  for (let index = segments.length - 1; index >= 0; index--) {
    const segment = segments[index];
    if (!boundariesFrom(segment.to)) return false;
    if (segment.node.marks.some(byUser('insertion', user.id))) tr.delete(segment.from, segment.to);
    else if (!segment.node.marks.some((m) => m.type === type)) {
      // Extend over the neighbouring segments that get the mark too (never across a block boundary).
      let start = segment.from;
      while (index > 0) {
        const previous = segments[index - 1];
        if (
          previous.to !== start ||
          previous.node.marks.some(byUser('insertion', user.id)) ||
          previous.node.marks.some((m) => m.type === type)
        )
          break;
        start = previous.from;
        index--;
      }
      tr.addMark(start, segment.to, mark);
    }
  }
  return boundariesFrom(0);
}

/** Inserts inline content at `at`, carrying the user's insertion mark (and no other suggestion marks). */
function trackInsertion(tr: Transform, at: number, content: Fragment, user: Reviewer, now: number): boolean {
  const schema = tr.doc.type.schema;
  if (!tr.doc.resolve(at).parent.inlineContent) return false;
  const mark =
    neighbourMark(tr.doc, at, at, schema.marks.insertion, user.id) ??
    trackMark(schema, 'insertion', user, now);
  const nodes: PMNode[] = [];
  content.forEach((node) => {
    const kept = node.marks.filter((m) => !TRACKED.has(m.type.name));
    nodes.push(node.mark(mark.addToSet(kept)));
  });
  return !tr.maybeStep(new ReplaceStep(at, at, new Slice(Fragment.from(nodes), 0, 0))).failed;
}

/** Adds or removes a formatting mark, recording it in the user's format_change marks. */
function trackFormat(
  tr: Transform,
  step: AddMarkStep | RemoveMarkStep,
  user: Reviewer,
  now: number,
): boolean {
  const schema = tr.doc.type.schema;
  const adding = step instanceof AddMarkStep;
  const name = step.mark.type.name;
  const segments = inlineSegments(tr.doc, step.from, step.to) ?? [];
  const emptied: Segment[] = [];
  for (const segment of segments) {
    const has = segment.node.marks.some((m) => m.type === step.mark.type);
    if (adding ? step.mark.isInSet(segment.node.marks) : !has) continue;
    const own = segment.node.marks.find(byUser('format_change', user.id));
    let before = [...((own?.attrs.before as string[]) ?? [])];
    let after = [...((own?.attrs.after as string[]) ?? [])];
    // Formatting the new mark pushes out (another link, sub for sup) is removed with it.
    if (adding)
      for (const pushed of segment.node.marks) {
        const pushedName = pushed.type.name;
        if (!FORMATS.has(pushedName) || pushed.isInSet(step.mark.addToSet(segment.node.marks))) continue;
        if (after.includes(pushedName)) after = after.filter((n) => n !== pushedName);
        else before = [...new Set([...before, pushedName])];
      }
    // A link added where one was removed is a new link (its address may differ): both stay recorded.
    const undoes = adding ? before.includes(name) && isPlainMark(step.mark) : after.includes(name);
    if (adding) {
      if (undoes) before = before.filter((n) => n !== name);
      else after = [...new Set([...after, name])];
    } else if (undoes) after = after.filter((n) => n !== name);
    else before = [...new Set([...before, name])];
    if (!before.length && !after.length) {
      // Back where it was: the record goes once the mark is changed (the server checks in order).
      if (!own) tr.addMark(segment.from, segment.to, trackMark(schema, 'format_change', user, now));
      emptied.push(segment);
    } else
      tr.addMark(segment.from, segment.to, trackMark(schema, 'format_change', user, now, { before, after }));
  }
  tr.step(
    adding
      ? new AddMarkStep(step.from, step.to, step.mark)
      : new RemoveMarkStep(step.from, step.to, step.mark),
  );
  for (const segment of emptied) {
    const own = tr.doc.nodeAt(segment.from)?.marks.find(byUser('format_change', user.id));
    if (own) tr.removeMark(segment.from, segment.to, own);
  }
  return true;
}

/**
 * Records a replacement inserting blocks (a table, a row, pasted paragraphs): what it replaces is
 * marked as deleted, the blocks go after it carrying the author's insertion (track-blocks.ts).
 */
function trackBlocks(tr: Transform, step: ReplaceStep, user: Reviewer, now: number): boolean {
  const slice = markInsertedSlice(step.slice, trackMark(tr.doc.type.schema, 'insertion', user, now));
  if (!slice) return false;
  // Only the end of the block it starts in replaced (the slice closes it again): nothing to mark.
  if (onlyClosingTokens(tr.doc, step.from, step.to))
    return !tr.maybeStep(new ReplaceStep(step.from, step.to, slice)).failed;
  const start = tr.steps.length;
  if (!trackDeletion(tr, step.from, step.to, user, now)) return false;
  let at = step.to;
  for (let index = start; index < tr.steps.length; index++) at = tr.steps[index].getMap().map(at);
  return !tr.maybeStep(new ReplaceStep(at, at, slice)).failed;
}

function trackStep(tr: Transform, step: Step, user: Reviewer, now: number): boolean {
  if (step instanceof AddMarkStep || step instanceof RemoveMarkStep) {
    const name = step.mark.type.name;
    if (name === COMMENT_MARK || TRACKED.has(name)) return !tr.maybeStep(step).failed;
    if (FORMATS.has(name)) return trackFormat(tr, step, user, now);
    return false;
  }
  if (step instanceof AddNodeMarkStep || step instanceof RemoveNodeMarkStep)
    return TRACKED.has(step.mark.type.name) && !tr.maybeStep(step).failed;
  if (step instanceof AttrStep) return ownNewBlock(tr.doc, step.pos, user.id) && !tr.maybeStep(step).failed;
  const schema = tr.doc.type.schema;
  if (step instanceof ReplaceAroundStep)
    return (
      trackBlockChange(tr, step, trackMark(schema, 'block_change', user, now)) ||
      trackWrap(tr, step, trackMark(schema, 'block_change', user, now, { before: { structure: 'wrap' } })) ||
      trackSink(tr, step, trackMark(schema, 'block_change', user, now, { before: { structure: 'sink' } })) ||
      trackLift(tr, step, trackMark(schema, 'block_change', user, now, { before: { structure: 'lift' } }))
    );
  if (!(step instanceof ReplaceStep)) return false;
  if (splitBlockOf(step)) return trackSplit(tr, step, trackMark(schema, 'insertion', user, now));
  // A first citation's bibliography part: made empty, the cited entries suggested in it.
  if (trackNewBibliography(tr, step, trackMark(schema, 'insertion', user, now))) return true;
  // A join of two blocks is recorded as the deletion of the boundary between them.
  const shallow = step.slice.size ? null : shallowJoinedBlock(tr.doc, step.from, step.to);
  if (isStructure(step) && shallow !== null) {
    const levels = (step.to - step.from) / 2;
    return trackJoin(tr, shallow, trackMark(schema, 'deletion', user, now, { join: levels }));
  }
  if (isStructure(step) && (step.slice.size || joinedBlock(tr.doc, step.from, step.to) === null))
    return false;
  const content = step.slice.size ? flatInline(step.slice) : Fragment.empty;
  if (!content) return trackBlocks(tr, step, user, now);
  const whole = content.size ? null : wholeBlocksIn(tr.doc, step.from, step.to);
  if (whole) return trackWholeDeletion(tr, whole, trackMark(schema, 'deletion', user, now));
  const start = tr.steps.length;
  if (step.from < step.to && !trackDeletion(tr, step.from, step.to, user, now)) return false;
  if (!content.size) return true;
  // Typed over a selection: the new text goes after the text marked as deleted.
  let at = step.to;
  for (let index = start; index < tr.steps.length; index++) at = tr.steps[index].getMap().map(at);
  return trackInsertion(tr, at, content, user, now);
}

/**
 * Records `steps` (each made on the document the one before it left) on `out` as suggestions, or
 * null when one of them cannot be a suggestion. Returns the mapping from the steps' document into
 * `out`'s.
 */
function trackChain(out: Transform, steps: readonly Step[], user: Reviewer, now: number): Mapping | null {
  // A position after step i maps back through the inverses of steps i..0, then on through what
  // was made in `out`: every inverse first (the last step's leading), `out`'s steps appended.
  const mapping = new Mapping();
  for (let index = steps.length - 1; index >= 0; index--) mapping.appendMap(steps[index].getMap().invert());
  for (let index = 0; index < steps.length; index++) {
    const mapped = steps[index].map(mapping.slice(steps.length - index));
    if (!mapped) continue;
    const made = suggestStep(out, mapped, user, now);
    if (!made) return null;
    appendMade(mapping, mapped, made, steps.length - 1 - index);
  }
  return mapping;
}

/** Records one step on `out` as the user's suggestion: the steps made, or null (nothing made). */
export function suggestStep(out: Transform, step: Step, user: Reviewer, now = Date.now()): Step[] | null {
  // Tried on a copy: a step refused half-way must leave nothing behind.
  const attempt = new Transform(out.doc);
  if (!trackStep(attempt, step, user, now)) return null;
  for (const made of attempt.steps) out.step(made);
  return attempt.steps;
}

/**
 * Appends to a rebase mapping what was made for `step`. When that changes the same ranges (the
 * step itself, or a tracked insertion: the same text with marks) it mirrors the step's inverse at
 * index `inverse`, so that a position inside what the step inserted maps back exactly: a later
 * step writing inside it (a typo mended) lands where it was written, not at its edge.
 */
export function appendMade(mapping: Mapping, step: Step, made: readonly Step[], inverse: number): void {
  if (made.length === 1 && sameRanges(made[0].getMap(), step.getMap()))
    mapping.appendMap(made[0].getMap(), inverse);
  else for (const one of made) mapping.appendMap(one.getMap());
}

function sameRanges(a: StepMap, b: StepMap): boolean {
  const ranges = (map: StepMap) => {
    const out: number[] = [];
    map.forEach((oldStart, oldEnd, newStart, newEnd) => {
      out.push(oldStart, oldEnd, newStart, newEnd);
    });
    return out.join(',');
  };
  return ranges(a) === ranges(b);
}

/** Suggests inline content at `at` (a position in a textblock) as the user's insertion. */
export function suggestInsertion(
  tr: Transform,
  at: number,
  content: Fragment,
  user: Reviewer,
  now = Date.now(),
): boolean {
  return trackInsertion(tr, at, content, user, now);
}

/**
 * The items a transaction outdents, when it is exactly what liftListItem makes of `state` for
 * items of a nested list (several steps: the items after them become their children first).
 */
function outdentedItems(tr: Transaction, state: EditorState): number[] | null {
  if (!tr.steps.every((step) => step instanceof ReplaceAroundStep)) return null;
  const type = state.schema.nodes.list_item;
  const { $from, $to } = state.selection;
  const range = $from.blockRange($to, (node) => node.childCount > 0 && node.firstChild?.type === type);
  if (!range || range.depth < 2 || $from.node(range.depth - 1).type !== type) return null;
  let made: Transaction | null = null;
  liftListItem(type)(state, (lifted) => {
    made = lifted;
  });
  if (!(made as Transaction | null)?.doc.eq(tr.doc)) return null;
  const items: number[] = [];
  for (let index = range.startIndex, pos = range.start; index < range.endIndex; index++) {
    items.push(pos);
    pos += range.parent.child(index).nodeSize;
  }
  return items;
}

/**
 * When `tr` only removes whole table rows, the cells spanning them mended as prosemirror-tables'
 * deleteRow mends them: those rows' positions in `doc`. Their deletion is then recorded on the rows
 * alone and the spans wait for the decision (table-rows.ts): step by step, the cell moved down from
 * a deleted row would be a suggested cell beside the one still spanning down, a table that no
 * longer fits its grid.
 */
function removedTableRows(tr: Transaction, doc: PMNode): number[] | null {
  const rows = new Set<number>();
  for (let index = 0; index < tr.steps.length; index++) {
    const step = tr.steps[index];
    if (!(step instanceof ReplaceStep) || step.slice.size) continue;
    // The step's positions in `doc`: back through the steps before it.
    const back = new Mapping(tr.mapping.maps.slice(0, index)).invert();
    const whole = wholeBlocksIn(doc, back.map(step.from, 1), back.map(step.to, -1));
    if (!whole?.every((pos) => doc.nodeAt(pos)?.type.spec.tableRole === 'row')) return null;
    for (const pos of whole) rows.add(pos);
  }
  if (!rows.size) return null;
  const sorted = [...rows].sort((a, b) => a - b);
  const expected = new Transform(doc);
  for (const pos of [...sorted].reverse()) if (!removeTableRow(expected, pos)) return null;
  return expected.doc.eq(tr.doc) ? sorted : null;
}

/**
 * The tracked version of a local transaction in suggestion mode, or null when it cannot be
 * recorded as a suggestion (it must then not be applied). Transactions that do not change the
 * document, or carry UNTRACKED, come back unchanged.
 */
export function trackTransaction(
  tr: Transaction,
  state: EditorState,
  user: Reviewer,
  now = Date.now(),
): Transaction | null {
  if (!tr.docChanged || tr.getMeta(UNTRACKED)) return tr;
  const out = state.tr;
  const outdented = outdentedItems(tr, state);
  if (outdented) {
    const record = trackMark(state.schema, 'block_change', user, now, { before: { structure: 'outdent' } });
    if (!trackOutdent(out, outdented, record)) return null;
    return out.setSelection(state.selection.map(out.doc, out.mapping)).scrollIntoView();
  }
  const rows = removedTableRows(tr, state.doc);
  if (rows) {
    if (!trackWholeDeletion(out, rows, trackMark(state.schema, 'deletion', user, now))) return null;
    return out.setSelection(state.selection.map(out.doc, out.mapping)).scrollIntoView();
  }
  const mapping = trackChain(out, tr.steps, user, now);
  if (!mapping) return null;
  // Backspace leaves the caret before the text it marked, Delete and typing after it.
  const first = tr.steps[0];
  const backward =
    tr.steps.length === 1 &&
    first instanceof ReplaceStep &&
    first.slice.size === 0 &&
    state.selection.empty &&
    state.selection.head === first.to;
  const selection = tr.selection;
  if (selection instanceof TextSelection && selection.empty) {
    const pos = Math.min(mapping.map(selection.head, backward ? -1 : 1), out.doc.content.size);
    out.setSelection(TextSelection.near(out.doc.resolve(pos)));
  } else out.setSelection(selection.map(out.doc, mapping));
  for (const key of ['paste', 'uiEvent', 'addToHistory', 'inputType'])
    if (tr.getMeta(key) !== undefined) out.setMeta(key, tr.getMeta(key));
  if (tr.storedMarksSet) out.setStoredMarks(tr.storedMarks);
  return out.scrollIntoView();
}

// ---------------------------------------------------------------------------------------------
// The changes in a document, accepting and rejecting them.

export interface TrackedChange {
  type: TrackedChangeMark;
  from: number;
  to: number;
  mark: Mark;
  user: number;
  username: string;
  date: number;
  /** Recorded on the block at `from` (a split, join or type change; a table, a list), not on text. */
  block?: boolean;
  /** The type of that block. */
  node?: string;
  /** That block is inserted or deleted whole (a table, a row, a list), not split off or joined. */
  whole?: boolean;
}

function changeOf(mark: Mark, from: number, to: number): TrackedChange {
  return {
    type: mark.type.name as TrackedChangeMark,
    from,
    to,
    mark,
    user: mark.attrs.user as number,
    username: mark.attrs.username as string,
    date: mark.attrs.date as number,
  };
}

/**
 * Every tracked change, in document order; neighbouring text with the same mark is one change.
 * With a range (whole textblocks), the changes in it and on the blocks around it.
 */
export function trackedChanges(doc: PMNode, from = 0, to = doc.content.size): TrackedChange[] {
  const changes: TrackedChange[] = [];
  const open = new Map<string, TrackedChange>();
  doc.nodesBetween(from, to, (node, pos) => {
    const end = pos + node.nodeSize;
    if (!node.isInline) {
      // A suggested entry of the bibliography goes with the citations of it (track-bibliography.ts).
      if (decidedWithCitations(node)) return false;
      for (const mark of node.marks)
        if (TRACKED.has(mark.type.name))
          changes.push({
            ...changeOf(mark, pos, end),
            block: true,
            node: node.type.name,
            whole: !recordsBoundary(node),
          });
      return true;
    }
    for (const mark of node.marks) {
      if (!TRACKED.has(mark.type.name)) continue;
      const key = mark.type.name;
      const last = open.get(key);
      if (last && last.to === pos && last.mark.eq(mark)) last.to = end;
      else {
        const change = changeOf(mark, pos, end);
        changes.push(change);
        open.set(key, change);
      }
    }
    // Text inside an inline node (a note) is listed on its own.
    return true;
  });
  return changes.sort((a, b) => a.from - b.from || a.to - b.to);
}

/**
 * Changes as listed from an earlier state of the document (review cards drawn before the last
 * edits), found in `doc` now: the same mark (author, time, kind) on text or a block, the nearest
 * to where it was when more than one run carries it. Those gone (decided meanwhile) are left out.
 * Deciding the old positions instead would, after edits before them, touch the wrong text.
 */
export function currentChanges(doc: PMNode, listed: readonly TrackedChange[]): TrackedChange[] {
  const identity = (change: TrackedChange) => `${change.block ? 'b' : 't'}${JSON.stringify(change.mark)}`;
  const now = new Map<string, TrackedChange[]>();
  for (const change of trackedChanges(doc)) {
    const key = identity(change);
    now.set(key, [...(now.get(key) ?? []), change]);
  }
  return listed.flatMap((change) => {
    const candidates = now.get(identity(change)) ?? [];
    let best: TrackedChange | undefined;
    for (const candidate of candidates)
      if (!best || Math.abs(candidate.from - change.from) < Math.abs(best.from - change.from))
        best = candidate;
    return best ? [best] : [];
  });
}

/** The change as it is in `doc` now (still there, same mark), after mapping its positions. */
function locate(doc: PMNode, change: TrackedChange, mapping: Mapping): { from: number; to: number } | null {
  const from = mapping.map(change.from, 1);
  const to = mapping.map(change.to, -1);
  if (from >= to) return null;
  if (change.block) return change.mark.isInSet(doc.nodeAt(from)?.marks ?? []) ? { from, to } : null;
  let present = false;
  doc.nodesBetween(from, to, (node) => {
    if (node.isInline && change.mark.isInSet(node.marks)) present = true;
    return !present;
  });
  return present ? { from, to } : null;
}

function decide(
  tr: Transform,
  change: TrackedChange,
  accept: boolean,
  range: { from: number; to: number },
): void {
  const { from, to } = range;
  if (change.block) {
    decideBlock(tr, from, change.mark, accept);
    return;
  }
  const schema = tr.doc.type.schema;
  const removes = (change.type === 'insertion') !== accept;
  if (change.type === 'format_change') {
    if (!accept) {
      for (const name of change.mark.attrs.after as string[])
        if (schema.marks[name]) tr.removeMark(from, to, schema.marks[name]);
      // A link's address was not recorded: it cannot come back.
      for (const name of change.mark.attrs.before as string[])
        if (schema.marks[name] && name !== 'link') tr.addMark(from, to, schema.marks[name].create());
    }
    tr.removeMark(from, to, change.mark);
  } else if (change.type === 'deletion' ? accept : removes) tr.delete(from, to);
  else tr.removeMark(from, to, change.mark);
}

const CELLS = new Set(['table_cell', 'table_header']);

/** Whether the change is recorded on a table cell (a column inserted or deleted, cell by cell). */
export function isCellChange(change: TrackedChange): boolean {
  return Boolean(change.block && change.node && CELLS.has(change.node));
}

/**
 * The changes with every cell of a column change: a column is inserted or deleted as one cell per
 * row carrying the same mark, and decided together (a table with rows of different lengths in
 * between would be patched up by the table plugin).
 */
function withWholeColumns(doc: PMNode, changes: readonly TrackedChange[]): readonly TrackedChange[] {
  if (!changes.some(isCellChange)) return changes;
  const out = new Map(
    changes.map((change) => [`${change.block ? 'b' : 'i'}${change.from}${change.type}`, change]),
  );
  for (const change of changes) {
    if (!isCellChange(change) || change.from > doc.content.size) continue;
    const $cell = doc.resolve(change.from);
    if ($cell.depth < 2) continue;
    const tableStart = $cell.start($cell.depth - 1);
    $cell.node($cell.depth - 1).descendants((node, offset) => {
      if (!CELLS.has(node.type.name)) return true;
      const pos = tableStart + offset;
      if (change.mark.isInSet(node.marks))
        out.set(`b${pos}${change.type}`, { ...change, from: pos, to: pos + node.nodeSize });
      return false;
    });
  }
  return [...out.values()];
}

/**
 * Accepts or rejects changes (e.g. one, all, or all of one author). Returns how many were still
 * there; a change someone else decided meanwhile is skipped (the caller tells the user).
 */
export function decideChanges(tr: Transaction, changes: readonly TrackedChange[], accept: boolean): number {
  let done = 0;
  changes = withWholeColumns(tr.doc, changes);
  // Whole blocks first (a paragraph split off after a rejected table then joins the one before
  // the table), lists made or lifted last (after the items split in them), each from the end:
  // deletions then do not move the changes still to do.
  const first = (change: TrackedChange) => {
    if (change.type === 'block_change' && recordedStructure(change.mark)) return 2;
    const node = change.block ? tr.doc.nodeAt(change.from) : null;
    return node && !recordsBoundary(node) ? 0 : 1;
  };
  const ordered = [...changes].sort((a, b) => first(a) - first(b) || b.from - a.from);
  const start = tr.steps.length;
  for (const change of ordered) {
    const mapping = tr.mapping.slice(start);
    const range = locate(tr.doc, change, mapping);
    if (!range) continue;
    decide(tr, change, accept, range);
    done++;
  }
  if (done) settleSuggestedEntries(tr);
  tr.setMeta(UNTRACKED, true);
  return done;
}

/**
 * The document as it reads once every suggestion in it is accepted, by the same decisions the
 * review margin makes: the exports that show the accepted text (EPUB, PDF, LaTeX, JATS) write it.
 */
export function acceptedDocument(doc: PMNode): PMNode {
  const changes = trackedChanges(doc);
  if (!changes.length) return doc;
  const tr = EditorState.create({ doc }).tr;
  decideChanges(tr, changes, true);
  return tr.doc;
}

// ---------------------------------------------------------------------------------------------
// Comment anchors.

export interface CommentAnchor {
  id: number;
  from: number;
  to: number;
}

/** Where each comment thread is anchored (first to last marked position), in document order. */
export function commentAnchors(doc: PMNode): CommentAnchor[] {
  const anchors = new Map<number, CommentAnchor>();
  doc.descendants((node, pos) => {
    if (!node.isInline) return true;
    for (const mark of node.marks) {
      if (mark.type.name !== COMMENT_MARK) continue;
      const id = mark.attrs.id as number;
      const anchor = anchors.get(id);
      if (anchor) anchor.to = pos + node.nodeSize;
      else anchors.set(id, { id, from: pos, to: pos + node.nodeSize });
    }
    return true;
  });
  return [...anchors.values()].sort((a, b) => a.from - b.from || a.id - b.id);
}

/** Anchors a new thread on [from, to). */
export function addCommentAnchor(tr: Transaction, from: number, to: number, id: number): Transaction {
  return tr.addMark(from, to, tr.doc.type.schema.marks[COMMENT_MARK].create({ id })).setMeta(UNTRACKED, true);
}

/** Removes a thread's anchor everywhere. */
export function removeCommentAnchor(tr: Transaction, id: number): Transaction {
  const mark = tr.doc.type.schema.marks[COMMENT_MARK].create({ id });
  for (const anchor of commentAnchors(tr.doc))
    if (anchor.id === id) tr.removeMark(anchor.from, anchor.to, mark);
  return tr.setMeta(UNTRACKED, true);
}

/** A new thread id: random, so that two co-authors anchoring at once never collide in practice. */
export function newThreadId(random: () => number = Math.random): number {
  return 1 + Math.floor(random() * 2_147_483_646);
}
