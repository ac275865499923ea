import type { AddressInfo } from 'node:net';
import { staffApi } from '@scriptorium/common/api/endpoints/staff';
import { seededRandom as random } from '@scriptorium/common/testing/seeded-random';
import { type SocketLike, WebSocketConnector } from '@scriptorium/common/ws/connector';
import { type AppFrame, BASE_SERVER_APP_SCHEMAS } from '@scriptorium/common/ws/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { nodeSocket } from '../src/ws/node-socket';
import { useServer } from './harness';
import { cookieHeader, recordNotes, waitFor } from './ws-support';

interface Faults {
  drop: number;
  duplicate: number;
  /** Each frame waits a random time up to this; frames overtake each other. */
  maxDelayMs: number;
}

const HEALTHY: Faults = { drop: 0, duplicate: 0, maxDelayMs: 0 };

/**
 * A websocket proxy on loopback between the client and the real server. It forwards frames one
 * by one and, on demand, drops, duplicates, delays and reorders them, and cuts connections.
 */
class FaultyProxy {
  private readonly server: WebSocketServer;
  private readonly pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();
  faults: Faults = HEALTHY;
  readonly counts = { forwarded: 0, dropped: 0, duplicated: 0, delayed: 0, cuts: 0, connections: 0 };

  private constructor(
    server: WebSocketServer,
    private readonly upstreamUrl: string,
    private readonly rand: () => number,
  ) {
    this.server = server;
    server.on('connection', (client, request) => this.accept(client, request.headers));
  }

  static async start(upstreamUrl: string, seed: number): Promise<FaultyProxy> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new FaultyProxy(server, upstreamUrl, random(seed));
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/ws/base/`;
  }

  private accept(client: WebSocket, headers: Record<string, string | string[] | undefined>): void {
    this.counts.connections += 1;
    const forwarded: Record<string, string> = {};
    for (const name of ['cookie', 'origin']) {
      const value = headers[name];
      if (typeof value === 'string') forwarded[name] = value;
    }
    const upstream = new WebSocket(this.upstreamUrl, { headers: forwarded });
    const pair = { client, upstream };
    this.pairs.add(pair);
    const early: string[] = [];
    upstream.on('open', () => {
      for (const text of early.splice(0)) this.forward(text, upstream);
    });
    client.on('message', (data) => {
      if (upstream.readyState === WebSocket.CONNECTING) early.push(data.toString());
      else this.forward(data.toString(), upstream);
    });
    upstream.on('message', (data) => this.forward(data.toString(), client));
    const cut = () => {
      this.pairs.delete(pair);
      client.terminate();
      upstream.terminate();
    };
    client.on('close', cut);
    upstream.on('close', cut);
    client.on('error', cut);
    upstream.on('error', cut);
  }

  private forward(text: string, to: WebSocket): void {
    const roll = this.rand();
    const { drop, duplicate, maxDelayMs } = this.faults;
    if (roll < drop) {
      this.counts.dropped += 1;
      return;
    }
    const copies = roll < drop + duplicate ? 2 : 1;
    if (copies === 2) this.counts.duplicated += 1;
    for (let copy = 0; copy < copies; copy++) {
      const delay = Math.floor(this.rand() * maxDelayMs);
      const send = () => {
        if (to.readyState !== WebSocket.OPEN) return;
        this.counts.forwarded += 1;
        to.send(text);
      };
      if (delay > 0) {
        this.counts.delayed += 1;
        setTimeout(send, delay);
      } else send();
    }
  }

  /** The network drops every connection at once. */
  cutAll(): void {
    this.counts.cuts += 1;
    for (const { client, upstream } of [...this.pairs]) {
      client.terminate();
      upstream.terminate();
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the live connection through a faulty network', () => {
  const server = useServer('sqlite');
  let proxy: FaultyProxy;

  beforeAll(async () => {
    proxy = await FaultyProxy.start(
      `${server().baseUrl.replace(/^http/, 'ws')}/ws/base/`,
      Number(process.env.WS_PROXY_SEED ?? 20240611),
    );
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it('delivers every application message exactly once and in order, over one socket at a time', async () => {
    const notes = recordNotes(server().ctx);
    const user = await server().loginAs(await server().buildUser());
    const staff = await server().loginAs(await server().buildUser({ isStaff: true }));

    // The real browser connector, in Node; only the reconnect pause is shortened (its 2 s are
    // unit-tested) so that the run stays short.
    const messages: AppFrame[] = [];
    const sockets: SocketLike[] = [];
    let overlaps = 0;
    const headers = { cookie: cookieHeader(user), origin: server().baseUrl };
    const connector = new WebSocketConnector({
      serverMessages: BASE_SERVER_APP_SCHEMAS,
      wsUrlBase: proxy.url.replace(/\/base\/$/, ''),
      createSocket: (url) => {
        // Before a new socket, every earlier one must be closing or closed, its handlers gone.
        for (const earlier of sockets) {
          if (earlier.readyState < 2 || earlier.onmessage || earlier.onclose) overlaps += 1;
        }
        const socket = nodeSocket(url, headers);
        sockets.push(socket);
        return socket;
      },
      onMessage: (message) => messages.push(message),
      onAccessDenied: () => {
        throw new Error('access denied');
      },
      isOnline: () => true,
      events: new EventTarget(),
      timing: { reconnectMs: 50 },
    });
    connector.open();
    await waitFor(() => connector.status.state === 'open', 'the first subscribe');

    const total = 60;
    proxy.faults = { drop: 0.12, duplicate: 0.12, maxDelayMs: 25 };
    const posts: Promise<unknown>[] = [];
    for (let index = 1; index <= total; index++) {
      connector.send({ type: 'note', text: `note ${index}` });
      posts.push(
        staff.call(staffApi.sendSystemMessage, { message: `system ${index}` }).then((response) => {
          if (response.status !== 200) throw new Error(response.text);
        }),
      );
      // Posts race each other over HTTP; wait for each so that their order is the one sent.
      await posts[posts.length - 1];
      if (index % 12 === 0) proxy.cutAll();
      await sleep(15);
    }

    proxy.faults = HEALTHY;
    await waitFor(
      () => notes.length >= total && messages.length >= total && connector.status.unsent === 0,
      'every message',
      60_000,
    );
    // A last note and system message over a healthy line: the transport keeps the order, so once
    // they are in, a duplicate of anything sent before them would be in too.
    connector.send({ type: 'note', text: 'note end' });
    const end = await staff.call(staffApi.sendSystemMessage, { message: 'system end' });
    expect(end.status, end.text).toBe(200);
    await waitFor(
      () => notes.includes('note end') && messages.some((message) => message.message === 'system end'),
      'the end markers',
      60_000,
    );
    connector.close();
    if (process.env.WS_PROXY_SEED) console.log('PROXY', JSON.stringify(proxy.counts), sockets.length);

    expect(notes).toEqual([...Array.from({ length: total }, (_, index) => `note ${index + 1}`), 'note end']);
    expect(messages.map((message) => message.message)).toEqual([
      ...Array.from({ length: total }, (_, index) => `system ${index + 1}`),
      'system end',
    ]);
    expect(overlaps).toBe(0);
    expect(sockets.length).toBeGreaterThan(total / 12);
    // The run did meet every kind of fault.
    expect(proxy.counts.dropped).toBeGreaterThan(5);
    expect(proxy.counts.duplicated).toBeGreaterThan(5);
    expect(proxy.counts.delayed).toBeGreaterThan(20);
    expect(proxy.counts.cuts).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
