import {
  appendMade,
  type Reviewer,
  suggestInsertion,
  suggestStep,
} from '@scriptorium/common/editor/track-changes';
import { Fragment, type Node as PMNode } from 'prosemirror-model';
import { TextSelection } from 'prosemirror-state';
import { Mapping, type Step, type Transform } from 'prosemirror-transform';

/**
 * Offline work after a large divergence (issue 20): instead of rebasing our steps into the
 * co-authors' version as if they had been written there, they are laid on top of it as
 * suggestions (tracked changes, issue 18) for anyone with the right to accept or reject them.
 * A step the rebase cannot place (the co-authors deleted what it changed) is not dropped either:
 * the text it left in our offline version is suggested again where it stood.
 */

export interface OfflineSuggestions {
  /** How many of our steps could not be placed (their text is suggested again). */
  dropped: number;
  /** Where the caret, at `head` in our offline document, stands in `tr`'s. */
  head: number;
}

/**
 * Lays `local` (our steps, made on the document `remote` started from, which led to `offline`) on
 * `tr`, whose document is the co-authors' version (after `remote`). The rebase is
 * prosemirror-collab's (every inverse of ours, theirs, then ours mapped one by one), except that
 * each of ours is made as a suggestion, and what cannot be placed is kept account of.
 */
export function suggestOfflineWork(
  tr: Transform,
  offline: PMNode,
  local: readonly Step[],
  remote: readonly Step[],
  user: Reviewer,
  head: number,
  now = Date.now(),
): OfflineSuggestions {
  const mapping = new Mapping();
  for (let index = local.length - 1; index >= 0; index--) mapping.appendMap(local[index].getMap().invert());
  for (const step of remote) mapping.appendMap(step.getMap());
  const localMaps = new Mapping(local.map((step) => step.getMap()));
  const lost: Placed[] = [];
  let dropped = 0;
  for (let index = 0, mapFrom = local.length; index < local.length; index++) {
    const step = local[index];
    const toOurs = mapping.slice(mapFrom);
    mapFrom--;
    const mapped = step.map(toOurs);
    // What cannot be a suggestion (a table, a list) is made as it is.
    const made =
      mapped && (suggestStep(tr, mapped, user, now) ?? (tr.maybeStep(mapped).failed ? null : [mapped]));
    if (mapped && made) {
      appendMade(mapping, mapped, made, mapFrom);
      continue;
    }
    dropped++;
    const range = changedRange(step);
    if (!range) continue;
    // What the step left, as it reads in our offline version (later steps may have changed it).
    const later = localMaps.slice(index + 1);
    const from = later.map(range.from, 1);
    const to = later.map(range.to, -1);
    if (to > from) lost.push({ at: toOurs.map(range.from, -1), made: tr.steps.length, from, to });
  }
  const placed = tr.steps.length;
  for (const { at, made, from, to } of mergeRanges(lost)) {
    const content = inlineText(offline, from, to);
    if (!content.size) continue;
    const $pos = tr.doc.resolve(Math.min(tr.mapping.slice(made).map(at, -1), tr.doc.content.size));
    const inTextblock = $pos.parent.inlineContent
      ? $pos.pos
      : (TextSelection.findFrom($pos, 1, true) ?? TextSelection.findFrom($pos, -1, true))?.from;
    if (inTextblock !== undefined) suggestInsertion(tr, inTextblock, content, user, now);
  }
  const caret = tr.mapping.slice(placed).map(mapping.map(head));
  return { dropped, head: Math.min(caret, tr.doc.content.size) };
}

interface Placed {
  /** Where it stood, in `tr`'s document after `made` steps. */
  at: number;
  made: number;
  /** Its text in our offline document. */
  from: number;
  to: number;
}

/** The range a step changed, in the document it produced; null for steps without one. */
function changedRange(step: Step): { from: number; to: number } | null {
  const { from, to } = step as unknown as { from?: unknown; to?: unknown };
  if (typeof from !== 'number' || typeof to !== 'number') return null;
  return { from, to: step.getMap().map(to, 1) };
}

/** Overlapping ranges become one, placed where the first of them stood. */
function mergeRanges(ranges: readonly Placed[]): Placed[] {
  const sorted = [...ranges].sort((a, b) => a.from - b.from || a.made - b.made);
  const merged: Placed[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.from <= last.to) last.to = Math.max(last.to, range.to);
    else merged.push({ ...range });
  }
  return merged;
}

/** The inline content of [from, to), textblock by textblock, joined by spaces. */
function inlineText(doc: PMNode, from: number, to: number): Fragment {
  const parts: PMNode[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    if (!node.isTextblock) return true;
    const start = pos + 1;
    const cut = node.content.cut(
      Math.max(from, start) - start,
      Math.min(to, start + node.content.size) - start,
    );
    if (cut.size) {
      if (parts.length) parts.push(doc.type.schema.text(' '));
      cut.forEach((child) => {
        parts.push(child);
      });
    }
    return false;
  });
  return Fragment.from(parts);
}
