import { Redis } from 'ioredis';
import pg from 'pg';

/** Whether Redis answers a ping at `redisUrl` (no retries: a missing Redis is told at once). */
export async function redisReachable(redisUrl: string): Promise<boolean> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Whether PostgreSQL accepts a connection at `databaseUrl` within `timeoutMs`. */
export async function postgresReachable(databaseUrl: string, timeoutMs: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether both PostgreSQL and Redis answer, for the suites and benchmarks that need the two together. */
export async function postgresAndRedisReachable(
  databaseUrl: string,
  redisUrl: string,
  timeoutMs: number,
): Promise<boolean> {
  return (await postgresReachable(databaseUrl, timeoutMs)) && (await redisReachable(redisUrl));
}

/** The PostgreSQL (with the right to create databases) and Redis of the tests that need both. */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Whether the tests that need PostgreSQL and Redis together run: always with REQUIRE_SERVICES=1
 * (a missing service then fails them), else when both answer; says what is skipped otherwise.
 */
export async function servicesForTests(skipped: string): Promise<boolean> {
  const up =
    process.env.REQUIRE_SERVICES === '1' ||
    (await postgresAndRedisReachable(TEST_DATABASE_URL, TEST_REDIS_URL, 3000));
  if (!up) console.warn(`PostgreSQL or Redis not reachable: ${skipped} skipped.`);
  return up;
}
