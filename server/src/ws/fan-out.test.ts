import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { redisReachable } from '../../test/services';
import { type FanOut, type FanOutEvent, MemoryFanOut, RedisFanOut, redisPrefix } from './fan-out';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

const REDIS = process.env.REQUIRE_SERVICES === '1' || (await redisReachable(REDIS_URL));
if (!REDIS) console.warn(`Redis at ${REDIS_URL} not reachable: Redis fan-out tests skipped.`);

const event = (message: string): FanOutEvent => ({ kind: 'system_message', message });

function collect(fanOut: FanOut): FanOutEvent[] {
  const heard: FanOutEvent[] = [];
  fanOut.onEvent((received) => heard.push(received));
  return heard;
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 5000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('MemoryFanOut', () => {
  it('hands every event to every listener of this process, after the call returns', async () => {
    const fanOut = new MemoryFanOut();
    const heard = collect(fanOut);
    const published = fanOut.publish(event('one'));
    expect(heard).toEqual([]);
    expect(await published).toBe(1);
    expect(heard).toEqual([event('one')]);
  });

  it('reports its own census only', async () => {
    const fanOut = new MemoryFanOut();
    fanOut.setLocalCensus(() => ({ userIds: [3, 7], sockets: 4 }));
    expect(await fanOut.census()).toEqual([{ processId: fanOut.processId, userIds: [3, 7], sockets: 4 }]);
  });
});

describe('redisPrefix', () => {
  it('keeps deployments (databases) apart and is stable for one', () => {
    const a = redisPrefix({ databaseUrl: 'postgres://db/one', dataDir: '/x' });
    expect(a).toBe(redisPrefix({ databaseUrl: 'postgres://db/one', dataDir: '/y' }));
    expect(a).not.toBe(redisPrefix({ databaseUrl: 'postgres://db/two', dataDir: '/x' }));
    expect(redisPrefix({ databaseUrl: undefined, dataDir: '/x' })).not.toBe(
      redisPrefix({ databaseUrl: undefined, dataDir: '/y' }),
    );
    expect(a).toMatch(/^scriptorium:[0-9a-f]{16}:ws:$/);
  });
});

describe.skipIf(!REDIS)('RedisFanOut (real Redis)', () => {
  const opened: FanOut[] = [];
  const prefix = () => `scriptorium-test:${randomBytes(6).toString('hex')}:ws:`;

  async function connect(withPrefix: string, publishOnly = false): Promise<RedisFanOut> {
    const fanOut = await RedisFanOut.connect(REDIS_URL, withPrefix, { publishOnly, log: () => undefined });
    opened.push(fanOut);
    return fanOut;
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((fanOut) => fanOut.close()));
  });

  it('carries an event published by one process to every process, in order', async () => {
    const shared = prefix();
    const [a, b] = [await connect(shared), await connect(shared)];
    const [heardA, heardB] = [collect(a), collect(b)];
    expect(await a.publish(event('first'))).toBe(2);
    expect(await b.publish(event('second'))).toBe(2);
    await until(() => heardA.length === 2 && heardB.length === 2);
    expect(heardA).toEqual([event('first'), event('second')]);
    expect(heardB).toEqual([event('first'), event('second')]);
  });

  it('keeps deployments with another prefix apart', async () => {
    const mine = await connect(prefix());
    const other = await connect(prefix());
    const heard = collect(other);
    expect(await mine.publish(event('private'))).toBe(1);
    // Redis runs commands one after another: had the first event reached the other deployment, it
    // would arrive before this one, published after it.
    await other.publish(event('own'));
    await until(() => heard.length > 0);
    expect(heard).toEqual([event('own')]);
  });

  it('lets a publisher (the CLI) reach the servers without subscribing itself', async () => {
    const shared = prefix();
    const server = await connect(shared);
    const heard = collect(server);
    const cli = await connect(shared, true);
    expect(await cli.publish(event('from the CLI'))).toBe(1);
    await until(() => heard.length === 1);
  });

  it('ignores events that are not ours', async () => {
    const shared = prefix();
    const server = await connect(shared);
    const heard = collect(server);
    const raw = new Redis(REDIS_URL);
    try {
      await raw.publish(`${shared}events`, '{"kind":"format_disk"}');
      await raw.publish(`${shared}events`, 'not json');
    } finally {
      raw.disconnect();
    }
    await server.publish(event('real'));
    await until(() => heard.length === 1);
    expect(heard).toEqual([event('real')]);
  });

  it('adds up the census of every live process and forgets a closed one', async () => {
    const shared = prefix();
    const a = await connect(shared);
    const b = await connect(shared);
    a.setLocalCensus(() => ({ userIds: [1, 2], sockets: 3 }));
    let bSockets = 1;
    b.setLocalCensus(() => ({ userIds: [2], sockets: bSockets }));
    const read = async () => (await a.census()).map(({ userIds, sockets }) => ({ userIds, sockets }));
    await until(async () => (await read()).length === 2);
    expect(await read()).toEqual([
      { userIds: [1, 2], sockets: 3 },
      { userIds: [2], sockets: 1 },
    ]);
    bSockets = 5;
    b.censusChanged();
    await until(async () => (await read())[1]?.sockets === 5);
    expect((await read())[1]).toEqual({ userIds: [2], sockets: 5 });
    await b.close();
    expect(await read()).toEqual([{ userIds: [1, 2], sockets: 3 }]);
  });
});
