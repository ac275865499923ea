import type { Step } from 'prosemirror-transform';

/**
 * Folds a run of steps into fewer steps that make the same change: neighbouring steps that
 * ProseMirror can merge (typing: one insertion after another, backspacing) become one
 * (`Step.merge`). Offline work of hours is thousands of keystrokes; rebasing them one by one over
 * the co-authors' steps costs local x remote step mappings, so the queue is folded first.
 */
export function compressSteps(steps: readonly Step[]): Step[] {
  const out: Step[] = [];
  for (const step of steps) {
    const last = out[out.length - 1];
    const merged = last?.merge(step);
    if (merged) out[out.length - 1] = merged;
    else out.push(step);
  }
  return out;
}
