import {
  type AccessDeniedMessage,
  type AckMessage,
  type AppMessage,
  type Counters,
  type Frame,
  isAppFrame,
  type PeerFrame,
  type PongMessage,
  type RedirectMessage,
  type RestartMessage,
  type SubscribeMessage,
} from './messages';
import { DEFAULT_TRANSPORT_TIMING, type TransportTiming } from './timing';

/**
 * The websocket transport of both sides, as a pure state machine: no timers, no sockets. The
 * driver (the browser's WebSocketConnector, the server's connection) hands it frames and the
 * current time, writes what it asks to write, and calls tick() at nextDeadline().
 *
 * Two layers:
 *   - per socket (one Transport per socket, so the counters start at 0 on every new socket):
 *     counters c and s, the last sent messages for replay, a reorder buffer, duplicate
 *     suppression, request_resend, acknowledgements and the send throttle;
 *   - per session (SessionState, handed from socket to socket): the application messages not yet
 *     acknowledged and how many the peer's were taken. The handshake exchanges these numbers, so
 *     after a reconnect what was never sent or never acknowledged goes out once subscribed, and
 *     what the peer already has is not sent again.
 */

export type Role = 'client' | 'server';

export interface OutboxEntry {
  /** Session-wide number of this application message (1, 2, ...). */
  seq: number;
  message: AppMessage;
}

/** One side's memory of a session; it outlives sockets. */
export interface SessionState {
  readonly id: string;
  /** Session number of this side's newest application message. */
  appSent: number;
  /** Application messages of the peer taken (delivered) in this session. */
  appReceived: number;
  /** Application messages not yet acknowledged by the peer (sent or not), oldest first, numbered without gaps. */
  outbox: OutboxEntry[];
}

export function createSession(id: string): SessionState {
  return { id, appSent: 0, appReceived: 0, outbox: [] };
}

/** Queues an application message in a session, whether or not a socket carries it right now. */
export function enqueue(session: SessionState, message: AppMessage): number {
  session.appSent += 1;
  session.outbox.push({ seq: session.appSent, message });
  return session.appSent;
}

/**
 * Brings a session's outbox in line with what the peer says it has taken (`peerSeen`): what it
 * has is dropped, the rest is numbered on from there.
 */
function alignOutbox(session: SessionState, peerSeen: number): void {
  const rest = session.outbox.filter((entry) => entry.seq > peerSeen);
  session.outbox = rest.map((entry, index) => ({ seq: peerSeen + 1 + index, message: entry.message }));
  session.appSent = peerSeen + rest.length;
}

export interface TransportHooks<In extends AppMessage = AppMessage> {
  /** Puts one frame on the socket. */
  write(frame: Frame): void;
  /**
   * Puts one counted frame on the socket: `body` with this socket's counters, as write() would
   * put `{ ...body, c, s }`. Optional: a driver that writes one body to many sockets (the
   * server's relay) serialises the body once and adds only the counters per socket. The same
   * body object is handed again on a replay.
   */
  writeCounted?(body: AppMessage, counters: Counters): void;
  /** One application message of the peer, in order and once. */
  deliver(message: In & Counters): void;
  /** Frames for the driver itself: pong (client), access_denied and redirect (client). */
  control?(frame: PongMessage | AccessDeniedMessage | RedirectMessage): void;
  /** The handshake is complete. */
  opened?(): void;
  /**
   * The socket cannot go on (the peer sent a restart, we sent one, or the peer broke the
   * protocol). The driver closes it; the session survives for the next socket.
   */
  broken(reason: string): void;
  /**
   * Server only: the session a subscribe names. Return the existing one (after detaching it from
   * any older socket) or a new one made with createSession().
   */
  subscribe?(frame: SubscribeMessage): SessionState;
}

export interface TransportOptions<In extends AppMessage = AppMessage> {
  role: Role;
  /** Required for the client; the server learns its session from the subscribe message. */
  session?: SessionState;
  hooks: TransportHooks<In>;
  timing?: Partial<TransportTiming>;
  /** How many sent messages may await acknowledgement at once (default: the history size). */
  window?: number;
  /** Out-of-order frames kept while a gap is being filled. */
  reorderLimit?: number;
}

interface SentRecord {
  counter: number;
  sentAt: number;
  /** Replayed at least once: its confirmation says nothing about the round trip (Karn). */
  replayed: boolean;
  body: AppMessage;
  /** Session number when the frame is an application message. */
  seq: number | null;
}

type Phase = 'idle' | 'handshake' | 'open' | 'closed';

export interface TransportStats {
  phase: Phase;
  sent: number;
  received: number;
  /** How many of our counted frames the peer has confirmed. */
  acknowledged: number;
  /** Application messages of the session not yet acknowledged. */
  unacknowledged: number;
}

/** `In`: the peer's application messages, as the driver's parseFrame() read them. */
export class Transport<In extends AppMessage = AppMessage> {
  readonly role: Role;
  private session: SessionState | null;
  private readonly hooks: TransportHooks<In>;
  private readonly timing: TransportTiming;
  private readonly window: number;
  private readonly reorderLimit: number;

  private phase: Phase = 'idle';
  /** Our counted frames sent on this socket (c for the client, s for the server). */
  private sent = 0;
  /** The peer's counted frames taken in order on this socket. */
  private received = 0;
  /** How many of our counted frames the peer has confirmed. */
  private peerAck = 0;
  /** The highest counter the peer has shown us; above `received` means frames are missing. */
  private peerSent = 0;
  /** `received` as last told to the peer. */
  private reported = 0;
  private readonly history: SentRecord[] = [];
  private readonly buffer = new Map<number, PeerFrame<In> & Counters>();
  /** Highest session number written on this socket. */
  private lastSentSeq = 0;
  private subscribeSent = false;

  private ackDueAt: number | null = null;
  private retryAt: number | null = null;
  private retryDelay: number;
  /** Smoothed round trip (send to confirmation), once measured. */
  private smoothedRtt: number | null = null;
  /** `received` when we last asked for a resend, so one gap is not asked for on every frame. */
  private gapRequestedAt: number | null = null;

  constructor(options: TransportOptions<In>) {
    this.role = options.role;
    this.session = options.session ?? null;
    this.hooks = options.hooks;
    this.timing = { ...DEFAULT_TRANSPORT_TIMING, ...options.timing };
    this.window = options.window ?? this.timing.historySize;
    this.reorderLimit = options.reorderLimit ?? 1000;
    this.retryDelay = this.timing.throttleStartMs;
    if (this.role === 'client' && !this.session) throw new Error('A client transport needs a session');
  }

  get isOpen(): boolean {
    return this.phase === 'open';
  }

  get isClosed(): boolean {
    return this.phase === 'closed';
  }

  get sessionState(): SessionState | null {
    return this.session;
  }

  get stats(): TransportStats {
    return {
      phase: this.phase,
      sent: this.sent,
      received: this.received,
      acknowledged: this.peerAck,
      unacknowledged: this.session?.outbox.length ?? 0,
    };
  }

  /** The socket is open: the server greets, the client waits for the greeting. */
  start(now: number): void {
    if (this.phase !== 'idle') return;
    this.phase = 'handshake';
    if (this.role === 'server') this.sendCounted({ type: 'welcome' }, null, now);
  }

  /** Queues an application message; it goes out as soon as the handshake and the window allow. */
  send(message: AppMessage, now: number): void {
    if (!this.session) throw new Error('No session yet: the client has not subscribed');
    enqueue(this.session, message);
    this.flush(now);
  }

  /** Writes queued application messages while the window has room. */
  flush(now: number): void {
    const session = this.session;
    if (this.phase !== 'open' || !session) return;
    while (this.sent - this.peerAck < this.window) {
      const first = session.outbox[0];
      if (!first) break;
      const entry = session.outbox[Math.max(0, this.lastSentSeq + 1 - first.seq)];
      if (!entry) break;
      this.lastSentSeq = entry.seq;
      this.sendCounted(entry.message, entry.seq, now);
    }
  }

  /** The socket closed (or is being dropped): nothing more goes in or out. */
  close(): void {
    this.phase = 'closed';
    this.ackDueAt = null;
    this.retryAt = null;
    this.buffer.clear();
  }

  /** The earliest time tick() has something to do, or null. */
  nextDeadline(): number | null {
    if (this.phase === 'closed') return null;
    if (this.ackDueAt === null) return this.retryAt;
    if (this.retryAt === null) return this.ackDueAt;
    return Math.min(this.ackDueAt, this.retryAt);
  }

  tick(now: number): void {
    if (this.phase === 'closed') return;
    if (this.ackDueAt !== null && now >= this.ackDueAt) {
      this.ackDueAt = null;
      this.writeStamped('ack');
    }
    if (this.retryAt !== null && now >= this.retryAt) this.fireRetry(now);
  }

  /** One frame from the peer, already validated by parseFrame(). */
  receive(frame: PeerFrame<In>, now: number): void {
    if (this.phase === 'closed' || this.phase === 'idle') return;
    switch (frame.type) {
      case 'ping':
        if (this.role === 'server') this.hooks.write({ type: 'pong' });
        return;
      case 'pong':
        this.hooks.control?.(frame as PongMessage);
        return;
      case 'request_resend': {
        const from = (frame as { from: number }).from;
        if (!this.acknowledge(from, now)) return;
        this.replay(from, now);
        return;
      }
      case 'restart':
        this.fail('the peer asked for a restart', false);
        return;
      case 'ack':
        this.noteStamp(frame as Frame & Counters, now);
        return;
      case 'access_denied':
      case 'redirect':
        if (this.role !== 'client') return;
        this.noteStamp(frame as Frame & Counters, now);
        if (!this.isClosed) this.hooks.control?.(frame as AccessDeniedMessage | RedirectMessage);
        return;
    }
    this.receiveCounted(frame as PeerFrame<In> & Counters, now);
  }

  private myCounter(frame: Counters): number {
    return this.role === 'client' ? frame.c : frame.s;
  }

  private peerCounter(frame: Counters): number {
    return this.role === 'client' ? frame.s : frame.c;
  }

  private stamp<T extends { type: string }>(body: T, mine: number): T & Counters {
    return this.role === 'client'
      ? { ...body, c: mine, s: this.received }
      : { ...body, c: this.received, s: mine };
  }

  private receiveCounted(frame: PeerFrame<In> & Counters, now: number): void {
    if (!this.acknowledge(this.myCounter(frame), now)) return;
    const counter = this.peerCounter(frame);
    this.peerSent = Math.max(this.peerSent, counter);
    if (counter <= this.received) {
      // A duplicate (a replay, or the network's): drop it, and tell the sender at once what we
      // have so that it stops resending.
      this.ackDueAt = now;
      return;
    }
    if (counter > this.received + 1) {
      if (this.buffer.size < this.reorderLimit) this.buffer.set(counter, frame);
      this.requestGap(now);
      this.rearm(now);
      return;
    }
    this.take(frame, now);
    for (let next = this.buffer.get(this.received + 1); next; next = this.buffer.get(this.received + 1)) {
      this.buffer.delete(this.received + 1);
      this.take(next, now);
    }
    if (this.phase === 'closed') return;
    if (this.peerSent > this.received) this.requestGap(now);
    if (this.received > this.reported) this.scheduleAck(now, this.timing.ackDelayMs);
    this.rearm(now);
  }

  /** Takes the next in-order counted frame. */
  private take(frame: PeerFrame<In> & Counters, now: number): void {
    if (this.phase === 'closed') return;
    this.received += 1;
    switch (frame.type) {
      case 'welcome':
        if (this.role !== 'client' || this.subscribeSent) {
          this.fail('unexpected welcome', true);
          return;
        }
        this.subscribeSent = true;
        this.sendSubscribe(now);
        return;
      case 'subscribe':
        if (this.role !== 'server' || this.phase !== 'handshake') {
          this.fail('unexpected subscribe', true);
          return;
        }
        this.acceptSubscribe(frame as SubscribeMessage, now);
        return;
      case 'subscribed': {
        const session = this.session;
        if (this.role !== 'client' || !this.subscribeSent || this.phase !== 'handshake' || !session) {
          this.fail('unexpected subscribed', true);
          return;
        }
        const seen = (frame as { seen: number }).seen;
        alignOutbox(session, seen);
        this.lastSentSeq = seen;
        this.open(now);
        return;
      }
    }
    if (this.phase !== 'open' || !this.session) {
      this.fail(`${frame.type} before the handshake`, true);
      return;
    }
    if (!isAppFrame(frame)) return;
    this.session.appReceived += 1;
    this.hooks.deliver(frame);
  }

  private sendSubscribe(now: number): void {
    const session = this.session!;
    const next = session.outbox[0]?.seq ?? session.appSent + 1;
    this.sendCounted({ type: 'subscribe', session: session.id, seen: session.appReceived, next }, null, now);
  }

  private acceptSubscribe(frame: SubscribeMessage, now: number): void {
    const session = this.hooks.subscribe?.(frame);
    if (!session) {
      this.fail('no session handler', true);
      return;
    }
    this.session = session;
    // What the client already has of ours is dropped; what it says it delivered to us (and so
    // dropped from its outbox) counts as taken, even if this process never saw it.
    // A plain subscribe (no resume fields) has seen nothing and delivered nothing yet.
    const seen = frame.seen ?? 0;
    const next = frame.next ?? 1;
    alignOutbox(session, seen);
    session.appReceived = Math.max(session.appReceived, next - 1);
    this.lastSentSeq = seen;
    this.sendCounted({ type: 'subscribed', seen: session.appReceived }, null, now);
    this.open(now);
  }

  private open(now: number): void {
    this.phase = 'open';
    this.hooks.opened?.();
    this.flush(now);
  }

  /**
   * The peer has taken `count` of our counted frames. Returns false when the transport failed
   * (the peer confirmed frames we never sent).
   */
  private acknowledge(count: number, now: number): boolean {
    if (count > this.sent) {
      this.fail(`acknowledged ${count} messages, only ${this.sent} sent`, true);
      return false;
    }
    if (count <= this.peerAck) return true;
    this.peerAck = count;
    const newest = this.history.find((record) => record.counter === count);
    // Karn: a confirmation of a replayed frame measures nothing, and the step that finally got
    // through is kept for the next frame, so that a slow link is not flooded again.
    const keepStep = newest?.replayed === true;
    if (newest && !newest.replayed) {
      const sample = Math.max(0, now - newest.sentAt);
      this.smoothedRtt = this.smoothedRtt === null ? sample : 0.875 * this.smoothedRtt + 0.125 * sample;
    }
    const session = this.session;
    if (session) {
      let confirmedSeq = 0;
      for (const record of this.history) {
        if (record.counter <= count && record.seq !== null) confirmedSeq = Math.max(confirmedSeq, record.seq);
      }
      while (session.outbox.length && session.outbox[0].seq <= confirmedSeq) session.outbox.shift();
    }
    // What the peer confirmed is never replayed (replay starts after peerAck): not kept, so that a
    // confirmed doc_data (a whole document) does not stay with each idle socket.
    while (this.history.length && this.history[0].counter <= count) this.history.shift();
    if (!keepStep) this.retryDelay = this.firstStep();
    else if (newest) {
      // The time since the first copy bounds the round trip from above: wait at least that long.
      const elapsed = Math.ceil(now - newest.sentAt) + this.timing.ackDelayMs;
      this.retryDelay = Math.min(this.timing.throttleMaxMs, Math.max(this.retryDelay, elapsed));
    }
    this.retryAt = null;
    this.flush(now);
    this.rearm(now);
    return true;
  }

  /** A stamped frame shows how far the peer is: a confirmation for us, maybe a gap at our end. */
  private noteStamp(frame: Frame & Counters, now: number): void {
    if (!this.acknowledge(this.myCounter(frame), now)) return;
    const counter = this.peerCounter(frame);
    if (counter > this.peerSent) this.peerSent = counter;
    if (this.peerSent > this.received) {
      this.requestGap(now);
      this.rearm(now);
    }
  }

  /** Resends our frames after the peer's `from`; if they are no longer kept, a restart. */
  private replay(from: number, now: number): void {
    const start = Math.max(from, this.peerAck);
    const missing = this.sent - start;
    if (missing <= 0) return;
    const records = this.history.filter((record) => record.counter > start);
    if (records.length < missing) {
      this.fail(`the peer misses ${missing} messages, only ${this.history.length} kept`, true);
      return;
    }
    for (const record of records) {
      record.replayed = true;
      this.writeCounted(record.body, record.counter);
    }
    this.reported = this.received;
    this.ackDueAt = null;
    this.rearm(now);
  }

  private requestGap(now: number): void {
    if (this.gapRequestedAt === this.received) return;
    this.gapRequestedAt = this.received;
    this.hooks.write({ type: 'request_resend', from: this.received });
    this.reported = this.received;
    this.ackDueAt = null;
    this.rearm(now);
  }

  private sendCounted(body: AppMessage, seq: number | null, now: number): void {
    this.sent += 1;
    const record: SentRecord = { counter: this.sent, sentAt: now, replayed: false, body, seq };
    this.history.push(record);
    if (this.history.length > this.timing.historySize) this.history.shift();
    this.writeCounted(body, this.sent);
    // The frame carries our `received`: no separate acknowledgement needed.
    this.reported = this.received;
    this.ackDueAt = null;
    this.rearm(now);
  }

  /** A counted frame (ours number `mine`), through the driver's writeCounted when it has one. */
  private writeCounted(body: AppMessage, mine: number): void {
    if (!this.hooks.writeCounted) {
      this.hooks.write(this.stamp(body, mine));
      return;
    }
    this.hooks.writeCounted(
      body,
      this.role === 'client' ? { c: mine, s: this.received } : { c: this.received, s: mine },
    );
  }

  private writeStamped(type: 'ack' | 'restart'): void {
    const frame: AckMessage | RestartMessage = this.stamp({ type }, this.sent);
    this.hooks.write(frame);
    this.reported = this.received;
  }

  private scheduleAck(now: number, delay: number): void {
    const due = now + delay;
    this.ackDueAt = this.ackDueAt === null ? due : Math.min(this.ackDueAt, due);
  }

  private outstanding(): boolean {
    return this.sent > this.peerAck || this.buffer.size > 0 || this.peerSent > this.received;
  }

  /**
   * The throttle's first step: 80 ms, or longer on a slow link (twice the measured round trip
   * plus the peer's acknowledgement delay), so that a distant peer is not sent everything twice.
   */
  private firstStep(): number {
    const start = this.timing.throttleStartMs;
    if (this.smoothedRtt === null) return start;
    return Math.min(
      this.timing.throttleMaxMs,
      Math.max(start, Math.ceil(2 * this.smoothedRtt + this.timing.ackDelayMs)),
    );
  }

  /** Keeps the throttle timer running exactly while something awaits the peer. */
  private rearm(now: number): void {
    if (this.phase === 'closed') return;
    if (!this.outstanding()) {
      this.retryAt = null;
    } else if (this.retryAt === null) {
      this.retryAt = now + this.retryDelay;
    }
  }

  /**
   * The throttle step ran out without progress: the peer has seen fewer of our frames than were
   * sent, so the missing ones are replayed; and a gap at our end is asked for again. Each
   * unsuccessful step waits 1.2 times longer, up to 10 s.
   */
  private fireRetry(now: number): void {
    this.retryAt = null;
    this.retryDelay = Math.min(this.retryDelay * this.timing.throttleFactor, this.timing.throttleMaxMs);
    if (this.sent > this.peerAck) {
      this.replay(this.peerAck, now);
      if (this.phase === 'closed') return;
    }
    if (this.buffer.size > 0 || this.peerSent > this.received) {
      this.gapRequestedAt = null;
      this.requestGap(now);
    }
    this.rearm(now);
  }

  private fail(reason: string, notifyPeer: boolean): void {
    if (this.phase === 'closed') return;
    if (notifyPeer) this.writeStamped('restart');
    this.close();
    this.hooks.broken(reason);
  }
}
