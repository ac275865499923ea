import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';

/**
 * The server runs from TypeScript sources (tsx); a worker thread starts without the parent's
 * loader when the parent is itself hosted by a test runner, so the worker loads tsx explicitly.
 * Compiled (server/dist), the workers are JavaScript and need nothing.
 */
export function workerExecArgv(): string[] {
  if (!import.meta.url.endsWith('.ts')) return [];
  const loader = createRequire(import.meta.url).resolve('tsx');
  return ['--import', pathToFileURL(loader).href];
}

/**
 * A task's time budget counts from the moment its worker really starts it, not from the call: a
 * worker's cold start (loading its modules; 10 to 20 s under tsx on a loaded machine) and the wait
 * in the pool's queue are no work of the task's. The task carries a MessagePort on which the worker
 * body says "started" (`reportStarted`) as its first act; the run budget is armed then. Until then
 * a separate, generous start budget runs, so that a task whose worker never starts (or that waits
 * behind others for too long) still ends, with `phase: 'start'`.
 */
export interface StartSignal {
  started?: MessagePort;
}

/** Worker side: tells the pool the task has started (its first act; again later is harmless). */
export function reportStarted(task: StartSignal): void {
  const port = task.started;
  if (!port) return;
  task.started = undefined;
  port.postMessage('started');
  port.close();
}

/** Which budget ended a task: the start (queue and cold start) or the run (its own work). */
export type BudgetPhase = 'start' | 'run';

export interface BudgetedRun<R> {
  /** The task's answer; rejects when the worker failed or a budget ran out (see `expired`). */
  result: Promise<R>;
  /** The budget that ran out, once one has (the pool then aborted the task). */
  expired(): BudgetPhase | null;
}

/**
 * Runs `task` in `pool` with a start budget and a run budget (milliseconds). `run` is Piscina's
 * run with the task (its start port added) and the signal that aborts it when a budget runs out.
 */
export function runWithinBudgets<T extends object, R>(
  task: T,
  budgets: { startMs: number; runMs: number },
  run: (task: T & StartSignal, signal: AbortSignal, transfer: MessagePort[]) => Promise<R>,
): BudgetedRun<R> {
  const controller = new AbortController();
  const { port1, port2 } = new MessageChannel();
  let phase: BudgetPhase = 'start';
  let expired: BudgetPhase | null = null;
  const expire = () => {
    expired = phase;
    controller.abort();
  };
  let timer = setTimeout(expire, budgets.startMs);
  port1.once('message', () => {
    if (expired) return;
    clearTimeout(timer);
    phase = 'run';
    timer = setTimeout(expire, budgets.runMs);
  });
  const result = run({ ...task, started: port2 }, controller.signal, [port2]).finally(() => {
    clearTimeout(timer);
    port1.close();
  });
  return { result, expired: () => expired };
}
