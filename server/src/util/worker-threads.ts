import { readFileSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, MessageChannel, type MessagePort, receiveMessageOnPort } from 'node:worker_threads';

const fromSources = import.meta.url.endsWith('.ts');

/**
 * The file URL of the worker body `name` that a pool in `dir` starts: beside the pool (TypeScript
 * beside the sources, JavaScript beside the bundle's pools in server/dist). Under the tests, the
 * run's bundle of the server (server/test/compiled-server-setup.ts) has every body compiled: a
 * worker started from the sources compiled its whole module graph with tsx at its first task, 5 to
 * 20 s of CPU per pool and test file on a busy 2-core machine.
 */
export function workerFile(dir: string, name: string): string {
  const bundle = process.env.SCRIPTORIUM_TEST_SERVER;
  if (fromSources && bundle) return pathToFileURL(path.join(path.dirname(bundle), `${name}.js`)).href;
  return pathToFileURL(path.join(dir, `${name}${fromSources ? '.ts' : '.js'}`)).href;
}

/**
 * A worker thread starts without the parent's loader when the parent is itself hosted by a test
 * runner, so a worker of TypeScript sources loads tsx explicitly; compiled bodies need nothing.
 */
export function workerExecArgv(file: string): string[] {
  if (!file.endsWith('.ts')) return [];
  const loader = createRequire(import.meta.url).resolve('tsx');
  return ['--import', pathToFileURL(loader).href];
}

/**
 * The environment of a pool's worker threads, telling lowerThreadPriority how much lower than the
 * event loop they run (the configuration's HEAVY_WORK_NICENESS: a nice value added, 0 to 19).
 */
export function heavyWorkEnv(niceness = 10): NodeJS.ProcessEnv {
  return { ...process.env, HEAVY_WORK_NICENESS: String(niceness) };
}

const LOWERED = Symbol.for('scriptorium.worker-priority-lowered');

/**
 * Lowers the CPU priority of the calling thread by HEAVY_WORK_NICENESS (heavyWorkEnv), once per thread: every
 * worker body of the pools (imports, exports, uploads) calls it as it loads, so that on a busy
 * machine the event loop, which answers every user, goes before one user's heavy work (issue 50:
 * a second user's p99 went from 35 ms to 149 ms while the pools ran). On Linux a thread has its
 * own nice value, set through its thread id (from /proc/thread-self); elsewhere, or without /proc,
 * nothing changes. On the main thread (a body imported there) it does nothing.
 */
export function lowerThreadPriority(): void {
  if (isMainThread) return;
  const mark = globalThis as { [LOWERED]?: boolean };
  if (mark[LOWERED]) return;
  mark[LOWERED] = true;
  try {
    const tid = threadId();
    if (tid === null) return;
    const niceness = Number(process.env.HEAVY_WORK_NICENESS ?? 10);
    if (!(niceness > 0)) return;
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + niceness));
  } catch {
    // Not Linux, no /proc, or not allowed: the thread keeps the process's priority.
  }
}

/** The calling thread's id in the kernel (Linux), or null. */
function threadId(): number | null {
  try {
    const tid = Number(path.basename(readlinkSync('/proc/thread-self')));
    return Number.isSafeInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Nanoseconds thread `tid` of this process has run on a CPU (Linux: the first field of its
 * schedstat), or null when it cannot be read (no /proc, or the thread has ended).
 */
export function threadCpuNs(tid: number): number | null {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns : null;
  } catch {
    return null;
  }
}

/** What a worker tells as it starts a task: when, and (Linux) which thread at what CPU time. */
interface StartReport {
  at: number;
  tid: number | null;
  cpuNs: number | null;
}

/**
 * A task's time budget counts from the moment its worker really starts it, not from the call: a
 * worker's cold start (loading its modules; 10 to 20 s under tsx on a loaded machine) and the wait
 * in the pool's queue are no work of the task's. The task carries a MessagePort on which the worker
 * body tells the time it started (`reportStarted`) as its first act; the run budget ends that long
 * after it, whenever this thread reads the message. Until then a separate, generous start budget
 * runs, so that a task whose worker never starts (or that waits behind others for too long) still
 * ends, with the phase 'start'.
 */
export interface StartSignal {
  started?: MessagePort;
}

/** Worker side: tells the pool the task has started (its first act; again later is harmless). */
export function reportStarted(task: StartSignal): void {
  const port = task.started;
  if (!port) return;
  task.started = undefined;
  const tid = threadId();
  const report: StartReport = { at: Date.now(), tid, cpuNs: tid === null ? null : threadCpuNs(tid) };
  port.postMessage(report);
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

/** An answer read after its run budget had ended (this thread was busy when the timer was due). */
class AnsweredLate extends Error {}

/** The run budget's backstop in wall time, as a multiple of `runMs` (see runWithinBudgets). */
export const WALL_BUDGET_FACTOR = 10;

/**
 * Runs `task` with a start budget and a run budget (milliseconds). `run` is Piscina's run with the
 * task (its start port added, to be moved) and the signal that aborts it when a budget runs out.
 *
 * The run budget is CPU time of the worker's thread where the kernel tells it (Linux: its
 * schedstat): heavy work runs below the event loop's priority (lowerThreadPriority), and on a busy
 * machine a task waits for the CPU far longer than it works; a wall-clock budget refused ordinary
 * imports and exports there. A backstop in wall time (`wallMs`, WALL_BUDGET_FACTOR x `runMs`)
 * ends a task that stops making progress. Elsewhere the run budget is wall time from the worker's
 * start. An answer this thread reads after the budget had ended (its check and the answer came
 * due together) is refused as one past its budget, so that the outcome does not depend on how busy
 * this thread was.
 */
export function runWithinBudgets<T extends object, R>(
  task: T,
  budgets: { startMs: number; runMs: number; wallMs?: number },
  run: (task: T & StartSignal, signal: AbortSignal, transfer: MessagePort[]) => Promise<R>,
): BudgetedRun<R> {
  const controller = new AbortController();
  const { port1, port2 } = new MessageChannel();
  let expired: BudgetPhase | null = null;
  /** The wall time the run budget ends at (the backstop when CPU time is counted). */
  let endsAt: number | null = null;
  /** The worker's thread and its CPU time at the start, when CPU time is counted. */
  let cpu: { tid: number; startNs: number } | null = null;
  const expire = (phase: BudgetPhase) => {
    expired ??= phase;
    controller.abort();
  };
  /** Whether the run budget has ended by now. */
  const overBudget = (): boolean => {
    if (endsAt === null) return false;
    if (Date.now() > endsAt) return true;
    if (!cpu) return false;
    const now = threadCpuNs(cpu.tid);
    return now !== null && (now - cpu.startNs) / 1e6 >= budgets.runMs;
  };
  let timer = setTimeout(() => expire('start'), budgets.startMs);
  /** Checks the run budget when it can first have ended: CPU time goes no faster than the clock. */
  const check = () => {
    if (overBudget()) return expire('run');
    let wait = Math.max(0, (endsAt ?? 0) - Date.now());
    if (cpu) {
      const now = threadCpuNs(cpu.tid);
      if (now !== null) wait = Math.min(wait, Math.max(1, budgets.runMs - (now - cpu.startNs) / 1e6));
    }
    timer = setTimeout(check, wait);
  };
  const started = (message: unknown) => {
    if (expired || endsAt !== null) return;
    clearTimeout(timer);
    const report = (
      typeof message === 'object' && message !== null ? message : { at: Number(message) }
    ) as Partial<StartReport>;
    const at = Number(report.at);
    if (typeof report.tid === 'number' && typeof report.cpuNs === 'number') {
      cpu = { tid: report.tid, startNs: report.cpuNs };
      endsAt = at + (budgets.wallMs ?? budgets.runMs * WALL_BUDGET_FACTOR);
    } else endsAt = at + budgets.runMs;
    check();
  };
  port1.on('message', started);
  const result = run({ ...task, started: port2 }, controller.signal, [port2])
    .then((answer) => {
      // The start message may still wait behind the answer (two ports, no order between them).
      if (endsAt === null) {
        const waiting = receiveMessageOnPort(port1);
        if (waiting) started(waiting.message);
      }
      if (overBudget()) {
        expire('run');
        throw new AnsweredLate('the answer came after the run budget had ended');
      }
      return answer;
    })
    .finally(() => {
      clearTimeout(timer);
      port1.close();
    });
  return { result, expired: () => expired };
}
