import type { Config } from '../../../config';
import { HttpError } from '../../../http/errors';

/**
 * How many imports and exports one user has running in this process (issue 50). One user's loop
 * of exports filled every worker and the printer, and everyone else waited; past
 * HEAVY_TASKS_PER_USER the next one is refused at once with 429 and Retry-After (not queued: the
 * browser shows the message and the user tries again; a queue per user would hold a connection and
 * memory for each waiting request). Per process: a user's requests spread over several processes
 * get the limit in each.
 */

/** Seconds a refused user is asked to wait: about one ordinary export. */
export const HEAVY_RETRY_AFTER_SECONDS = 10;

/** A user past the limit; answered 429 `busy` with a translated message and Retry-After. */
export class HeavyWorkBusy extends HttpError {
  constructor() {
    super(429, {
      error: 'busy',
      message: { key: 'errors.heavyTaskBusy' },
      headers: { 'retry-after': String(HEAVY_RETRY_AFTER_SECONDS) },
    });
  }
}

const running = new WeakMap<Pick<Config, 'heavyTasksPerUser'>, Map<number, number>>();

/** Runs `work` as one of the user's heavy tasks; throws HeavyWorkBusy when the user has enough running. */
export async function asHeavyTask<T>(
  config: Pick<Config, 'heavyTasksPerUser'>,
  userId: number,
  work: () => Promise<T>,
): Promise<T> {
  let counts = running.get(config);
  if (!counts) {
    counts = new Map();
    running.set(config, counts);
  }
  const now = counts.get(userId) ?? 0;
  if (now >= Math.max(1, config.heavyTasksPerUser)) throw new HeavyWorkBusy();
  counts.set(userId, now + 1);
  try {
    return await work();
  } finally {
    const left = (counts.get(userId) ?? 1) - 1;
    if (left > 0) counts.set(userId, left);
    else counts.delete(userId);
  }
}
