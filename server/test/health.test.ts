import { describe, expect, it } from 'vitest';
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH } from '../src/http/readiness';
import { ENGINES, useServer } from './harness';

describe.each(ENGINES)('health endpoints for a load balancer (%s)', (engine) => {
  const server = useServer(engine, { ready: false });

  async function health(path: string) {
    const response = await server().client().get(path);
    return { status: response.status, body: response.json(), cache: response.headers.get('cache-control') };
  }

  it('say live at once, ready only once migrated and until a stop begins', async () => {
    // Starting (migrations not run yet): alive, not ready; the rest of the API is still closed.
    expect(await health(HEALTH_LIVE_PATH)).toEqual({
      status: 200,
      body: { status: 'live' },
      cache: 'no-store',
    });
    expect(await health(HEALTH_READY_PATH)).toEqual({
      status: 503,
      body: { status: 'starting' },
      cache: 'no-store',
    });
    expect((await server().client().get('/api/documents/list/')).status).toBe(503);

    await server().becomeReady();
    expect(await health(HEALTH_READY_PATH)).toEqual({
      status: 200,
      body: { status: 'ready' },
      cache: 'no-store',
    });

    // SIGTERM sets this (main.ts) before it stops taking connections.
    server().ctx.state.stopping = true;
    try {
      expect(await health(HEALTH_READY_PATH)).toEqual({
        status: 503,
        body: { status: 'stopping' },
        cache: 'no-store',
      });
      expect(await health(HEALTH_LIVE_PATH)).toEqual({
        status: 200,
        body: { status: 'live' },
        cache: 'no-store',
      });
    } finally {
      server().ctx.state.stopping = false;
    }
  });
});
