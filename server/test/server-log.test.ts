import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processEnv, seedDatabase, startServerProcess, stopServerProcess } from './processes';

/**
 * Issue 50: the server's log never holds its event loop, and what it holds while its reader lags
 * is bounded. The test stops reading the server's output and sends more log than a pipe and the
 * log's buffer (4 MiB) take: every request is answered all the same, lines past the bound are
 * dropped and counted (the log kept every line in memory for as long as the reader lagged), and
 * the graceful stop writes its last line, with that count, before the process exits.
 */
describe('the server log while nobody reads it', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-server-log-'));
    await seedDatabase({ dataDir, databaseUrl: undefined }, async () => undefined);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers every request while its output is not read; past its bound the log drops lines', async () => {
    const server = await startServerProcess(processEnv(dataDir, 'server-log'));
    const output = () => server.output.join('');
    const REQUESTS = 800;
    try {
      server.child.stdout?.pause();
      // Each request is logged with its path (8 kB): some 6.4 MB of log in all.
      const long = 'x'.repeat(8000);
      const statuses: number[] = [];
      for (let batch = 0; batch < REQUESTS / 20; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            fetch(`${server.baseUrl}/api/log-probe-${batch}-${index}-${long}/`).then((answer) => {
              void answer.body?.cancel();
              return answer.status;
            }),
          ),
        );
        statuses.push(...answers);
      }
      expect(statuses.length).toBe(REQUESTS);
      expect(statuses.every((status) => status === 404)).toBe(true);
    } finally {
      server.child.stdout?.resume();
      // Its output read to the end, not only the process ended.
      const closed = new Promise((resolve) => server.child.once('close', resolve));
      await stopServerProcess(server);
      await closed;
    }
    const lines = output().split('\n');
    const stopped = lines.find((line) => line.includes('"msg":"stopped"'));
    expect(stopped).toBeDefined();
    const dropped = Number(JSON.parse(stopped ?? '{}').droppedLogLines);
    expect(dropped).toBeGreaterThan(0);
    // What the bound held was written once the output was read again.
    const probes = lines.filter((line) => line.includes('/api/log-probe-')).length;
    expect(probes).toBeGreaterThan(100);
    expect(probes).toBeLessThan(REQUESTS);
  }, 120_000);
});
