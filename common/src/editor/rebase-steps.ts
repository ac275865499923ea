import type { Node as PMNode } from 'prosemirror-model';
import { Mapping, type Step } from 'prosemirror-transform';

/**
 * Maps a late diff's steps over the steps committed since the version it was made on, as
 * prosemirror-collab's client rebases its unconfirmed steps over steps it receives: each step is
 * mapped through the inverse of the diff's earlier steps, the committed steps and the earlier
 * steps as already rebased (mirrored, so positions inside the sender's own insertions survive),
 * and applied to the current document; a step that no longer maps or applies (its range was
 * deleted) is dropped, exactly where the client's own rebase drops it. So the sender, which gets
 * the committed steps before its confirmation and rebases over them itself, holds the same steps
 * as the server committed, and the confirmation needs no second round trip.
 *
 * `current` is the document after `committedSince`. Returns the steps to commit, in order.
 */
export function rebaseSteps(
  steps: readonly Step[],
  committedSince: readonly Step[],
  current: PMNode,
): Step[] {
  const mapping = new Mapping();
  for (let index = steps.length - 1; index >= 0; index--) mapping.appendMap(steps[index].getMap().invert());
  for (const step of committedSince) mapping.appendMap(step.getMap());
  const rebased: Step[] = [];
  let doc = current;
  for (let index = 0, mapFrom = steps.length; index < steps.length; index++) {
    const mapped = steps[index].map(mapping.slice(mapFrom));
    mapFrom--;
    if (!mapped) continue;
    const result = mapped.apply(doc);
    if (!result.doc) continue;
    doc = result.doc;
    // The rebased step mirrors the inverse of the original one (index mapFrom in the mapping).
    mapping.appendMap(mapped.getMap(), mapFrom);
    rebased.push(mapped);
  }
  return rebased;
}
