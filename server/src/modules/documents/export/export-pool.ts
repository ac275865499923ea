import { Piscina } from 'piscina';
import type { Config } from '../../../config';
import { heavyWorkEnv, runWithinBudgets, workerExecArgv, workerFile } from '../../../util/worker-threads';
import type { ExportResult, ExportTask } from './export-worker';

/**
 * The worker threads (Piscina) that make exports (issue 50): a task has a time budget (its
 * thread's CPU time) from the moment its worker starts it (the worker is terminated when it runs
 * out; the wait and a cold start have their own start budget, util/worker-threads.ts) and each
 * worker a heap budget (V8 ends the worker, not the process). Threads start with the first export
 * and stay a while, keeping their citeproc engines; tasks past the free workers wait in Piscina's
 * queue, and the per-user limit (heavy-work.ts) keeps one user from filling it.
 */

export type ExportPoolConfig = Pick<
  Config,
  'exportWorkers' | 'exportTimeLimitMs' | 'exportMemoryMb' | 'workerStartLimitMs'
> &
  Partial<Pick<Config, 'heavyWorkNiceness'>>;

/**
 * The export ran out of time or memory (or never started within the start budget): a translated
 * refusal, never a 500. The message tells which, for the log.
 */
export class ExportBudgetExceeded extends Error {}

const WORKER_FILE = workerFile(import.meta.dirname, 'export-worker');

/** Idle export threads end after this; the next export starts one again (about 150 ms). */
const IDLE_MS = 5 * 60_000;

const pools = new Map<ExportPoolConfig, Piscina<ExportTask, ExportResult>>();

function poolFor(config: ExportPoolConfig): Piscina<ExportTask, ExportResult> {
  let pool = pools.get(config);
  if (!pool) {
    pool = new Piscina<ExportTask, ExportResult>({
      filename: WORKER_FILE,
      execArgv: workerExecArgv(WORKER_FILE),
      // Below the event loop's priority (util/worker-threads.ts, lowerThreadPriority).
      env: heavyWorkEnv(config.heavyWorkNiceness),
      minThreads: 0,
      maxThreads: Math.max(1, config.exportWorkers),
      idleTimeout: IDLE_MS,
      resourceLimits: {
        maxOldGenerationSizeMb: config.exportMemoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(config.exportMemoryMb / 8))),
      },
    });
    pools.set(config, pool);
  }
  return pool;
}

/** Runs one export task in the pool within its budgets; overruns throw ExportBudgetExceeded. */
export async function runExportTask(config: ExportPoolConfig, task: ExportTask): Promise<ExportResult> {
  const pool = poolFor(config);
  const run = runWithinBudgets(
    task,
    { startMs: config.workerStartLimitMs, runMs: config.exportTimeLimitMs },
    (withPort, signal, transferList) => pool.run(withPort, { signal, transferList }),
  );
  try {
    return await run.result;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const expired = run.expired();
    if (expired === 'start')
      throw new ExportBudgetExceeded(
        `the export worker did not start within ${config.workerStartLimitMs} ms`,
      );
    if (expired === 'run')
      throw new ExportBudgetExceeded(`the export ran past ${config.exportTimeLimitMs} ms`);
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ExportBudgetExceeded(code);
    throw error;
  }
}

/** Ends the pool of this configuration (at app close), so that no thread outlives the server. */
export async function closeExportPool(config: ExportPoolConfig): Promise<void> {
  const pool = pools.get(config);
  if (!pool) return;
  pools.delete(config);
  await pool.destroy();
}
