import { afterEach, describe, expect, it } from 'vitest';
import { createSocketCounter, type SocketCounter } from '../src/ws/socket-limits';
import { ENGINES, type TestClient, useServer } from './harness';
import { TEST_REDIS_URL as REDIS_URL, servicesForTests } from './services';
import { baseSocketUrl, cookieHeader, openRaw, type RawSocket, wsUrlBase } from './ws-support';

// Issue 50, finding 10: websockets are capped per user and per client address, over every process
// (Redis with REDIS_URL, memory without), not per login session.

const REDIS = await servicesForTests('the socket limits over Redis are');
const COUNTERS = REDIS ? (['memory', 'redis'] as const) : (['memory'] as const);

describe.each(ENGINES.flatMap((engine) => COUNTERS.map((counter) => [engine, counter] as const)))(
  'the socket limits per user and per address (%s, %s)',
  (engine, counter) => {
    const server = useServer(engine, {
      env: {
        WS_MAX_SOCKETS_PER_USER: '4',
        WS_MAX_SOCKETS_PER_ADDRESS: '6',
        ...(counter === 'redis' ? { REDIS_URL } : {}),
      },
    });
    const sockets: RawSocket[] = [];
    afterEach(() => {
      for (const raw of sockets.splice(0)) raw.socket.close();
    });

    async function open(browser: TestClient, path = '/base/'): Promise<RawSocket> {
      const raw = await openRaw(`${wsUrlBase(server().baseUrl)}${path}`, {
        cookie: cookieHeader(browser),
        origin: server().baseUrl,
      });
      sockets.push(raw);
      return raw;
    }

    async function admitted(browser: TestClient, path?: string): Promise<RawSocket> {
      const raw = await open(browser, path);
      expect((await raw.next()).type).toBe('welcome');
      return raw;
    }

    it('refuses the sockets of one user past the limit, whatever login session opens them', async () => {
      const user = await server().buildUser();
      const first = await server().loginAs(user);
      const second = await server().loginAs(user);
      const held = [
        await admitted(first),
        await admitted(second),
        await admitted(first),
        await admitted(second),
      ];
      const extra = await open(second);
      expect(await extra.closed).toEqual({ code: 1008, reason: 'too many connections of this user' });
      expect(extra.frames).toEqual([]);

      // A place comes free when a socket closes.
      held[0].socket.close();
      await held[0].closed;
      let again: RawSocket | null = null;
      for (let attempt = 0; attempt < 50 && !again; attempt++) {
        const raw = await open(first);
        const frame = await raw.next().catch(() => null);
        if (frame?.type === 'welcome') again = raw;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(again).not.toBeNull();
    });

    it('refuses the sockets of one address past its limit, and says which limit it was', async () => {
      const ada = await server().loggedInUser();
      const emmy = await server().loggedInUser();
      for (let index = 0; index < 4; index++) await admitted(ada.browser);
      await admitted(emmy.browser);
      await admitted(emmy.browser);
      const extra = await open(emmy.browser);
      expect(await extra.closed).toEqual({ code: 1008, reason: 'too many connections from this address' });
      const baseExtra = await openRaw(baseSocketUrl(server().baseUrl), {
        cookie: cookieHeader(ada.browser),
        origin: server().baseUrl,
      });
      sockets.push(baseExtra);
      expect((await baseExtra.closed).code).toBe(1008);
    });
  },
);

describe.skipIf(!REDIS)('socket places in Redis, shared by the processes of a deployment', () => {
  const counters: SocketCounter[] = [];
  afterEach(async () => {
    await Promise.all(counters.splice(0).map((counter) => counter.close()));
  });

  it('counts the places taken by every process against one limit', async () => {
    // Two processes of one deployment: the same database, the same Redis.
    const config = {
      redisUrl: REDIS_URL,
      databaseUrl: undefined,
      dataDir: `socket-limits-${process.pid}-${Date.now()}`,
    };
    const log = () => undefined;
    const one = await createSocketCounter(config, log);
    const other = await createSocketCounter(config, log);
    counters.push(one, other);
    const quota = [{ key: 'user:7', limit: 3 }];
    expect(await one.acquire('a', quota)).toBeNull();
    expect(await other.acquire('b', quota)).toBeNull();
    expect(await one.acquire('c', quota)).toBeNull();
    expect(await other.acquire('d', quota)).toBe('user:7');
    await one.release('a', ['user:7']);
    expect(await other.acquire('d', quota)).toBeNull();
    // A process that stops gives its places back.
    await one.close();
    counters.splice(counters.indexOf(one), 1);
    expect(await other.acquire('e', quota)).toBeNull();
    expect(await other.acquire('f', quota)).toBe('user:7');
  });
});
