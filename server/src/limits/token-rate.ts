/**
 * Requests per personal access token (issue 57): a fixed window of a minute, counted in this
 * process's memory. Counting in the database (rate-limit.ts) would write a row on every API
 * call; with several processes behind a load balancer a token gets the limit once per process.
 */
export class RequestWindows {
  private readonly windows = new Map<number, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request of `key`; the seconds to wait when it is over the limit, else 0. */
  take(key: number, now = Date.now()): number {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      // Ended windows go when the map grows: it never holds more than the tokens in use.
      if (this.windows.size > 10_000) this.dropEnded(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.max) return 0;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  private dropEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start >= this.windowMs) this.windows.delete(key);
    }
  }
}
