import { Redis } from 'ioredis';
import pg from 'pg';

/** Whether both PostgreSQL and Redis answer, for the suites and benchmarks that need the two together. */
export async function postgresAndRedisReachable(
  databaseUrl: string,
  redisUrl: string,
  timeoutMs: number,
): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await client.connect();
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
    redis.disconnect();
  }
}
