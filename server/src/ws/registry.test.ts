import type { AppMessage, SubscribeMessage } from '@scriptorium/common/ws/messages';
import { describe, expect, it } from 'vitest';
import { ConnectionRegistry, type RegisteredConnection } from './registry';

class FakeConnection implements RegisteredConnection {
  readonly sent: AppMessage[] = [];
  superseded: string | null = null;
  terminated = false;
  denied = false;
  isOpen = true;
  lastSeen = 0;
  constructor(
    readonly userId: number,
    readonly sessionHash: string | null = null,
  ) {}
  deny(): void {
    this.denied = true;
  }
  send(message: AppMessage): void {
    this.sent.push(message);
  }
  supersede(reason: string): void {
    this.superseded = reason;
    this.isOpen = false;
  }
  terminate(): void {
    this.terminated = true;
  }
}

const subscribe = (session: string): SubscribeMessage => ({
  type: 'subscribe',
  c: 1,
  s: 1,
  session,
  seen: 0,
  next: 1,
});
const note = (text: string): AppMessage => ({ type: 'system_message', message: text });

function setup(options: ConstructorParameters<typeof ConnectionRegistry>[0] = {}) {
  const clock = { now: 0 };
  const registry = new ConnectionRegistry({ ...options, now: () => clock.now });
  /** A new socket of the user (of the login session `sessionHash`), added to the registry. */
  const connect = (userId: number, sessionHash: string | null = null) => {
    const connection = new FakeConnection(userId, sessionHash);
    registry.add(connection);
    return connection;
  };
  return { registry, clock, connect };
}

describe('ConnectionRegistry', () => {
  it('finds the sockets of ended login sessions, and only those', () => {
    const { registry } = setup();
    const [a, b, c] = [
      new FakeConnection(1, 'hash-a'),
      new FakeConnection(1, 'hash-b'),
      new FakeConnection(2),
    ];
    for (const connection of [a, b, c]) registry.add(connection);
    expect(registry.connectionsOfSessions(['hash-b', 'hash-x'])).toEqual([b]);
    registry.remove(b);
    expect(registry.connectionsOfSessions(['hash-b'])).toEqual([]);
  });

  it('sends to open sessions at once and keeps messages for a session whose socket is gone', () => {
    const { registry, connect } = setup();
    const a = connect(1);
    const b = connect(2);
    const sessionA = registry.attach(a, subscribe('session-aaaa'));
    registry.attach(b, subscribe('session-bbbb'));
    registry.remove(b);
    expect(registry.broadcast(note('hello'))).toBe(2);
    expect(a.sent).toEqual([note('hello')]);
    expect(b.sent).toEqual([]);
    expect(sessionA.outbox).toEqual([]);
    // b's session holds it until its client comes back.
    const back = connect(2);
    const resumed = registry.attach(back, subscribe('session-bbbb'));
    expect(resumed.outbox).toEqual([{ seq: 1, message: note('hello') }]);
  });

  it('hands a session to its newer socket and closes the older one', () => {
    const { registry, connect } = setup();
    const older = connect(1);
    const newer = connect(1);
    const first = registry.attach(older, subscribe('session-aaaa'));
    expect(registry.attach(newer, subscribe('session-aaaa'))).toBe(first);
    expect(older.superseded).toBe('replaced by a newer connection');
    registry.broadcast(note('x'));
    expect(newer.sent).toEqual([note('x')]);
    expect(older.sent).toEqual([]);
  });

  it('never gives one user the session of another', () => {
    const { registry, connect } = setup();
    const owner = connect(1);
    const intruder = connect(2);
    const mine = registry.attach(owner, subscribe('session-aaaa'));
    const theirs = registry.attach(intruder, subscribe('session-aaaa'));
    expect(theirs).not.toBe(mine);
    expect(owner.superseded).toBeNull();
  });

  it('forgets sessions whose client did not come back within the grace period', () => {
    const { registry, clock, connect } = setup({ sessionGraceMs: 1000 });
    const gone = connect(1);
    registry.attach(gone, subscribe('session-aaaa'));
    registry.remove(gone);
    clock.now = 1000;
    registry.sweep();
    expect(registry.sessionCount).toBe(1);
    clock.now = 1001;
    registry.sweep();
    expect(registry.sessionCount).toBe(0);
    registry.close();
  });

  it('drops sockets that stayed silent too long', () => {
    const { registry, clock, connect } = setup({ idleTimeoutMs: 150_000 });
    const quiet = connect(1);
    const chatty = connect(2);
    clock.now = 150_001;
    chatty.lastSeen = 150_000;
    registry.sweep();
    expect(quiet.terminated).toBe(true);
    expect(chatty.terminated).toBe(false);
    registry.close();
  });

  it('gives up a session whose client never acknowledges', () => {
    const { registry, connect } = setup({ maxOutbox: 3 });
    const stuck = connect(1);
    registry.attach(stuck, subscribe('session-aaaa'));
    registry.remove(stuck);
    for (let index = 0; index < 4; index++) registry.broadcast(note(`n${index}`));
    expect(registry.sessionCount).toBe(0);
    registry.close();
  });

  it('counts distinct users and sockets', () => {
    const { registry } = setup();
    for (const userId of [1, 1, 2]) registry.add(new FakeConnection(userId));
    expect(registry.census()).toEqual({
      userIds: [1, 2],
      sockets: 3,
      presence: [
        { userId: 1, scope: 'base', sockets: 2 },
        { userId: 2, scope: 'base', sockets: 1 },
      ],
    });
    registry.close();
  });
});
