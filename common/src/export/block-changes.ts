import type { Mark, Node as PMNode } from 'prosemirror-model';
import { recordsBoundary } from '../editor/track-blocks';

/**
 * Tracked changes recorded on blocks (issue 18, editor/track-blocks.ts) as the exports write them.
 * Two kinds:
 *
 * - A whole block (a table, row, cell, list, quotation, figure) carrying `insertion`/`deletion`:
 *   everything in it is inserted or deleted. Its text carries the insertion itself, not the
 *   deletion: `whole` gives the marks its content inherits.
 * - A textblock or list item carrying them records the boundary before it (a split suggested, a
 *   join suggested): in the office formats that is the paragraph mark ending the textblock it
 *   would be joined with (as Word records Enter: the paragraph mark before the new paragraph is
 *   the inserted one), given by `breakAfter`. An inserted block with nothing to join with (the
 *   first in its container, one after a table: rejecting removes it) counts as a whole block; such
 *   a deletion records nothing.
 *
 * A join of list items that keeps their paragraphs (`join` above the text: Backspace at the start
 * of an item) has no paragraph mark to carry it: the item's first paragraph stops being a list
 * item of its own and goes on the item before. `aboveText` gives it (and the split that made an
 * item of a paragraph the same way), for the formats that record it as a change of the
 * paragraph's numbering.
 */

/** The insertion and deletion marks that say something (an approved insertion does not). */
export function changeMarks(marks: readonly Mark[]): Mark[] {
  return marks.filter(
    (mark) => mark.type.name === 'deletion' || (mark.type.name === 'insertion' && !mark.attrs.approved),
  );
}

/** `marks` with each of `inherited` whose type they lack (a deleted row's text is deleted). */
export function withInherited(marks: readonly Mark[], inherited: readonly Mark[]): readonly Mark[] {
  let out = marks;
  for (const mark of inherited) if (!mark.type.isInSet(out)) out = mark.addToSet(out);
  return out;
}

/** The textblock the block after `before` would be joined with (both descended as far as they go together). */
function joinTarget(before: PMNode, after: PMNode): PMNode | null {
  let a: PMNode | null = before;
  let b: PMNode | null = after;
  while (a && b && !a.isTextblock && !b.isTextblock) {
    if (a.isLeaf || b.isLeaf) return null;
    a = a.lastChild;
    b = b.firstChild;
  }
  return a?.isTextblock && b?.isTextblock ? a : null;
}

/** Whether a mark on a block records a join or split only part of the way down (list items merged). */
function shallow(mark: Mark, before: PMNode, after: PMNode): boolean {
  const levels = Number(mark.attrs.join ?? 0);
  if (levels <= 0) return false;
  let depth = 1;
  for (let a = before, b = after; !a.isTextblock && !b.isTextblock && a.lastChild && b.firstChild; depth++) {
    a = a.lastChild;
    b = b.firstChild;
  }
  return levels < depth;
}

/** A suggested split or join between two textblocks: the first one's paragraph mark, changed. */
export interface BreakChange {
  /** The sibling block that ends in `last` (a list item, the paragraph itself). */
  before: PMNode;
  /** The textblock the paragraph mark ends, and the one after it. */
  last: PMNode;
  next: PMNode;
  /** The sibling block after `before`, whose marks record the change (`next` or a block around it). */
  after: PMNode;
  marks: Mark[];
}

function firstTextblock(node: PMNode): PMNode {
  let inner = node;
  while (!inner.isTextblock && inner.firstChild) inner = inner.firstChild;
  return inner;
}

export class BlockChanges {
  private readonly breaks = new Map<PMNode, Mark[]>();
  private readonly pairs: BreakChange[] = [];
  /** Blocks inserted with nothing before them to join with (first in their container, after a table). */
  private readonly alone = new Set<PMNode>();
  private readonly scanned = new Set<PMNode>();
  private readonly above = new Map<PMNode, Mark[]>();

  /** Reads the boundary changes among `parent`'s children; call before writing them. */
  scan(parent: PMNode): void {
    if (this.scanned.has(parent)) return;
    this.scanned.add(parent);
    // The block before, passing over whole blocks inserted or deleted with the change (a table, a
    // list pasted between two paragraphs): the split or join after them is that block's mark, as
    // Word has it ("one¶ [the pasted list] five" pasted into "left|right": "leftone¶" is new).
    let before: PMNode | null = null;
    parent.forEach((node) => {
      const marks = node.isInline || !recordsBoundary(node) ? [] : changeMarks(node.marks);
      if (!node.isInline && !recordsBoundary(node) && changeMarks(node.marks).length) return;
      if (marks.length) {
        const target = before && joinTarget(before, node);
        if (before && target) {
          const prior = before;
          const kept = marks.filter((mark) => !shallow(mark, prior, node));
          const above = marks.filter((mark) => shallow(mark, prior, node));
          if (above.length) this.above.set(node, above);
          if (kept.length) {
            this.breaks.set(target, [...(this.breaks.get(target) ?? []), ...kept]);
            this.pairs.push({
              before: prior,
              last: target,
              next: firstTextblock(node),
              after: node,
              marks: kept,
            });
          }
        } else if (marks.some((mark) => mark.type.name === 'insertion')) this.alone.add(node);
      }
      before = node;
    });
  }

  /** The suggested joins and splits above the text recorded on this block (see above). */
  aboveText(node: PMNode): Mark[] {
    return this.above.get(node) ?? [];
  }

  /** The changes of the paragraph mark ending this textblock (a suggested split or join after it). */
  breakAfter(textblock: PMNode): Mark[] {
    return this.breaks.get(textblock) ?? [];
  }

  /** The changed breaks after `textblock` (at most one per kind) and the textblock each leads to. */
  breakChangeAfter(textblock: PMNode): BreakChange | undefined {
    return this.pairs.find((pair) => pair.last === textblock);
  }

  /**
   * The suggested join whose first block is deleted whole with it (its text all deleted, as
   * deleting a whole list item or paragraph records it): that block is gone once accepted.
   */
  deletedBefore(node: PMNode): BreakChange | undefined {
    return this.pairs.find(
      (pair) =>
        pair.before === node &&
        pair.marks.some((mark) => mark.type.name === 'deletion') &&
        !keptWhenAccepted(node),
    );
  }

  /** The changes of the whole block that everything in it inherits (see above); none for most blocks. */
  whole(node: PMNode): Mark[] {
    if (node.isInline) return [];
    if (!recordsBoundary(node)) return changeMarks(node.marks);
    return this.alone.has(node)
      ? changeMarks(node.marks).filter((mark) => mark.type.name === 'insertion')
      : [];
  }
}

/**
 * What a block reads as once every suggestion is accepted, for the formats that show that (EPUB,
 * PDF, LaTeX, JATS): false for a whole block suggested deleted, and for a textblock or list item
 * whose text is all suggested deleted (accepting joins what is left of it, nothing, with the block
 * after or leaves it empty).
 */
export function keptWhenAccepted(node: PMNode): boolean {
  if (node.isInline) return true;
  if (!recordsBoundary(node)) return !node.marks.some((mark) => mark.type.name === 'deletion');
  let inline = 0;
  let deleted = 0;
  node.descendants((child) => {
    if (!child.isInline) return true;
    inline++;
    if (child.marks.some((mark) => mark.type.name === 'deletion')) deleted++;
    return false;
  });
  return inline === 0 || deleted < inline;
}
