import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seededRandom as random } from '../testing/seeded-random';
import { subscribedSession } from './fake-server';
import { type AppFrame, type AppMessage, BASE_SERVER_APP_SCHEMAS, type Frame, parseFrame } from './messages';
import { RESEND_HISTORY_SIZE } from './timing';
import { createSession, enqueue, type SessionState, Transport, type TransportOptions } from './transport';

// A client application message for these tests (the app-wide channel has none of its own).
const CLIENT_APP_SCHEMAS = { note: z.object({ type: z.literal('note'), text: z.string() }) };

type Direction = 'toServer' | 'toClient';

/**
 * A client and a server transport joined by a simulated socket: frames wait in two queues and
 * the test decides what the "network" does with each one. Every frame passes through JSON and
 * parseFrame(), as on a real socket.
 */
class Pair {
  now = 0;
  readonly clientSession: SessionState = createSession('client-session-1');
  readonly serverSessions = new Map<string, SessionState>();
  client!: Transport;
  server!: Transport;
  toServer: string[] = [];
  toClient: string[] = [];
  readonly clientGot: AppFrame[] = [];
  readonly serverGot: AppFrame[] = [];
  readonly broken: string[] = [];
  /** Every frame written, with the time, for assertions on what went over the wire. */
  readonly log: { at: number; dir: Direction; frame: Frame }[] = [];
  sockets = 0;

  constructor(private readonly options: Partial<Pick<TransportOptions, 'window' | 'timing'>> = {}) {
    this.connect();
  }

  /** A new socket: both old transports are dropped, the in-flight frames are lost. */
  connect(): void {
    this.client?.close();
    this.server?.close();
    this.toServer = [];
    this.toClient = [];
    this.sockets += 1;
    const socket = this.sockets;
    const write = (dir: Direction) => (frame: Frame) => {
      if (this.sockets !== socket) throw new Error('a closed transport wrote');
      this.log.push({ at: this.now, dir, frame });
      this[dir].push(JSON.stringify(frame));
    };
    this.client = new Transport({
      ...this.options,
      role: 'client',
      session: this.clientSession,
      hooks: {
        write: write('toServer'),
        deliver: (message) => this.clientGot.push(message),
        broken: (reason) => this.broken.push(`client: ${reason}`),
      },
    });
    this.server = new Transport({
      ...this.options,
      role: 'server',
      hooks: {
        write: write('toClient'),
        deliver: (message) => this.serverGot.push(message),
        broken: (reason) => this.broken.push(`server: ${reason}`),
        subscribe: (frame) => subscribedSession(this.serverSessions, frame.session),
      },
    });
    this.client.start(this.now);
    this.server.start(this.now);
  }

  /** Hands one frame (by index) of a queue to its receiver. */
  deliverAt(dir: Direction, index = 0): Frame {
    const [text] = this[dir].splice(index, 1);
    if (text === undefined) throw new Error(`no frame ${index} ${dir}`);
    return this.receive(dir, text);
  }

  receive(dir: Direction, text: string): Frame {
    const parsed =
      dir === 'toServer'
        ? parseFrame(text, 'client', CLIENT_APP_SCHEMAS)
        : parseFrame(text, 'server', BASE_SERVER_APP_SCHEMAS);
    if (!parsed.ok) throw new Error(parsed.reason);
    (dir === 'toServer' ? this.server : this.client).receive(parsed.frame, this.now);
    return parsed.frame;
  }

  drop(dir: Direction, index = 0): Frame {
    const [text] = this[dir].splice(index, 1);
    return JSON.parse(text) as Frame;
  }

  /** Delivers everything in flight, in order, until both queues are empty. */
  flush(): void {
    for (let guard = 0; this.toServer.length || this.toClient.length; guard++) {
      if (guard > 10_000) throw new Error('no quiet state');
      if (this.toServer.length) this.deliverAt('toServer');
      if (this.toClient.length) this.deliverAt('toClient');
    }
  }

  /** Lets time pass, running each due timer and delivering what it writes. */
  advance(ms: number, deliver = true): void {
    const until = this.now + ms;
    if (deliver) this.flush();
    for (;;) {
      const deadlines = [this.client.nextDeadline(), this.server.nextDeadline()].filter(
        (value): value is number => value !== null,
      );
      const next = Math.min(...deadlines);
      if (!deadlines.length || next > until) break;
      this.now = Math.max(this.now, next);
      this.client.tick(this.now);
      this.server.tick(this.now);
      if (deliver) this.flush();
    }
    this.now = until;
  }

  sendNote(text: string): void {
    this.client.send({ type: 'note', text }, this.now);
  }

  /** The server side of a broadcast: into the session, out at once when a socket carries it. */
  sendSystem(message: string): void {
    const session = this.serverSessions.get(this.clientSession.id);
    if (!session) throw new Error('not subscribed yet');
    if (this.server.sessionState === session && this.server.isOpen)
      this.server.send({ type: 'system_message', message }, this.now);
    else enqueue(session, { type: 'system_message', message });
  }

  written(dir: Direction): Frame[] {
    return this.log.filter((entry) => entry.dir === dir).map((entry) => entry.frame);
  }
}

const texts = (frames: AppFrame[]) => frames.map((frame) => (frame.text ?? frame.message) as string);

function openPair(options?: ConstructorParameters<typeof Pair>[0]): Pair {
  const pair = new Pair(options);
  pair.flush();
  pair.advance(100);
  return pair;
}

describe('handshake', () => {
  it('runs welcome -> subscribe -> subscribed with counters from 0', () => {
    const pair = new Pair();
    expect(pair.toServer).toEqual([]);
    expect(pair.deliverAt('toClient')).toEqual({ type: 'welcome', c: 0, s: 1 });
    expect(pair.deliverAt('toServer')).toEqual({
      type: 'subscribe',
      c: 1,
      s: 1,
      session: 'client-session-1',
      seen: 0,
      next: 1,
    });
    expect(pair.server.isOpen).toBe(true);
    expect(pair.deliverAt('toClient')).toEqual({ type: 'subscribed', c: 1, s: 2, seen: 0 });
    expect(pair.client.isOpen).toBe(true);
  });

  it('holds application messages until subscribed, then sends them', () => {
    const pair = new Pair();
    pair.sendNote('early');
    expect(pair.toServer).toEqual([]);
    pair.flush();
    expect(texts(pair.serverGot)).toEqual(['early']);
    expect(pair.written('toServer').map((frame) => frame.type)).toEqual(['subscribe', 'note']);
  });

  it('starts the counters at 0 again on every new socket', () => {
    const pair = openPair();
    pair.sendNote('one');
    pair.sendNote('two');
    pair.flush();
    pair.connect();
    expect(pair.toClient.map((text) => JSON.parse(text))).toEqual([{ type: 'welcome', c: 0, s: 1 }]);
    pair.deliverAt('toClient');
    expect(JSON.parse(pair.toServer[0])).toMatchObject({ type: 'subscribe', c: 1, s: 1 });
  });

  it('breaks on an application message before the handshake', () => {
    const pair = new Pair();
    pair.deliverAt('toClient');
    pair.drop('toServer');
    pair.server.receive({ type: 'note', text: 'sneaky', c: 1, s: 1 }, 0);
    expect(pair.broken).toEqual(['server: note before the handshake']);
    expect(JSON.parse(pair.toClient.at(-1)!)).toMatchObject({ type: 'restart' });
  });
});

describe('counters and acknowledgements', () => {
  it('stamps c and s on every counted message', () => {
    const pair = openPair();
    pair.sendNote('a');
    pair.sendNote('b');
    pair.sendSystem('hello');
    expect(pair.toServer.map((text) => JSON.parse(text))).toEqual([
      { type: 'note', text: 'a', c: 2, s: 2 },
      { type: 'note', text: 'b', c: 3, s: 2 },
    ]);
    expect(JSON.parse(pair.toClient[0])).toEqual({ type: 'system_message', message: 'hello', c: 1, s: 3 });
  });

  it('acknowledges after a short delay when the receiver has nothing to send', () => {
    const pair = openPair();
    pair.sendSystem('hello');
    pair.flush();
    expect(texts(pair.clientGot)).toEqual(['hello']);
    expect(pair.serverSessions.get('client-session-1')!.outbox).toHaveLength(1);
    pair.advance(19, false);
    expect(pair.toServer).toEqual([]);
    pair.advance(1, false);
    expect(pair.toServer.map((text) => JSON.parse(text))).toEqual([{ type: 'ack', c: 1, s: 3 }]);
    pair.flush();
    expect(pair.serverSessions.get('client-session-1')!.outbox).toEqual([]);
    // Then silence: nothing is resent, nothing more is confirmed.
    const ackedAt = pair.now;
    pair.advance(60_000);
    expect(pair.log.filter((entry) => entry.at > ackedAt)).toEqual([]);
  });

  it('lets an answer carry the acknowledgement instead of an ack frame', () => {
    const pair = openPair();
    const mark = pair.log.length;
    pair.sendSystem('question');
    pair.flush();
    pair.sendNote('answer');
    pair.advance(1000);
    const after = pair.log.slice(mark).map((entry) => `${entry.dir} ${entry.frame.type}`);
    // The server has nothing to answer with, so it sends an ack; the client's note is the ack.
    expect(after).toEqual(['toClient system_message', 'toServer note', 'toClient ack']);
    expect(pair.clientSession.outbox).toEqual([]);
  });

  it('never keeps more than the history size unacknowledged on the wire', () => {
    const pair = openPair();
    for (let index = 1; index <= 15; index++) pair.sendNote(`n${index}`);
    expect(pair.toServer).toHaveLength(RESEND_HISTORY_SIZE);
    pair.flush();
    pair.advance(100);
    expect(texts(pair.serverGot)).toEqual(Array.from({ length: 15 }, (_, index) => `n${index + 1}`));
    expect(pair.clientSession.outbox).toEqual([]);
  });
});

describe('gaps, duplicates and reordering', () => {
  it('asks for a resend from the last message in order when one is missing', () => {
    const pair = openPair();
    pair.sendSystem('one');
    pair.sendSystem('two');
    pair.sendSystem('three');
    pair.drop('toClient');
    pair.deliverAt('toClient');
    expect(pair.clientGot).toEqual([]);
    expect(pair.toServer.map((text) => JSON.parse(text))).toEqual([{ type: 'request_resend', from: 2 }]);
    // Another frame after the same gap does not ask again.
    pair.deliverAt('toClient');
    expect(pair.toServer).toHaveLength(1);
    pair.flush();
    expect(texts(pair.clientGot)).toEqual(['one', 'two', 'three']);
    const replayed = pair.written('toClient').filter((frame) => frame.type === 'system_message');
    expect(replayed.map((frame) => (frame as AppFrame).s)).toEqual([3, 4, 5, 3, 4, 5]);
  });

  it('delivers a message that arrives twice only once', () => {
    const pair = openPair();
    pair.sendNote('once');
    const text = pair.toServer[0];
    pair.flush();
    pair.receive('toServer', text);
    pair.receive('toServer', text);
    expect(texts(pair.serverGot)).toEqual(['once']);
    // The duplicate makes the receiver confirm at once, so the sender stops resending.
    pair.advance(0, false);
    expect(pair.toClient.map((frame) => JSON.parse(frame))).toEqual([{ type: 'ack', c: 2, s: 2 }]);
  });

  it('puts reordered messages back in order', () => {
    const pair = openPair();
    for (const text of ['a', 'b', 'c', 'd']) pair.sendNote(text);
    pair.deliverAt('toServer', 3);
    pair.deliverAt('toServer', 1);
    pair.deliverAt('toServer', 0);
    pair.deliverAt('toServer', 0);
    pair.flush();
    pair.advance(1000);
    expect(texts(pair.serverGot)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('replays the last messages when the peer has seen fewer than were sent', () => {
    const pair = openPair();
    pair.sendNote('lost');
    pair.drop('toServer');
    // The server says something that shows it has only seen the subscribe (c=1).
    pair.sendSystem('meanwhile');
    pair.deliverAt('toClient');
    expect(pair.serverGot).toEqual([]);
    // The throttle's first step: 80 ms without the confirmation.
    pair.advance(79, false);
    expect(pair.toServer.map((text) => JSON.parse(text))).toEqual([{ type: 'ack', c: 2, s: 3 }]);
    pair.advance(1, false);
    expect(pair.toServer.map((text) => JSON.parse(text))).toEqual([
      { type: 'ack', c: 2, s: 3 },
      { type: 'note', text: 'lost', c: 2, s: 3 },
    ]);
    pair.flush();
    expect(texts(pair.serverGot)).toEqual(['lost']);
  });

  it('recovers a lost last message (nothing after it shows the gap)', () => {
    const pair = openPair();
    pair.sendSystem('tail');
    pair.drop('toClient');
    pair.advance(200);
    expect(texts(pair.clientGot)).toEqual(['tail']);
    expect(pair.serverSessions.get('client-session-1')!.outbox).toEqual([]);
  });

  it('recovers when the acknowledgement is lost', () => {
    const pair = openPair();
    pair.sendNote('x');
    pair.flush();
    pair.advance(20, false);
    pair.drop('toClient');
    pair.advance(500);
    expect(texts(pair.serverGot)).toEqual(['x']);
    expect(pair.clientSession.outbox).toEqual([]);
  });

  it('handles messages sent by both sides at the same time', () => {
    const pair = openPair();
    pair.sendNote('from client');
    pair.sendSystem('from server');
    // Both frames cross on the wire: each carries a stale count of the other side.
    expect(JSON.parse(pair.toServer[0])).toMatchObject({ c: 2, s: 2 });
    expect(JSON.parse(pair.toClient[0])).toMatchObject({ c: 1, s: 3 });
    pair.flush();
    pair.advance(1000);
    expect(texts(pair.serverGot)).toEqual(['from client']);
    expect(texts(pair.clientGot)).toEqual(['from server']);
    expect(pair.broken).toEqual([]);
    // Neither side replayed: the confirmations came before the throttle ran out.
    expect(pair.written('toServer').filter((frame) => frame.type === 'note')).toHaveLength(1);
    expect(pair.written('toClient').filter((frame) => frame.type === 'system_message')).toHaveLength(1);
  });

  it('ignores a late, stale request for a resend', () => {
    const pair = openPair();
    pair.sendNote('a');
    pair.flush();
    pair.advance(100);
    pair.server.receive({ type: 'ack', c: 1, s: 2 }, pair.now);
    pair.client.receive({ type: 'request_resend', from: 0 }, pair.now);
    expect(pair.toServer).toEqual([]);
    expect(pair.broken).toEqual([]);
  });
});

describe('throttle', () => {
  it('retries after 80 ms, 1.2 times longer each time, at most every 10 s', () => {
    const pair = openPair();
    const mark = pair.log.length;
    const start = pair.now;
    pair.sendNote('unheard');
    pair.drop('toServer');
    // Nothing reaches the server any more.
    pair.advance(120_000, false);
    const times = pair.log.slice(mark).map((entry) => entry.at);
    expect(pair.log.slice(mark).every((entry) => entry.frame.type === 'note')).toBe(true);
    const gaps = times.map((at, index) => at - (index ? times[index - 1] : start));
    expect(gaps.slice(0, 5).map((gap) => Math.round(gap))).toEqual([0, 80, 96, 115, 138]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000);
    expect(gaps.at(-1)).toBeCloseTo(10_000, 0);
  });

  it('keeps the step that got through after a replay, and starts from 80 ms after a clean confirmation', () => {
    const pair = openPair();
    const replayTimes = (text: string, from: number) =>
      pair.log
        .filter((entry) => entry.frame.type === 'note' && (entry.frame as AppFrame).text === text)
        .map((entry) => Math.round(entry.at - from));
    // 'a' and its first two replays are lost; the third (at 80 + 96 + 115.2 ms) gets through.
    let sentAt = pair.now;
    pair.sendNote('a');
    pair.advance(80 + 96 + 116, false);
    expect(replayTimes('a', sentAt)).toEqual([0, 80, 176, 291]);
    pair.toServer = pair.toServer.slice(-1);
    pair.flush();
    // The server confirms 20 ms later, 312 ms after the first copy.
    pair.advance(20);
    expect(pair.clientSession.outbox).toEqual([]);
    // That confirmation came for a replay and measures no round trip (Karn). The next frame waits
    // at least as long as 'a' took (312 ms, plus the 20 ms acknowledgement delay): 332 ms.
    sentAt = pair.now;
    pair.sendNote('b');
    pair.drop('toServer');
    pair.advance(331, false);
    expect(replayTimes('b', sentAt)).toEqual([0]);
    pair.advance(1, false);
    pair.flush();
    pair.advance(100);
    expect(replayTimes('b', sentAt)).toEqual([0, 332]);
    // A clean confirmation measures the round trip (here just the 20 ms acknowledgement delay):
    // the throttle starts from 80 ms again.
    pair.sendNote('c');
    pair.advance(100);
    sentAt = pair.now;
    pair.sendNote('d');
    pair.drop('toServer');
    pair.advance(80, false);
    expect(replayTimes('d', sentAt)).toEqual([0, 80]);
  });

  it('waits longer before resending on a slow link, so that it does not send everything twice', () => {
    // 150 ms each way: a round trip (with the 20 ms acknowledgement delay) of 320 ms.
    const latency = 150;
    let now = 0;
    const wire: { at: number; to: Transport; frame: Frame }[] = [];
    const written: { from: string; frame: Frame }[] = [];
    const serverSession = createSession('slow-session-01');
    const make = (role: 'client' | 'server', peer: () => Transport): Transport =>
      new Transport({
        role,
        session: role === 'client' ? createSession('slow-session-01') : undefined,
        hooks: {
          write: (frame) => {
            written.push({ from: role, frame });
            wire.push({ at: now + latency, to: peer(), frame: JSON.parse(JSON.stringify(frame)) as Frame });
          },
          deliver: () => undefined,
          broken: (reason) => {
            throw new Error(reason);
          },
          subscribe: () => serverSession,
        },
      });
    const client: Transport = make('client', () => server);
    const server: Transport = make('server', () => client);
    const run = (until: number) => {
      for (; now <= until; now += 1) {
        for (const item of wire.filter((entry) => entry.at <= now)) {
          wire.splice(wire.indexOf(item), 1);
          item.to.receive(item.frame, now);
        }
        client.tick(now);
        server.tick(now);
      }
    };
    client.start(now);
    server.start(now);
    run(2000);
    for (let index = 0; index < 10; index++) {
      client.send({ type: 'note', text: `n${index}` }, now);
      run(now + 1000);
    }
    const notes = written.filter((entry) => entry.frame.type === 'note');
    // The first notes may be sent twice while the round trip is unknown; the rest once each.
    expect(notes.length).toBeLessThanOrEqual(12);
    expect(notes.slice(-6).map((entry) => (entry.frame as AppFrame).text)).toEqual([
      'n4',
      'n5',
      'n6',
      'n7',
      'n8',
      'n9',
    ]);
  });
});

describe('restart', () => {
  it('replays up to the last 10 messages on request', () => {
    const pair = openPair({ window: 50 });
    for (let index = 1; index <= 10; index++) pair.sendNote(`n${index}`);
    pair.toServer = [];
    pair.server.receive({ type: 'request_resend', from: 1 }, pair.now);
    pair.client.receive({ type: 'request_resend', from: 1 }, pair.now);
    expect(pair.toServer.map((text) => JSON.parse(text).text)).toEqual(
      Array.from({ length: 10 }, (_, index) => `n${index + 1}`),
    );
    expect(pair.broken).toEqual([]);
  });

  it('sends a restart when more than 10 are missing', () => {
    const pair = openPair({ window: 50 });
    for (let index = 1; index <= 11; index++) pair.sendNote(`n${index}`);
    pair.toServer = [];
    pair.client.receive({ type: 'request_resend', from: 1 }, pair.now);
    expect(pair.toServer.map((text) => JSON.parse(text))).toEqual([{ type: 'restart', c: 12, s: 2 }]);
    expect(pair.broken).toEqual(['client: the peer misses 11 messages, only 10 kept']);
    expect(pair.client.isClosed).toBe(true);
  });

  it('drops the socket without answering when the peer sends a restart', () => {
    const pair = openPair();
    pair.server.receive({ type: 'restart', c: 1, s: 2 }, pair.now);
    expect(pair.broken).toEqual(['server: the peer asked for a restart']);
    expect(pair.toClient).toEqual([]);
  });

  it('loses nothing over a restart: the next socket resumes the session', () => {
    const pair = openPair({ window: 50 });
    for (let index = 1; index <= 12; index++) pair.sendNote(`n${index}`);
    pair.deliverAt('toServer');
    pair.toServer = [];
    pair.client.receive({ type: 'request_resend', from: 1 }, pair.now);
    expect(pair.client.isClosed).toBe(true);
    pair.connect();
    pair.flush();
    pair.advance(1000);
    expect(texts(pair.serverGot)).toEqual(Array.from({ length: 12 }, (_, index) => `n${index + 1}`));
  });

  it('breaks when the peer confirms messages that were never sent', () => {
    const pair = openPair();
    pair.server.receive({ type: 'ack', c: 1, s: 99 }, pair.now);
    expect(pair.broken).toEqual(['server: acknowledged 99 messages, only 2 sent']);
  });
});

describe('reconnect', () => {
  it('sends what was never acknowledged once subscribed, and nothing twice', () => {
    const pair = openPair();
    for (const text of ['a', 'b', 'c', 'd']) pair.sendNote(text);
    // The server takes a and b; c and d and every confirmation are lost with the socket.
    pair.deliverAt('toServer');
    pair.deliverAt('toServer');
    pair.connect();
    pair.sendNote('e');
    pair.flush();
    expect(texts(pair.serverGot)).toEqual(['a', 'b', 'c', 'd', 'e']);
    const notes = pair.written('toServer').filter((frame) => frame.type === 'note');
    expect(notes.map((frame) => (frame as AppFrame).text)).toEqual(['a', 'b', 'c', 'd', 'c', 'd', 'e']);
    const subscribe = pair
      .written('toServer')
      .filter((frame) => frame.type === 'subscribe')
      .at(-1);
    expect(subscribe).toMatchObject({ c: 1, s: 1, seen: 0, next: 1 });
    expect(pair.written('toClient').at(-1)).toMatchObject({ type: 'subscribed', seen: 2 });
  });

  it('delivers server messages queued while the client was away', () => {
    const pair = openPair();
    pair.sendSystem('one');
    pair.drop('toClient');
    pair.client.close();
    pair.server.close();
    pair.sendSystem('two');
    pair.connect();
    pair.flush();
    pair.advance(1000);
    expect(texts(pair.clientGot)).toEqual(['one', 'two']);
  });

  it('does not resend server messages the client already took', () => {
    const pair = openPair();
    pair.sendSystem('one');
    pair.flush();
    // The acknowledgement never arrives.
    pair.connect();
    pair.flush();
    pair.advance(1000);
    expect(texts(pair.clientGot)).toEqual(['one']);
    expect(pair.written('toClient').filter((frame) => frame.type === 'system_message')).toHaveLength(1);
  });

  it('resends everything unacknowledged to a server that does not know the session', () => {
    const pair = openPair();
    pair.sendNote('a');
    pair.deliverAt('toServer');
    pair.sendNote('b');
    // Another server process answers the next socket.
    pair.serverSessions.clear();
    pair.connect();
    pair.flush();
    expect(texts(pair.serverGot)).toEqual(['a', 'a', 'b']);
  });

  it('survives a socket cut during the handshake', () => {
    const pair = new Pair();
    pair.sendNote('x');
    pair.deliverAt('toClient');
    pair.connect();
    pair.deliverAt('toClient');
    pair.deliverAt('toServer');
    pair.connect();
    pair.flush();
    pair.advance(1000);
    expect(texts(pair.serverGot)).toEqual(['x']);
  });
});

describe('a faulty network', () => {
  it.each(Array.from({ length: 40 }, (_, index) => index + 1))(
    'delivers every message once and in order (seed %i)',
    (seed) => {
      const rand = random(seed);
      const pair = new Pair();
      pair.flush();
      let notes = 0;
      let systems = 0;
      for (let step = 0; step < 400; step++) {
        const roll = rand();
        if (roll < 0.15) pair.sendNote(`n${++notes}`);
        else if (roll < 0.3 && pair.serverSessions.size) pair.sendSystem(`s${++systems}`);
        else if (roll < 0.32) pair.connect();
        else if (roll < 0.4) pair.advance(Math.floor(rand() * 300), false);
        for (const dir of ['toServer', 'toClient'] as const) {
          const queue = pair[dir];
          if (!queue.length) continue;
          const fate = rand();
          const index = Math.floor(rand() * Math.min(queue.length, 3));
          if (fate < 0.1) pair.drop(dir, index);
          else if (fate < 0.2) pair.receive(dir, queue[index]);
          else pair.deliverAt(dir, index);
        }
        if (pair.client.isClosed) pair.connect();
      }
      // The network heals: everything must arrive, exactly once, in order.
      pair.flush();
      pair.advance(120_000);
      if (pair.client.isClosed || !pair.client.isOpen) {
        pair.connect();
        pair.flush();
        pair.advance(120_000);
      }
      expect(texts(pair.serverGot)).toEqual(Array.from({ length: notes }, (_, index) => `n${index + 1}`));
      expect(texts(pair.clientGot)).toEqual(Array.from({ length: systems }, (_, index) => `s${index + 1}`));
      expect(pair.clientSession.outbox).toEqual([]);
      // The run really exercised the faults it claims to survive.
      expect(Math.min(notes, systems)).toBeGreaterThan(20);
      expect(pair.sockets).toBeGreaterThan(2);
    },
  );
});

describe('parseFrame', () => {
  const apps: Record<string, z.ZodType<AppMessage>> = CLIENT_APP_SCHEMAS;

  it('accepts valid frames and reports what is wrong with others', () => {
    expect(parseFrame('{"type":"ping"}', 'client', apps)).toEqual({ ok: true, frame: { type: 'ping' } });
    expect(parseFrame('{"type":"note","text":"hi","c":2,"s":1}', 'client', apps)).toEqual({
      ok: true,
      frame: { type: 'note', text: 'hi', c: 2, s: 1 },
    });
    expect(parseFrame('nope', 'client', apps)).toEqual({ ok: false, reason: 'invalid message: not JSON' });
    expect(parseFrame('[1]', 'client', apps)).toEqual({
      ok: false,
      reason: 'invalid message: not an object',
    });
    expect(parseFrame('{"c":1}', 'client', apps)).toEqual({ ok: false, reason: 'invalid message: no type' });
    expect(parseFrame('{"type":"hack","c":1,"s":1}', 'client', apps)).toEqual({
      ok: false,
      reason: 'invalid message: unknown type hack',
    });
    expect(parseFrame('{"type":"welcome","c":0,"s":1}', 'client', apps)).toEqual({
      ok: false,
      reason: 'invalid message: welcome not allowed',
    });
    expect(parseFrame('{"type":"note","text":"hi"}', 'client', apps)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^invalid note: c: /),
    });
    expect(parseFrame('{"type":"request_resend","from":-1}', 'client', apps)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^invalid request_resend: from: /),
    });
    expect(
      parseFrame('{"type":"subscribe","c":1,"s":1,"session":"x","seen":0,"next":1}', 'client', apps),
    ).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^invalid subscribe: session: /),
    });
  });

  it('reads the server messages of the app-wide connection', () => {
    expect(
      parseFrame(
        '{"type":"system_message","message":"Maintenance at 6","c":0,"s":3}',
        'server',
        BASE_SERVER_APP_SCHEMAS,
      ),
    ).toEqual({
      ok: true,
      frame: { type: 'system_message', message: 'Maintenance at 6', c: 0, s: 3 },
    });
    expect(
      parseFrame(
        '{"type":"redirect","base":"ws2.example.org","c":0,"s":1}',
        'server',
        BASE_SERVER_APP_SCHEMAS,
      ),
    ).toEqual({
      ok: true,
      frame: { type: 'redirect', base: 'ws2.example.org', c: 0, s: 1 },
    });
    expect(parseFrame('{"type":"access_denied","c":0,"s":1}', 'server', BASE_SERVER_APP_SCHEMAS).ok).toBe(
      true,
    );
    expect(parseFrame('{"type":"pong"}', 'server', BASE_SERVER_APP_SCHEMAS).ok).toBe(true);
    expect(parseFrame('{"type":"pong"}', 'client', {}).ok).toBe(false);
  });
});

describe('writeCounted (one body for many sockets)', () => {
  /** A server transport driven by hand; `withHook`: its counted frames go through writeCounted. */
  function serverTransport(withHook: boolean) {
    const frames: Frame[] = [];
    const bodies: AppMessage[] = [];
    const sessions = new Map<string, SessionState>();
    const transport = new Transport({
      role: 'server',
      hooks: {
        write: (frame) => frames.push(frame),
        ...(withHook
          ? {
              writeCounted: (body: AppMessage, counters: { c: number; s: number }) => {
                bodies.push(body);
                frames.push({ ...body, ...counters } as Frame);
              },
            }
          : {}),
        deliver: () => {},
        broken: (reason) => {
          throw new Error(reason);
        },
        subscribe: (frame) => subscribedSession(sessions, frame.session),
      },
    });
    return { transport, frames, bodies };
  }

  it('hands each counted frame (replays too) the same body with the counters write() would stamp', () => {
    const shared: AppMessage = { type: 'system_message', message: 'one body' };
    const script = (transport: Transport) => {
      transport.start(0);
      transport.receive({ type: 'subscribe', c: 1, s: 1, session: 'session-a', seen: 0, next: 1 }, 1);
      transport.send(shared, 2);
      transport.send(shared, 3);
      // The peer lost the last frame: it is written again, counters unchanged; and once more when
      // the throttle step runs out without an acknowledgement.
      transport.receive({ type: 'request_resend', from: 3 }, 4);
      transport.tick(1000);
    };
    const hooked = serverTransport(true);
    const plain = serverTransport(false);
    script(hooked.transport);
    script(plain.transport);
    expect(hooked.frames).toEqual(plain.frames);
    expect(plain.frames.filter((frame) => frame.type === 'system_message')).toEqual([
      { type: 'system_message', message: 'one body', c: 1, s: 3 },
      { type: 'system_message', message: 'one body', c: 1, s: 4 },
      { type: 'system_message', message: 'one body', c: 1, s: 4 },
      { type: 'system_message', message: 'one body', c: 1, s: 4 },
    ]);
    // welcome and subscribed are bodies of their own; every send and replay hands the same object.
    expect(hooked.bodies.slice(2)).toHaveLength(4);
    for (const body of hooked.bodies.slice(2)) expect(body).toBe(shared);
  });
});
