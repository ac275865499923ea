import type { AccessRight } from '@scriptorium/common/api/documents';
import { schema } from '@scriptorium/common/editor/schema';
import {
  type ClientDiffMessage,
  type DocumentServerMessage,
  type Participant,
  participant,
  stepJson,
} from '@scriptorium/common/ws/document-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import { z } from 'zod';
import type { AppContext } from '../../../context';
import type { EndpointSocket, EndpointTopic } from '../../../ws/endpoint';
import { latestRevision } from './review';
import { readHead, readSteps, type StoredStep } from './store';

/**
 * The collaboration room: one document as this process holds it (content, version, the latest
 * steps, its editing sessions and the other processes' participants), without sockets. The
 * endpoint (document-endpoint.ts) wires sockets to it; commit.ts is the only writer of the step
 * log, relay.ts sends steps on, presence.ts keeps the participants, review-room.ts answers the
 * comment and revision requests.
 */

export interface DocumentAdmission {
  right: AccessRight;
  isOwner: boolean;
  ownerId: number;
}

export type Socket = EndpointSocket<DocumentServerMessage, DocumentAdmission>;
export type Topic = EndpointTopic<DocumentServerMessage>;

/** Steps a room keeps in memory for catch-ups and rebases; older ones are read from the step log. */
export const RECENT_STEPS = 1000;

/** What processes tell each other about one document (its topic's channel). */
export const topicPayload = z.discriminatedUnion('kind', [
  /** Steps committed at version v (v + ds.length is the new version). */
  z.object({
    kind: z.literal('steps'),
    v: z.number().int().nonnegative(),
    ds: z.array(stepJson).min(1),
    cids: z.array(z.string()).min(1),
  }),
  /** A process's participants of the document; `ask`: the others answer with theirs. */
  z.object({
    kind: z.literal('presence'),
    process: z.string(),
    participants: z.array(participant),
    ask: z.boolean(),
  }),
  /** A comment thread changed (or went): every process tells its editors what they may see. */
  z.object({ kind: z.literal('thread'), thread: z.number().int().positive(), removed: z.boolean() }),
  z.object({
    kind: z.literal('caret'),
    session_id: z.string(),
    id: z.number().int().positive(),
    v: z.number().int().nonnegative(),
    anchor: z.number().int().nonnegative(),
    head: z.number().int().nonnegative(),
  }),
]);
export type TopicPayload = z.infer<typeof topicPayload>;

export interface RemotePresence {
  participants: Participant[];
  heardAt: number;
}

export interface SessionState {
  /** Steps up to this version were sent to the session (doc_data, relays, its own confirms). */
  sentVersion: number;
  participant: Participant;
  tokens: number;
  refilledAt: number;
}

/** A socket of the room's editors, with its editing session: what steps come from and go to. */
export interface Editor {
  socket: Socket;
  room: DocumentRoom;
  session: SessionState;
}

export class DocumentRoom {
  /** Editing sessions of this process, by session id. */
  readonly sessions = new Map<string, SessionState>();
  /** Participants of the other processes, by process id, with when that process last told us. */
  readonly remote = new Map<string, RemotePresence>();
  /** The room's topic, for the presence heartbeat (set when the first socket opens). */
  topic: Topic | null = null;
  /** Diffs handed to the commit queue and not answered yet (see commit.ts). */
  private pending: Promise<void> = Promise.resolve();

  constructor(
    readonly id: number,
    /** The document at `version`. */
    public doc: PMNode,
    public version: number,
    /** The stored content is not a document of the schema: the next commit writes a snapshot. */
    public needsSnapshot: boolean,
    public contentVersion: number,
    /** The latest committed steps (at most RECENT_STEPS): a late diff is answered from memory. */
    public recent: StoredStep[],
    /** The newest revision's version and time: automatic revisions follow from them. */
    public revisedVersion: number,
    public revisedAt: number,
  ) {}

  /** Loads a document's room from the database (null: no such document). */
  static async load(ctx: AppContext, id: number): Promise<DocumentRoom | null> {
    const head = await readHead(ctx.db, id);
    if (!head) return null;
    // Without a valid snapshot (a document never opened) the first commit writes one.
    const after = head.needsSnapshot ? head.version : head.contentVersion;
    let doc = head.snapshot;
    const steps = await readSteps(ctx.db, id, after);
    for (const stored of steps) {
      const result = Step.fromJSON(schema, stored.step).apply(doc);
      if (!result.doc) throw new Error(`step ${stored.version} of document ${id} does not apply`);
      doc = result.doc;
    }
    const revised = await latestRevision(ctx.db, id);
    return new DocumentRoom(
      id,
      doc,
      after + steps.length,
      head.needsSnapshot,
      after,
      steps.slice(-RECENT_STEPS),
      revised?.version ?? 0,
      revised?.created ?? Date.now(),
    );
  }

  /** Takes steps committed here: the document after them is `doc`. */
  take(stored: StoredStep[], doc: PMNode): void {
    this.doc = doc;
    this.version = stored[stored.length - 1].version;
    this.remember(stored);
  }

  /** Keeps committed steps in memory (the newest RECENT_STEPS). */
  remember(steps: StoredStep[]): void {
    this.recent.push(...steps);
    if (this.recent.length > RECENT_STEPS) this.recent.splice(0, this.recent.length - RECENT_STEPS);
  }

  /** The committed steps after version `from` up to the room's version, from memory when it holds them. */
  async stepsAfter(ctx: AppContext, from: number): Promise<StoredStep[]> {
    if (from >= this.version) return [];
    const first = this.recent[0]?.version ?? Number.POSITIVE_INFINITY;
    return first <= from + 1
      ? this.recent.filter((step) => step.version > from)
      : await readSteps(ctx.db, this.id, from, this.version);
  }

  /** Everyone editing the document, here and in the other processes (one entry per session). */
  participants(): Participant[] {
    const all = [
      ...[...this.sessions.values()].map((s) => s.participant),
      ...[...this.remote.values()].flatMap((remote) => remote.participants),
    ];
    return [...new Map(all.map((p) => [p.session_id, p])).values()];
  }

  /** Registers a diff's commit (see commit.ts): settled() waits for it. */
  track(answered: Promise<void>): void {
    const before = this.pending;
    this.pending = Promise.all([before, answered]).then(() => undefined);
  }

  /**
   * Resolves once every diff handed to the commit queue so far is committed and answered. Whatever
   * else reads or changes the room (another message, a relay from another process, a socket
   * opening or closing) waits for it first: the commit queue is the room's only writer meanwhile.
   */
  settled(): Promise<void> {
    return this.pending;
  }
}

/**
 * Whether a late diff is mapped over the steps committed since instead of refused as stale: its
 * sender takes a rebased confirmation, `recent` (the steps kept in memory, ending at `version`)
 * still holds every step since its version (older ones would be read from the step log: such a
 * client is far behind and catches up), and none of those steps is the sender's own. One of its
 * own there means it sent this diff before it knew of an earlier commit (a confirm lost with a
 * socket or a process; the transport's resend after a reconnect): the diff may repeat steps already
 * committed, and only the stale path, where the client confirms its committed steps by their client
 * id first, applies each step once.
 */
export function canRebase(
  recent: readonly StoredStep[],
  version: number,
  message: ClientDiffMessage,
  sessionId: string,
): boolean {
  if (message.rebase !== true) return false;
  const oldestKept = recent[0]?.version ?? version + 1;
  if (message.v < oldestKept - 1) return false;
  return !recent.some((stored) => stored.version > message.v && stored.clientId === sessionId);
}

export function stepsMessage(from: number, steps: StoredStep[]): DocumentServerMessage {
  return { type: 'diff', v: from, ds: steps.map((s) => s.step), cids: steps.map((s) => s.clientId) };
}
