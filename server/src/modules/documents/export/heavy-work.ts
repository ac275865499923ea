import { randomUUID } from 'node:crypto';
import type { Config } from '../../../config';
import { HttpError } from '../../../http/errors';
import { redisPrefix } from '../../../ws/fan-out';
import { MemorySocketCounter, RedisSocketCounter, type SocketCounter } from '../../../ws/socket-limits';

/**
 * How many imports and exports one user has running (issue 50). One user's loop of exports filled
 * every worker and the printer, and everyone else waited; past HEAVY_TASKS_PER_USER the next one
 * is refused at once with 429 and Retry-After (not queued: the browser shows the message and the
 * user tries again; a queue per user would hold a connection and memory for each waiting request).
 *
 * With REDIS_URL the count is over every process of the deployment: each running task holds a
 * place in Redis (the places counter of the websocket limits, ws/socket-limits.ts), renewed while
 * it runs and given up after 30 s without renewal, so that a process killed during an export does
 * not keep its user's place. Without Redis, and while Redis does not answer, each process counts
 * its own.
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

export type HeavyWorkConfig = Pick<Config, 'heavyTasksPerUser' | 'redisUrl' | 'databaseUrl' | 'dataDir'>;

interface Counters {
  /** This process's count: without Redis, and the fallback while Redis does not answer. */
  memory: SocketCounter;
  /** The deployment's count (REDIS_URL), connected at the first heavy task. */
  shared: Promise<SocketCounter> | null;
}

const counters = new WeakMap<HeavyWorkConfig, Counters>();

const log = (message: string, error?: unknown) => console.error(`heavy work: ${message}`, error ?? '');

async function connectShared(config: HeavyWorkConfig, redisUrl: string): Promise<SocketCounter> {
  // Loaded only with REDIS_URL, as the websocket counter does.
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  redis.on('error', (error) => log('redis connection error', error));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return new RedisSocketCounter(redis, `${redisPrefix(config)}heavy:`, log);
}

function countersFor(config: HeavyWorkConfig): Counters {
  let found = counters.get(config);
  if (!found) {
    found = { memory: new MemorySocketCounter(), shared: null };
    counters.set(config, found);
  }
  return found;
}

/** The counter to use now: the shared one when Redis is configured and answers. */
async function counterFor(config: HeavyWorkConfig): Promise<SocketCounter> {
  const found = countersFor(config);
  if (!config.redisUrl) return found.memory;
  if (!found.shared) {
    const connecting = connectShared(config, config.redisUrl);
    found.shared = connecting;
    // Not connected: this task counts in this process, the next one tries Redis again.
    connecting.catch((error) => {
      if (found.shared === connecting) found.shared = null;
      log('redis unreachable, counting in this process', error);
    });
  }
  return found.shared.catch(() => found.memory);
}

/** Runs `work` as one of the user's heavy tasks; throws HeavyWorkBusy when the user has enough running. */
export async function asHeavyTask<T>(
  config: HeavyWorkConfig,
  userId: number,
  work: () => Promise<T>,
): Promise<T> {
  const key = `user:${userId}`;
  const task = randomUUID();
  let counter = await counterFor(config);
  const quota = [{ key, limit: Math.max(1, config.heavyTasksPerUser) }];
  let full: string | null;
  try {
    full = await counter.acquire(task, quota);
  } catch (error) {
    log('redis did not answer, counting in this process', error);
    counter = countersFor(config).memory;
    full = await counter.acquire(task, quota);
  }
  if (full) throw new HeavyWorkBusy();
  try {
    return await work();
  } finally {
    await counter.release(task, [key]).catch((error) => log('could not give a place back', error));
  }
}

/** Ends the shared counter of this configuration (at app close): its places and its connection. */
export async function closeHeavyWork(config: HeavyWorkConfig): Promise<void> {
  const found = counters.get(config);
  if (!found) return;
  counters.delete(config);
  const shared = await found.shared?.catch(() => null);
  await Promise.all([shared?.close(), found.memory.close()]);
}
