/** The middle value (the upper one of the two middle values of an even count). */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** The p-th percentile (0 to 100) of the values: the value at that rank, no interpolation. */
export function percentile(values: readonly number[], p: number): number {
  return percentiles(values)(p);
}

/** The percentiles of the values, sorted once, as `pct(95)`; NaN of no values. */
export function percentiles(values: readonly number[]): (p: number) => number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return () => Number.NaN;
  return (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The median wall time, in ms, of `runs` runs of the work, one after the other. */
export async function medianTime(work: () => unknown, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * A figure's goal beside it, and whether this run met it: " (goal >= 0.6: met)". The goals are
 * the performance issue's table; a bench prints them so that one run's output shows every row.
 */
export function againstGoal(value: number, goal: { atLeast: number } | { atMost: number }): string {
  if ('atLeast' in goal) return ` (goal >= ${goal.atLeast}: ${value >= goal.atLeast ? 'met' : 'NOT met'})`;
  return ` (goal <= ${goal.atMost}: ${value <= goal.atMost ? 'met' : 'NOT met'})`;
}
