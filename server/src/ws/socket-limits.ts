import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { redisPrefix } from './fan-out';

/**
 * How many websockets one user, and one client address, may hold open at once, over every process
 * of the deployment (issue 50: one user opened 231 sockets in 90 s and slowed everybody). A page
 * needs one or two; a user with many tabs a few dozen.
 */
export interface SocketQuota {
  /** A counter key ('user:12', 'address:10.0.0.1') and its limit. */
  key: string;
  limit: number;
}

/**
 * Places for open sockets, counted per key. `acquire` takes a place under every key for one
 * socket, or none at all: it answers the first key that is full, or null when the socket may open.
 */
export interface SocketCounter {
  acquire(socketId: string, quotas: readonly SocketQuota[]): Promise<string | null>;
  release(socketId: string, keys: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** One process (no REDIS_URL): the counts live in memory. */
export class MemorySocketCounter implements SocketCounter {
  private readonly held = new Map<string, Set<string>>();

  async acquire(socketId: string, quotas: readonly SocketQuota[]): Promise<string | null> {
    const full = quotas.find(({ key, limit }) => (this.held.get(key)?.size ?? 0) >= limit);
    if (full) return full.key;
    for (const { key } of quotas) {
      let sockets = this.held.get(key);
      if (!sockets) {
        sockets = new Set();
        this.held.set(key, sockets);
      }
      sockets.add(socketId);
    }
    return null;
  }

  async release(socketId: string, keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      const sockets = this.held.get(key);
      if (sockets?.delete(socketId) && sockets.size === 0) this.held.delete(key);
    }
  }

  async close(): Promise<void> {
    this.held.clear();
  }
}

/** A place not renewed for this long is given up: its process died without releasing it (kill -9). */
const PLACE_TTL_MS = 30_000;
const PLACE_RENEW_MS = 10_000;

/**
 * Every key a sorted set of its sockets, scored by when their place expires. One script checks
 * and takes the places of all keys at once, so that processes opening sockets together never
 * pass a limit between them.
 */
const ACQUIRE_SCRIPT = `
local now = tonumber(ARGV[1])
local expires = tonumber(ARGV[2])
local member = ARGV[3]
for index, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZSCORE', key, member) == false and redis.call('ZCARD', key) >= tonumber(ARGV[3 + index]) then
    return index
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, expires, member)
  redis.call('PEXPIRE', key, ${PLACE_TTL_MS})
end
return 0
`;

/** Several processes (REDIS_URL): the counts live in Redis, shared by all of them. */
export class RedisSocketCounter implements SocketCounter {
  /** The places this process holds, renewed while their sockets are open. */
  private readonly held = new Map<string, readonly string[]>();
  private readonly renewer: ReturnType<typeof setInterval>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: (message: string, error?: unknown) => void,
  ) {
    this.renewer = setInterval(() => void this.renew(), PLACE_RENEW_MS);
    this.renewer.unref();
  }

  async acquire(socketId: string, quotas: readonly SocketQuota[]): Promise<string | null> {
    const now = Date.now();
    const keys = quotas.map(({ key }) => this.prefix + key);
    const full = (await this.redis.eval(
      ACQUIRE_SCRIPT,
      keys.length,
      ...keys,
      now,
      now + PLACE_TTL_MS,
      socketId,
      ...quotas.map(({ limit }) => limit),
    )) as number;
    if (full > 0) return quotas[full - 1].key;
    this.held.set(
      socketId,
      quotas.map(({ key }) => key),
    );
    return null;
  }

  async release(socketId: string, keys: readonly string[]): Promise<void> {
    this.held.delete(socketId);
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.zrem(this.prefix + key, socketId);
    await pipeline.exec();
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const expires = Date.now() + PLACE_TTL_MS;
    const pipeline = this.redis.pipeline();
    for (const [socketId, keys] of this.held)
      for (const key of keys) {
        pipeline.zadd(this.prefix + key, 'XX', expires, socketId);
        pipeline.pexpire(this.prefix + key, PLACE_TTL_MS);
      }
    try {
      await pipeline.exec();
    } catch (error) {
      this.log('could not renew the socket places', error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.renewer);
    const held = [...this.held];
    await Promise.all(held.map(([socketId, keys]) => this.release(socketId, keys))).catch(() => undefined);
    await this.redis.quit().catch(() => undefined);
  }
}

export async function createSocketCounter(
  config: Pick<Config, 'redisUrl' | 'databaseUrl' | 'dataDir'>,
  log: (message: string, error?: unknown) => void,
): Promise<SocketCounter> {
  if (!config.redisUrl) return new MemorySocketCounter();
  // Loaded only with REDIS_URL: a server without Redis does not keep ioredis resident (issue 52).
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  redis.on('error', (error) => log('redis socket counter connection error', error));
  await redis.connect();
  return new RedisSocketCounter(redis, `${redisPrefix(config)}sockets:`, log);
}
