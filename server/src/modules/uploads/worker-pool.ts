import { Piscina, type PiscinaTask, type TaskQueue } from 'piscina';
import type { Config } from '../../config';
import { heavyWorkEnv, runWithinBudgets, workerExecArgv, workerFile } from '../../util/worker-threads';
import { sniffImageType } from '../usermedia/sniff';
import type { UploadResult, UploadTask } from './tasks';

/**
 * Heavy work on uploaded content (SVG sanitising, image decoding, thumbnails) runs in a pool of
 * worker threads, never on the event loop: one hostile file used to block every request of the
 * process for a minute. Each task has a time budget, its thread's CPU time from the moment it
 * starts the task (the worker is terminated when it runs out; its wait and the worker's cold start
 * have their own start budget, util/worker-threads.ts) and each worker a heap budget (V8 ends the
 * worker, not the process, when it is exceeded).
 */

export type UploadPoolConfig = Pick<
  Config,
  'uploadWorkers' | 'uploadTimeLimitMs' | 'uploadMemoryMb' | 'workerStartLimitMs'
> &
  Partial<Pick<Config, 'heavyWorkNiceness'>>;

/**
 * The task ran out of time or memory (or never started within the start budget): answered as a
 * translated 400, never a 500. The message tells which, for the log.
 */
export class UploadBudgetExceeded extends Error {}

/** The pool's default (loaded when a worker starts): raster images and thumbnails. */
const WORKER_FILE = workerFile(import.meta.dirname, 'image-worker');
const UPLOAD_WORKER_FILE = workerFile(import.meta.dirname, 'upload-worker');
const DOCUMENT_WORKER_FILE = workerFile(import.meta.dirname, 'document-worker');

/** Each task runs the worker body that handles it; a worker loads a body on its first such task. */
function workerFileFor(task: UploadTask): string | undefined {
  if (task.kind === 'document') return DOCUMENT_WORKER_FILE;
  if (task.kind === 'thumbnail') return undefined;
  if (task.kind === 'image' && sniffImageType(task.bytes) !== 'image/svg+xml') return undefined;
  return UPLOAD_WORKER_FILE;
}

/**
 * The pool's queue, for when every worker is busy: tasks someone waits for (an upload's checks,
 * an import) go before thumbnails, which are made after their upload's answer. Thumbnails use
 * every free worker, and a burst of uploads is not answered behind its own thumbnails.
 */
export class AnswersFirstQueue implements TaskQueue {
  private readonly answers: PiscinaTask[] = [];
  private readonly thumbnails: PiscinaTask[] = [];

  get size(): number {
    return this.answers.length + this.thumbnails.length;
  }

  push(task: PiscinaTask): void {
    const payload = (task as PiscinaTask & { task?: UploadTask }).task;
    (payload?.kind === 'thumbnail' ? this.thumbnails : this.answers).push(task);
  }

  shift(): PiscinaTask | null {
    return this.answers.shift() ?? this.thumbnails.shift() ?? null;
  }

  remove(task: PiscinaTask): void {
    for (const list of [this.answers, this.thumbnails]) {
      const index = list.indexOf(task);
      if (index !== -1) list.splice(index, 1);
    }
  }
}

const pools = new Map<UploadPoolConfig, Piscina<UploadTask, UploadResult>>();

function poolFor(config: UploadPoolConfig): Piscina<UploadTask, UploadResult> {
  let pool = pools.get(config);
  if (!pool) {
    pool = new Piscina<UploadTask, UploadResult>({
      filename: WORKER_FILE,
      execArgv: workerExecArgv(WORKER_FILE),
      // Below the event loop's priority (util/worker-threads.ts, lowerThreadPriority).
      env: heavyWorkEnv(config.heavyWorkNiceness),
      taskQueue: new AnswersFirstQueue(),
      // All workers start with the pool (at the first upload) and stay: one starts in 100-150 ms of
      // CPU, and a burst of uploads, whose thumbnails keep a worker busy while the next upload is
      // checked, waited for the second one to start.
      minThreads: Math.max(1, config.uploadWorkers),
      maxThreads: Math.max(1, config.uploadWorkers),
      resourceLimits: {
        maxOldGenerationSizeMb: config.uploadMemoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(config.uploadMemoryMb / 8))),
      },
    });
    pools.set(config, pool);
  }
  return pool;
}

/** Runs one task in the pool within its budgets; overruns throw UploadBudgetExceeded. */
export async function runUploadTask(config: UploadPoolConfig, task: UploadTask): Promise<UploadResult> {
  const pool = poolFor(config);
  // An upload's bytes are not used again on this thread: moved to the worker, not copied (a copy
  // of megabytes is main-thread work and garbage). Only a buffer that owns its whole memory can
  // move; a slice of Node's shared pool is copied.
  const bytes = 'bytes' in task ? task.bytes : null;
  const own = bytes !== null && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const moved = own && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
  const filename = workerFileFor(task);
  const run = runWithinBudgets(
    task,
    { startMs: config.workerStartLimitMs, runMs: config.uploadTimeLimitMs },
    (withPort, signal, ports) =>
      pool.run(withPort, { signal, transferList: [...moved, ...ports], ...(filename ? { filename } : {}) }),
  );
  try {
    return await run.result;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const expired = run.expired();
    // A budget ran out: Piscina terminated that worker (or dropped the task from its queue).
    if (expired === 'start')
      throw new UploadBudgetExceeded(
        `the upload worker did not start within ${config.workerStartLimitMs} ms`,
      );
    if (expired === 'run')
      throw new UploadBudgetExceeded(`the upload task ran past ${config.uploadTimeLimitMs} ms`);
    // Out of memory: V8 ended the worker.
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') throw new UploadBudgetExceeded(code);
    throw error;
  }
}

/** Ends the pool of this configuration (at app close), so that no thread outlives the server. */
export async function closeUploadPool(config: UploadPoolConfig): Promise<void> {
  const pool = pools.get(config);
  if (!pool) return;
  pools.delete(config);
  await pool.destroy();
}
