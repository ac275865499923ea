import http from 'node:http';

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/**
 * A bounded loopback load: `concurrency` keep-alive requests in flight for `seconds`, never
 * more. Returns requests per second and latency percentiles. Only ever targets 127.0.0.1.
 */
export async function loadTest(options: {
  port: number;
  path: string;
  headers?: Record<string, string>;
  concurrency?: number;
  seconds?: number;
}): Promise<LoadResult> {
  const { port, path, headers = {}, concurrency = 16, seconds = 5 } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;

  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.get({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          latencies.push(performance.now() - started);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });

  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pick = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50Ms: pick(0.5),
    p99Ms: pick(0.99),
    errors,
  };
}

export function formatLoad(name: string, r: LoadResult): string {
  return `${name}: ${r.perSecond.toFixed(0)} req/s (p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${r.requests} requests, ${r.errors} errors)`;
}

/**
 * Two loads measured in alternating slices (a, b, a, b, ...) for `seconds` each in total, so that
 * the noise of a shared machine (other processes taking the cores for a while) hits both alike;
 * a ratio of two back-to-back runs moved by 3x on a loaded machine. Latencies of all slices pooled.
 */
export async function interleavedLoad(
  a: Parameters<typeof loadTest>[0],
  b: Parameters<typeof loadTest>[0],
  options: { seconds?: number; slices?: number } = {},
): Promise<[LoadResult, LoadResult]> {
  const seconds = options.seconds ?? 5;
  const slices = options.slices ?? 10;
  const parts: [LoadResult[], LoadResult[]] = [[], []];
  for (let slice = 0; slice < slices; slice++) {
    parts[0].push(await loadTest({ ...a, seconds: seconds / slices }));
    parts[1].push(await loadTest({ ...b, seconds: seconds / slices }));
  }
  const pool = (results: LoadResult[]): LoadResult => {
    const requests = results.reduce((sum, r) => sum + r.requests, 0);
    const elapsed = results.reduce((sum, r) => sum + r.seconds, 0);
    const p50s = results.map((r) => r.p50Ms).sort((x, y) => x - y);
    const p99s = results.map((r) => r.p99Ms).sort((x, y) => x - y);
    return {
      requests,
      seconds: elapsed,
      perSecond: requests / elapsed,
      // The median slice's percentile: slices are short, their latencies are not kept.
      p50Ms: p50s[Math.floor(p50s.length / 2)],
      p99Ms: p99s[Math.floor(p99s.length / 2)],
      errors: results.reduce((sum, r) => sum + r.errors, 0),
    };
  };
  return [pool(parts[0]), pool(parts[1])];
}
