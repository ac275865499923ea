import { randomBytes } from 'node:crypto';
import type { AppMessage, SubscribeMessage } from '@scriptorium/common/ws/messages';
import { createSession, enqueue, type SessionState } from '@scriptorium/common/ws/transport';
import { shareBody } from './frame-text';

/** What the registry needs of a connection (ServerConnection implements it). */
export interface RegisteredConnection {
  readonly userId: number;
  /**
   * The endpoint (and id) the socket is on, e.g. 'base' or 'document/12' (default 'base'):
   * sessions of different endpoints never mix, even with the same session id.
   */
  readonly scope?: string;
  readonly sessionHash?: string | null;
  /** The login behind the socket ended: access_denied, then close. */
  deny(): void;
  /** When the peer last sent anything (ms). */
  readonly lastSeen: number;
  readonly isOpen: boolean;
  send(message: AppMessage): void;
  /** A newer socket took over the session, or the session was dropped: close this one. */
  supersede(reason: string): void;
  /** The peer stopped talking: drop the socket without a goodbye. */
  terminate(): void;
}

/** Sockets of one user on one endpoint's topic ('base', 'document/12'). */
export interface PresenceEntry {
  userId: number;
  scope: string;
  sockets: number;
}

/** Who a broadcast may reach. */
export interface SessionTarget {
  userId: number;
  scope: string;
  sessionId: string;
}

interface LiveSession {
  userId: number;
  scope: string;
  state: SessionState;
  connection: RegisteredConnection | null;
  /** When the last socket went away; null while one is attached. */
  detachedAt: number | null;
}

export interface RegistryOptions {
  /** How long a session waits for its client to come back; messages sent meanwhile wait with it. */
  sessionGraceMs?: number;
  /** A session with more unacknowledged messages than this is given up (its client is stuck). */
  maxOutbox?: number;
  /** A socket silent for longer than this is dropped (the client pings after 60 s of silence). */
  idleTimeoutMs?: number;
  onChange?(): void;
  now?(): number;
}

/**
 * The connections of this process and the sessions they carry. A session outlives its socket for
 * a grace period, so that a client coming back after a network cut gets what was sent meanwhile,
 * once, and its own unacknowledged messages are not taken twice.
 */
export class ConnectionRegistry {
  private readonly sessions = new Map<string, LiveSession>();
  /** The same sessions by scope ('base', 'document/12'), so a topic's broadcast visits only its own. */
  private readonly byScope = new Map<string, Map<string, LiveSession>>();
  private readonly connections = new Set<RegisteredConnection>();
  private readonly sessionGraceMs: number;
  private readonly maxOutbox: number;
  private readonly idleTimeoutMs: number;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(private readonly options: RegistryOptions = {}) {
    this.sessionGraceMs = options.sessionGraceMs ?? 120_000;
    this.maxOutbox = options.maxOutbox ?? 1000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 150_000;
    this.sweeper = setInterval(() => this.sweep(), Math.min(30_000, this.sessionGraceMs, this.idleTimeoutMs));
    this.sweeper.unref();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  add(connection: RegisteredConnection): void {
    this.connections.add(connection);
    this.options.onChange?.();
  }

  /** The socket closed. Its session (if any) waits for the client to come back. */
  remove(connection: RegisteredConnection): void {
    if (!this.connections.delete(connection)) return;
    for (const session of this.sessions.values()) {
      if (session.connection === connection) {
        session.connection = null;
        session.detachedAt = this.now();
      }
    }
    this.options.onChange?.();
  }

  /**
   * The session a subscribe names, now carried by `connection`. A session is found only for the
   * same user: guessing another user's session id gives a fresh session, not theirs.
   */
  attach(connection: RegisteredConnection, frame: SubscribeMessage): SessionState {
    // A plain subscribe (no session named) gets a fresh session nobody else can name.
    const id = frame.session ?? randomBytes(16).toString('base64url');
    const key = this.key(connection, id);
    let session = this.sessions.get(key);
    if (session?.connection && session.connection !== connection) {
      // The older socket must not take another message for this session.
      const older = session.connection;
      session.connection = null;
      older.supersede('replaced by a newer connection');
    }
    if (!session) {
      session = {
        userId: connection.userId,
        scope: connection.scope ?? 'base',
        state: createSession(id),
        connection: null,
        detachedAt: null,
      };
      this.keep(key, session);
    }
    session.connection = connection;
    session.detachedAt = null;
    return session.state;
  }

  private keep(key: string, session: LiveSession): void {
    this.sessions.set(key, session);
    let scoped = this.byScope.get(session.scope);
    if (!scoped) {
      scoped = new Map();
      this.byScope.set(session.scope, scoped);
    }
    scoped.set(key, session);
  }

  private drop(key: string): void {
    const session = this.sessions.get(key);
    if (!session) return;
    this.sessions.delete(key);
    const scoped = this.byScope.get(session.scope);
    scoped?.delete(key);
    if (scoped?.size === 0) this.byScope.delete(session.scope);
  }

  private key(connection: RegisteredConnection, sessionId: string): string {
    return `${connection.scope ?? 'base'}\n${connection.userId}:${sessionId}`;
  }

  /** Whether a subscribe would resume a session this process still holds. */
  holds(connection: RegisteredConnection, frame: SubscribeMessage): boolean {
    return frame.session !== undefined && this.sessions.has(this.key(connection, frame.session));
  }

  /**
   * Sends to the sessions of this process that `filter` picks (default: all), of one scope when
   * `scope` names it; a session whose socket is away gets it when its client comes back. The
   * message is serialised once for all of them (frame-text.ts). Returns how many sessions got it.
   */
  broadcast(message: AppMessage, filter?: (target: SessionTarget) => boolean, scope?: string): number {
    const sessions = scope === undefined ? this.sessions : this.byScope.get(scope);
    if (!sessions) return 0;
    shareBody(message);
    let reached = 0;
    for (const [key, session] of sessions) {
      if (filter && !filter({ userId: session.userId, scope: session.scope, sessionId: session.state.id }))
        continue;
      reached += 1;
      if (session.connection?.isOpen) session.connection.send(message);
      else enqueue(session.state, message);
      if (session.state.outbox.length > this.maxOutbox)
        this.dropSession(key, session, 'too many unacknowledged messages');
    }
    return reached;
  }

  private dropSession(key: string, session: LiveSession, reason: string): void {
    this.drop(key);
    session.connection?.supersede(reason);
  }

  /** Forgets sessions whose client did not come back, and drops sockets that went silent. */
  sweep(): void {
    const now = this.now();
    for (const [key, session] of this.sessions) {
      if (session.detachedAt !== null && now - session.detachedAt > this.sessionGraceMs) this.drop(key);
    }
    for (const connection of this.connections) {
      if (now - connection.lastSeen > this.idleTimeoutMs) connection.terminate();
    }
  }

  /** The open sockets on one scope (an endpoint's topic). */
  connectionsOfScope(scope: string): RegisteredConnection[] {
    return [...this.connections].filter((c) => (c.scope ?? 'base') === scope);
  }

  /** Forgets the session of a connection (e.g. its right to the document is gone). */
  forget(connection: RegisteredConnection, sessionId: string): void {
    this.drop(this.key(connection, sessionId));
  }

  /** The open sockets that were admitted with one of these login sessions. */
  connectionsOfSessions(sessionHashes: readonly string[]): RegisteredConnection[] {
    const wanted = new Set(sessionHashes);
    return [...this.connections].filter((c) => c.sessionHash != null && wanted.has(c.sessionHash));
  }

  /**
   * This process's figures for connection_info, and who is on which endpoint's topic ('base',
   * 'document/12') with how many sockets, for the staff's list of connected users.
   */
  census(): { userIds: number[]; sockets: number; presence: PresenceEntry[] } {
    const userIds = new Set<number>();
    const presence = new Map<string, PresenceEntry>();
    for (const connection of this.connections) {
      userIds.add(connection.userId);
      const scope = connection.scope ?? 'base';
      const key = `${connection.userId}\n${scope}`;
      const entry = presence.get(key);
      if (entry) entry.sockets += 1;
      else presence.set(key, { userId: connection.userId, scope, sockets: 1 });
    }
    return {
      userIds: [...userIds].sort((a, b) => a - b),
      sockets: this.connections.size,
      presence: [...presence.values()],
    };
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sessions.clear();
    this.byScope.clear();
  }
}
