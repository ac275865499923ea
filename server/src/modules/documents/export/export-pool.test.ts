import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeExportPool, ExportBudgetExceeded, runExportTask } from './export-pool';
import type { ExportResult } from './export-worker';

// Issue 50, finding 2: exports, citation rendering and the bibliography reads run in the export
// pool within a heap budget per worker (EXPORT_MEMORY_MB). The time budget and the refusal's
// answer are tested through the API (server/test/export-budgets.test.ts).

/** BibTeX of `count` entries: about 250 bytes of text, and several kB of parsed entry, each. */
function bibtex(count: number): string {
  return Array.from(
    { length: count },
    (_, index) =>
      `@article{key${index}, title={${'Word '.repeat(40)}${index}}, author={Doe, Jane and Roe, Richard}, year={2020}}`,
  ).join('\n');
}

describe('the export pool’s memory budget', () => {
  // 32 MB holds the worker with its readers and writers and a small file; 20,000 entries do not.
  const config = {
    exportWorkers: 1,
    exportTimeLimitMs: 120_000,
    exportMemoryMb: 32,
    workerStartLimitMs: 120_000,
  };
  // A worker loads its readers and writers through tsx first: 10 to 20 s each on a loaded machine,
  // so both workers' tasks run in the hook and the tests read their outcomes.
  let hungry: PromiseSettledResult<ExportResult>;
  let next: PromiseSettledResult<ExportResult>;
  beforeAll(async () => {
    [hungry] = await Promise.allSettled([
      runExportTask(config, { kind: 'bibliography-import', text: bibtex(20_000) }),
    ]);
    [next] = await Promise.allSettled([
      runExportTask(config, { kind: 'bibliography-import', text: bibtex(3) }),
    ]);
  });
  afterAll(() => closeExportPool(config));

  it('ends a task whose worker needs more heap than the budget with ExportBudgetExceeded', () => {
    expect(hungry.status).toBe('rejected');
    expect(hungry.status === 'rejected' && hungry.reason).toBeInstanceOf(ExportBudgetExceeded);
  });

  it('replaces the ended worker: the next task within the budget is done', () => {
    expect(
      next.status === 'fulfilled' &&
        next.value.kind === 'bibliography' &&
        next.value.report.entries.map((entry) => entry.entry_key),
    ).toEqual(['key0', 'key1', 'key2']);
  });
});

describe('the export pool’s start budget', () => {
  // A worker starts in no less than the time it takes to load its modules: never within 1 ms.
  const config = { exportWorkers: 1, exportTimeLimitMs: 120_000, exportMemoryMb: 256, workerStartLimitMs: 1 };
  afterAll(() => closeExportPool(config));

  it('ends a task whose worker has not started within the start budget, saying so', async () => {
    const refused = runExportTask(config, { kind: 'bibtex', entries: [] });
    await expect(refused).rejects.toBeInstanceOf(ExportBudgetExceeded);
    await expect(refused).rejects.toThrow('the export worker did not start within 1 ms');
  });
});

/** The nice value of each thread of this process (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNiceness(): Map<number, number> {
  const niceness = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      niceness.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // ended meanwhile
    }
  }
  return niceness;
}

describe.skipIf(!existsSync('/proc/thread-self'))('the export pool’s threads below the event loop', () => {
  const lowered = {
    exportWorkers: 1,
    exportTimeLimitMs: 120_000,
    exportMemoryMb: 256,
    workerStartLimitMs: 120_000,
    heavyWorkNiceness: 10,
  };
  const same = { ...lowered, heavyWorkNiceness: 0 };
  afterAll(async () => {
    await closeExportPool(lowered);
    await closeExportPool(same);
  });

  it('runs its worker threads at HEAVY_WORK_NICENESS above the main thread; the main thread keeps its own', async () => {
    const main = threadNiceness().get(process.pid) ?? 0;
    const before = [...threadNiceness().values()].filter((nice) => nice > main).length;
    const made = await runExportTask(lowered, { kind: 'bibtex', entries: [] });
    expect(made.kind).toBe('text');
    const after = threadNiceness();
    expect([...after.values()].filter((nice) => nice === Math.min(19, main + 10)).length).toBe(before + 1);
    expect(after.get(process.pid)).toBe(main);
  });

  it('leaves them at the main thread’s priority with HEAVY_WORK_NICENESS 0', async () => {
    const main = threadNiceness().get(process.pid) ?? 0;
    const before = [...threadNiceness().values()].filter((nice) => nice > main).length;
    await runExportTask(same, { kind: 'bibtex', entries: [] });
    expect([...threadNiceness().values()].filter((nice) => nice > main).length).toBe(before);
  });
});
