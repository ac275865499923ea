import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { Config } from '../../../config';
import { workerExecArgv } from '../../../util/worker-threads';
import type { ExportResult, ExportTask } from './export-worker';

/**
 * The worker threads (Piscina) that make exports (issue 50): a task has a time budget (its worker
 * is terminated when it runs out) and each worker a heap budget (V8 ends the worker, not the
 * process). Threads start with the first export and stay a while, keeping their citeproc engines;
 * tasks past the free workers wait in Piscina's queue, and the per-user limit (heavy-work.ts) keeps
 * one user from filling it.
 */

export type ExportPoolConfig = Pick<Config, 'exportWorkers' | 'exportTimeLimitMs' | 'exportMemoryMb'>;

/** The export ran out of time or memory: a translated refusal, never a 500. */
export class ExportBudgetExceeded extends Error {}

const WORKER_FILE = pathToFileURL(
  path.join(import.meta.dirname, `export-worker${path.extname(import.meta.filename)}`),
).href;

/** Idle export threads end after this; the next export starts one again (about 150 ms). */
const IDLE_MS = 5 * 60_000;

const pools = new Map<ExportPoolConfig, Piscina<ExportTask, ExportResult>>();

function poolFor(config: ExportPoolConfig): Piscina<ExportTask, ExportResult> {
  let pool = pools.get(config);
  if (!pool) {
    pool = new Piscina<ExportTask, ExportResult>({
      filename: WORKER_FILE,
      execArgv: workerExecArgv(),
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

/** Runs one export task in the pool within the time budget; overruns throw ExportBudgetExceeded. */
export async function runExportTask(config: ExportPoolConfig, task: ExportTask): Promise<ExportResult> {
  const signal = AbortSignal.timeout(config.exportTimeLimitMs);
  try {
    return await poolFor(config).run(task, { signal });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const name = (error as { name?: string }).name;
    if (signal.aborted || name === 'AbortError' || code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new ExportBudgetExceeded(code ?? name ?? 'budget');
    }
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
