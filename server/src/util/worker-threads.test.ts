import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportStarted, runWithinBudgets, type StartSignal, threadCpuNs } from './worker-threads';

// Issue 50: a task's time budget counts from the moment its worker starts it, not from the call;
// until then the start budget runs. A stand-in for the pool gets the task (and its real port) and
// starts it when the test says, so that no test depends on how long a real worker takes to start.

/** A pool of one task that starts when `start()` is called and runs until aborted or `finish()`. */
function heldWorker() {
  let task: StartSignal | undefined;
  let finish: (value: string) => void = () => undefined;
  const run = (withPort: { job: string } & StartSignal, signal: AbortSignal) => {
    task = withPort;
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
  };
  return {
    run,
    start: () => reportStarted(task as StartSignal),
    finish: (value: string) => finish(value),
  };
}

describe('runWithinBudgets', () => {
  it('arms the run budget only when the worker says it started: the wait before does not count', async () => {
    const worker = heldWorker();
    const run = runWithinBudgets({ job: 'a' }, { startMs: 60_000, runMs: 20 }, worker.run);
    // A timer of five times the run budget fires after the budget's would have: nothing ran out.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(run.expired()).toBeNull();
    worker.start();
    await expect(run.result).rejects.toThrow('aborted');
    expect(run.expired()).toBe('run');
  });

  it('answers a task done within its budgets', async () => {
    const worker = heldWorker();
    const run = runWithinBudgets({ job: 'e' }, { startMs: 60_000, runMs: 60_000 }, worker.run);
    worker.start();
    worker.finish('done');
    await expect(run.result).resolves.toBe('done');
    expect(run.expired()).toBeNull();
  });

  it('ends a started task past its run budget, with the run phase', async () => {
    const worker = heldWorker();
    const run = runWithinBudgets({ job: 'b' }, { startMs: 60_000, runMs: 20 }, worker.run);
    worker.start();
    await expect(run.result).rejects.toThrow('aborted');
    expect(run.expired()).toBe('run');
  });

  it('refuses an answer this thread reads only after the run budget ended, though its timer never fired', async () => {
    const worker = heldWorker();
    const run = runWithinBudgets({ job: 'f' }, { startMs: 60_000, runMs: 20 }, worker.run);
    worker.start();
    // This thread is busy past the budget: neither the start message nor the timer is read before
    // the answer is. Busy until both budgets are past: its CPU time (the "worker" is this thread)
    // and the clock.
    const cpuAtStart = threadCpuNs(process.pid);
    const busyUntil = Date.now() + 50;
    while (
      Date.now() <= busyUntil ||
      (cpuAtStart !== null && (threadCpuNs(process.pid) ?? 0) - cpuAtStart < 50e6)
    );
    worker.finish('late');
    await expect(run.result).rejects.toThrow('the answer came after the run budget had ended');
    expect(run.expired()).toBe('run');
  });

  it('ends a task whose worker never starts at the start budget, with the start phase', async () => {
    const worker = heldWorker();
    const run = runWithinBudgets({ job: 'c' }, { startMs: 20, runMs: 60_000 }, worker.run);
    await expect(run.result).rejects.toThrow('aborted');
    expect(run.expired()).toBe('start');
  });

  it('hands the worker its task with a start port moved, not the caller’s object', () => {
    const worker = heldWorker();
    const task = { job: 'd' };
    let seen: ({ job: string } & StartSignal) | undefined;
    let moved: unknown[] = [];
    runWithinBudgets(task, { startMs: 60_000, runMs: 60_000 }, (withPort, signal, transfer) => {
      seen = withPort;
      moved = transfer;
      return worker.run(withPort, signal);
    });
    expect(seen?.job).toBe('d');
    expect(moved).toEqual([seen?.started]);
    expect(task).toEqual({ job: 'd' });
    worker.finish('x');
  });
});

/**
 * Where the kernel tells a thread's CPU time (Linux), the run budget counts that, not the clock: a
 * task whose thread waits for the CPU on a busy machine (heavy work runs below the event loop's
 * priority) is not refused for the wait. The stand-in "worker" is this thread.
 */
describe.skipIf(!existsSync('/proc/thread-self'))('runWithinBudgets counting CPU time', () => {
  it('answers a task whose thread was started longer ago than its run budget but has not worked that long', async () => {
    const worker = heldWorker();
    const run = runWithinBudgets({ job: 'g' }, { startMs: 60_000, runMs: 300, wallMs: 60_000 }, worker.run);
    worker.start();
    // Three times the budget on the clock, while this thread (the "worker") waits and hardly works.
    const waitUntil = Date.now() + 900;
    while (Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 50));
    worker.finish('done');
    await expect(run.result).resolves.toBe('done');
    expect(run.expired()).toBeNull();
  });

  it('ends a task whose thread has worked past its run budget, before the wall-clock backstop', async () => {
    const worker = heldWorker();
    const run = runWithinBudgets({ job: 'h' }, { startMs: 60_000, runMs: 50, wallMs: 60_000 }, worker.run);
    worker.start();
    const outcome = run.result.catch((error: Error) => error.message);
    // Works in slices, letting the budget's check run between them, until the budget has ended.
    while (run.expired() === null) {
      const sliceUntil = Date.now() + 10;
      while (Date.now() < sliceUntil);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await outcome).toBe('aborted');
    expect(run.expired()).toBe('run');
  });
});
