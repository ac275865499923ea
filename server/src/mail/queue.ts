import type { Mailer } from './mailer';

/**
 * Mail work that must not shape the answer of the request that caused it. A password reset used
 * to compose and send its mail before answering, so a registered address answered measurably
 * later than an unknown one (account discovery). Such work goes here: the request answers at
 * once, the same way for every address, and the job looks up, composes and sends afterwards.
 *
 * Jobs run one after another in this process; a job that fails is logged, never retried (the
 * user asks again). A crash loses the jobs not yet run, which for these mails is what a lost
 * SMTP delivery would do too.
 */

export interface MailJobLog {
  error(details: object, message: string): void;
}

/** The owner of a queue: the app's context (one queue per context), known here only by its mailer. */
type MailContext = { mailer: Mailer };

interface Queue {
  tail: Promise<void>;
  pending: number;
}

const queues = new WeakMap<MailContext, Queue>();

function queueOf(ctx: MailContext): Queue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = { tail: Promise.resolve(), pending: 0 };
    queues.set(ctx, queue);
  }
  return queue;
}

/** Runs `job` after the jobs queued before it, after the current request has been answered. */
export function enqueueMailJob(
  ctx: MailContext,
  what: string,
  log: MailJobLog,
  job: () => Promise<void>,
): void {
  const queue = queueOf(ctx);
  queue.pending += 1;
  queue.tail = queue.tail
    // setImmediate: the reply is sent before the job's first query, even when the queue is idle.
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(job)
    .catch((error: unknown) => log.error({ err: error }, `${what} failed`))
    .finally(() => {
      queue.pending -= 1;
    });
}

/** Waits for the queued jobs (at shutdown, so that no job runs against a closed database). */
export async function drainMailQueue(ctx: MailContext): Promise<void> {
  await queues.get(ctx)?.tail;
}
