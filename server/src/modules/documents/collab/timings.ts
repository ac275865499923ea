import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { sqliteCommitObserver } from '../../../db/database';

/**
 * Where the time of the collaboration commits goes (issue 52), for the benchmark: with
 * COLLAB_TIMINGS=1 the server measures the event loop's delay, each group transaction (wall time,
 * and how long the main thread was held by it), the COMMIT statement (the fsync), and prints one
 * line `collab-timings {json}` on SIGUSR2, then starts counting again. Off (the default) it costs
 * nothing: `collabTimings` is null.
 */

export interface TimingsLine {
  /** Milliseconds since the last reset. */
  wall: number;
  /** Event-loop delay (perf_hooks), ms. */
  loop: { p50: number; p99: number; max: number };
  groups: number;
  diffs: number;
  /** Group transaction, begin to committed, ms (the main thread may be free meanwhile). */
  transaction: Spread;
  /** The COMMIT statement alone (WAL write and fsync), ms. */
  commit: Spread;
  /** Of the wall time, the share the main thread spent blocked in transactions (synchronous SQLite). */
  blockedShare: number;
  /** Where the writes ran: 'main' (the main connection) or 'worker' (the writer thread). */
  writer: Record<string, number>;
}

interface Spread {
  p50: number;
  p99: number;
  max: number;
  sum: number;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
  return { p50: at(50), p99: at(99), max: sorted.at(-1) ?? 0, sum: values.reduce((a, b) => a + b, 0) };
}

class Timings {
  private loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 5 });
  private startedAt = performance.now();
  private transactions: number[] = [];
  private commits: number[] = [];
  private blocked = 0;
  private diffs = 0;
  private writers: Record<string, number> = {};

  constructor() {
    this.loop.enable();
  }

  group(diffs: number, transactionMs: number, blockedMs: number, writer: string): void {
    this.transactions.push(transactionMs);
    this.blocked += blockedMs;
    this.diffs += diffs;
    this.writers[writer] = (this.writers[writer] ?? 0) + 1;
  }

  commit(ms: number): void {
    this.commits.push(ms);
  }

  line(): TimingsLine {
    const wall = performance.now() - this.startedAt;
    const ms = (ns: number) => ns / 1e6;
    return {
      wall,
      loop: { p50: ms(this.loop.percentile(50)), p99: ms(this.loop.percentile(99)), max: ms(this.loop.max) },
      groups: this.transactions.length,
      diffs: this.diffs,
      transaction: spread(this.transactions),
      commit: spread(this.commits),
      blockedShare: wall > 0 ? this.blocked / wall : 0,
      writer: this.writers,
    };
  }

  reset(): void {
    this.loop.reset();
    this.startedAt = performance.now();
    this.transactions = [];
    this.commits = [];
    this.blocked = 0;
    this.diffs = 0;
    this.writers = {};
  }
}

export const collabTimings: Timings | null = process.env.COLLAB_TIMINGS === '1' ? new Timings() : null;

if (collabTimings) {
  const timings = collabTimings;
  // COMMITs on the main SQLite connection (the writer thread reports its own).
  sqliteCommitObserver.observe = (ms) => timings.commit(ms);
  process.on('SIGUSR2', () => {
    process.stdout.write(`collab-timings ${JSON.stringify(timings.line())}\n`);
    timings.reset();
  });
}
