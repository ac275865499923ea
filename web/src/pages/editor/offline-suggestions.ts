import { type Reviewer, suggestInsertion, suggestSteps } from '@scriptorium/common/editor/track-changes';
import { Fragment, type Node as PMNode } from 'prosemirror-model';
import { TextSelection, type Transaction } from 'prosemirror-state';
import { Mapping, type Step, Transform } from 'prosemirror-transform';

/**
 * Offline work after a large divergence (issue 20): instead of rebasing our steps into the
 * co-authors' version as if they had been written there, they are laid on top of it as
 * suggestions (tracked changes, issue 18) for anyone with the right to accept or reject them.
 * A step the rebase cannot place (the co-authors deleted what it changed) is not dropped either:
 * the text it left in our offline version is suggested again where it stood.
 */

export interface OfflineRebase {
  /** Our steps over the co-authors', in order, each on the document the one before left. */
  steps: Step[];
  /** How many of our steps could not be placed. */
  dropped: number;
  /** The text of the dropped steps, from our offline version, and where it stood (rebased). */
  restore: { at: number; content: Fragment }[];
  /** From our offline document into the rebased one. */
  mapping: Mapping;
}

/**
 * Rebases `local` (made on the document `remote` started from, leading to `offline`) over
 * `remote`, which led to `remoteDoc`: the same mapping prosemirror-collab's rebase uses, but
 * keeping account of what it cannot place.
 */
export function rebaseOffline(
  offline: PMNode,
  local: readonly Step[],
  remote: readonly Step[],
  remoteDoc: PMNode,
): OfflineRebase {
  const mapping = new Mapping();
  for (let index = local.length - 1; index >= 0; index--) mapping.appendMap(local[index].getMap().invert());
  for (const step of remote) mapping.appendMap(step.getMap());
  const localMaps = new Mapping(local.map((step) => step.getMap()));
  const rebased = new Transform(remoteDoc);
  const placed: { at: number; from: number; to: number; made: number }[] = [];
  let dropped = 0;
  for (let index = 0, mapFrom = local.length; index < local.length; index++) {
    const step = local[index];
    const toRebased = mapping.slice(mapFrom);
    mapFrom--;
    const mapped = step.map(toRebased);
    if (mapped && !rebased.maybeStep(mapped).failed) {
      mapping.appendMap(mapped.getMap(), mapFrom);
      continue;
    }
    dropped++;
    const range = changedRange(step);
    if (!range) continue;
    // What the step left, as it reads in our offline version (later steps may have changed it).
    const later = localMaps.slice(index + 1);
    const from = later.map(range.from, 1);
    const to = later.map(range.to, -1);
    if (to > from) placed.push({ at: toRebased.map(range.from, -1), from, to, made: rebased.steps.length });
  }
  const restore: OfflineRebase['restore'] = [];
  for (const { at, from, to, made } of mergeRanges(placed)) {
    const content = inlineText(offline, from, to);
    if (content.size) restore.push({ at: rebased.mapping.slice(made).map(at, -1), content });
  }
  return { steps: rebased.steps, dropped, restore, mapping };
}

/**
 * Lays the rebased offline work on `tr` (whose document is the co-authors' version) as the user's
 * suggestions, and the dropped steps' text as suggested insertions. Returns `tr`'s position for
 * `head`, a position in our offline document.
 */
export function suggestOfflineWork(
  tr: Transaction,
  rebase: OfflineRebase,
  user: Reviewer,
  head: number,
  now = Date.now(),
): number {
  const { mapping } = suggestSteps(tr, rebase.steps, user, now);
  const suggested = tr.steps.length;
  for (const { at, content } of rebase.restore) {
    const pos = tr.mapping.slice(suggested).map(mapping.map(at, -1), -1);
    const $pos = tr.doc.resolve(Math.min(pos, tr.doc.content.size));
    const place = $pos.parent.inlineContent
      ? $pos.pos
      : (TextSelection.findFrom($pos, 1, true) ?? TextSelection.findFrom($pos, -1, true))?.from;
    if (place !== undefined) suggestInsertion(tr, place, content, user, now);
  }
  const offlineHead = tr.mapping.slice(suggested).map(mapping.map(rebase.mapping.map(head)));
  return Math.min(offlineHead, tr.doc.content.size);
}

/** The range a step changed, in the document it produced; null for steps without one. */
function changedRange(step: Step): { from: number; to: number } | null {
  const { from, to } = step as unknown as { from?: unknown; to?: unknown };
  if (typeof from !== 'number' || typeof to !== 'number') return null;
  return { from, to: step.getMap().map(to, 1) };
}

/** Overlapping ranges become one, placed where the first of them stood. */
function mergeRanges<T extends { from: number; to: number; made: number }>(ranges: T[]): T[] {
  const sorted = [...ranges].sort((a, b) => a.from - b.from || a.made - b.made);
  const merged: T[] = [];
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
