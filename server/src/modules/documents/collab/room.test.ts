import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AccessRight } from '@scriptorium/common/api/documents';
import { firstParagraphStart } from '@scriptorium/common/editor/testing';
import type {
  DocumentClientMessage,
  DocumentServerMessage,
  StepJson,
} from '@scriptorium/common/ws/document-messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../config';
import type { AppContext } from '../../../context';
import { createDatabase } from '../../../db/database';
import { migrateToLatest } from '../../../db/migrate';
import type { UserRow } from '../../../db/rows';
import { createMailer } from '../../../mail/mailer';
import type { EndpointSocket, EndpointTopic } from '../../../ws/endpoint';
import { createUser } from '../../user/commands/create-user';
import { createDocument } from '../commands/create-document';
import { commitStats } from './commit';
import { createDocumentEndpoint } from './document-endpoint';
import { heardPresence, presenceHeartbeat } from './presence';
import { relay } from './relay';
import { canRebase, type DocumentAdmission, DocumentRoom, type TopicPayload } from './room';
import { currentDocument, freshDocument, readSteps } from './store';

/**
 * The document room without sockets (issue 51): the endpoint's handlers driven directly, with
 * sockets and a topic that keep what they are sent, on a real migrated SQLite database (the commit
 * queue writes through the writer thread). Admission, commit order, relay and presence.
 */

type Sent = DocumentServerMessage;

interface TestSocket extends EndpointSocket<Sent, DocumentAdmission> {
  sent: Sent[];
  denied: boolean;
}

/** One process's view of a document topic: its sockets, and what is published (looped back). */
class TestTopic implements EndpointTopic<Sent> {
  readonly name = 'document';
  readonly members: TestSocket[] = [];
  readonly published: TopicPayload[] = [];

  constructor(
    readonly ctx: AppContext,
    readonly id: number,
  ) {}

  sendLocal(message: Sent, filter?: (target: { userId: number; sessionId: string }) => boolean): void {
    for (const socket of this.members)
      if (!filter || filter({ userId: socket.user.id, sessionId: socket.sessionId }))
        socket.sent.push(message);
  }

  async publish(payload: unknown): Promise<void> {
    this.published.push(payload as TopicPayload);
  }

  sockets() {
    return this.members;
  }
}

let sessions = 0;
function testSocket(topic: TestTopic, user: UserRow, admission: DocumentAdmission): TestSocket {
  const socket: TestSocket = {
    user,
    id: topic.id,
    sessionId: `s${++sessions}`,
    admission,
    topic,
    sent: [],
    denied: false,
    send(message) {
      socket.sent.push(message);
    },
    deny() {
      socket.denied = true;
    },
    close() {},
    readmitted() {},
    connection: undefined as never,
  };
  topic.members.push(socket);
  return socket;
}

const of = <T extends Sent['type']>(socket: TestSocket, type: T) =>
  socket.sent.filter((message): message is Extract<Sent, { type: T }> => message.type === type);

const insert = (at: number, text: string): StepJson =>
  ({ stepType: 'replace', from: at, to: at, slice: { content: [{ type: 'text', text }] } }) as StepJson;

describe('the document room (no sockets)', () => {
  let ctx: AppContext;
  afterEach(async () => {
    vi.useRealTimers();
    await ctx?.db.destroy();
  });

  async function setUp() {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'collab-room-'));
    const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'room-test', PRESENCE_HEARTBEAT_MS: '50' });
    const { db, dialect } = createDatabase(config);
    await migrateToLatest(db, dialect);
    ctx = {
      config,
      db,
      dialect,
      mailer: createMailer(config, { info: () => undefined }),
      state: { ready: true },
    };
    const person = (username: string) =>
      createUser(ctx, {
        username,
        email: `${username}@example.org`,
        password: null,
        firstName: username,
        lastName: '',
      });
    const owner = await person('owner');
    const writer = await person('writer');
    const reader = await person('reader');
    const stranger = await person('stranger');
    const { id } = await createDocument(db, owner.id, {
      title: 'Room',
      path: '',
      content: freshDocument('Room'),
    });
    const share = (userId: number, rights: AccessRight) =>
      db
        .insertInto('document_access')
        .values({
          document_id: id,
          user_id: userId,
          invite_id: null,
          rights,
          path: '',
          created_at: Date.now(),
        })
        .execute();
    await share(writer.id, 'write');
    await share(reader.id, 'read');
    const endpoint = createDocumentEndpoint();
    const topic = new TestTopic(ctx, id);
    /** Admits and opens a socket as the registry would. */
    async function join(user: UserRow): Promise<TestSocket> {
      const admission = await endpoint.admit(ctx, user, id);
      if (!admission) throw new Error('not admitted');
      const socket = testSocket(topic, user, admission);
      await endpoint.opened?.(socket, false);
      return socket;
    }
    const handle = (socket: TestSocket, message: DocumentClientMessage) =>
      endpoint.handle?.(socket, message, Date.now());
    return { id, owner, writer, reader, stranger, endpoint, topic, join, handle };
  }

  it('admits by the right of this moment: owner, write, read; nobody else, and no document without an id', async () => {
    const { id, owner, writer, reader, stranger, endpoint } = await setUp();
    expect(await endpoint.admit(ctx, owner, id)).toEqual({
      right: 'write',
      isOwner: true,
      ownerId: owner.id,
    });
    expect(await endpoint.admit(ctx, writer, id)).toEqual({
      right: 'write',
      isOwner: false,
      ownerId: owner.id,
    });
    expect(await endpoint.admit(ctx, reader, id)).toEqual({
      right: 'read',
      isOwner: false,
      ownerId: owner.id,
    });
    expect(await endpoint.admit(ctx, stranger, id)).toBeNull();
    expect(await endpoint.admit(ctx, owner, null)).toBeNull();
    expect(await endpoint.admit(ctx, owner, id + 1000)).toBeNull();
  });

  it('opens with doc_data: version, right, session and everyone present', async () => {
    const { owner, reader, join } = await setUp();
    const first = await join(owner);
    const second = await join(reader);
    const [data] = of(second, 'doc_data');
    expect(data.doc.v).toBe(0);
    expect(data.doc.title).toBe('Room');
    expect(data.access_right).toBe('read');
    expect(data.is_owner).toBe(false);
    expect(data.session_id).toBe(second.sessionId);
    expect(data.participants.map((p) => p.session_id)).toEqual([first.sessionId, second.sessionId]);
    // The one already there hears of the newcomer.
    expect(
      of(first, 'participants')
        .at(-1)
        ?.participants.map((p) => p.username),
    ).toEqual(['owner', 'reader']);
  });

  it('commits diffs in arrival order in one transaction, rebases the late one, confirms each after the commit and relays each once', async () => {
    const { id, owner, writer, join, handle } = await setUp();
    const a = await join(owner);
    const b = await join(writer);
    const at = firstParagraphStart(freshDocument('Room'));
    const before = { ...commitStats(ctx.db) };
    // Both on version 0: the second is late once the first is in, and is mapped over it.
    await handle(a, { type: 'diff', v: 0, rid: 1, ds: [insert(at, 'one ')], rebase: true });
    await handle(b, { type: 'diff', v: 0, rid: 1, ds: [insert(at, 'two ')], rebase: true });
    await handle(a, { type: 'diff', v: 1, rid: 2, ds: [insert(at, 'three ')], rebase: true });
    // Nothing is answered before the commit.
    expect(of(a, 'confirm_diff')).toEqual([]);
    await handle(a, { type: 'catch_up', v: 3 }); // waits for the room to settle
    const after = commitStats(ctx.db);
    expect(after.transactions - before.transactions).toBe(1);
    expect(after.diffs - before.diffs).toBe(3);
    // a's second diff was made on version 1, before b's step: it too is rebased.
    expect(of(a, 'confirm_diff')).toEqual([
      { type: 'confirm_diff', rid: 1, v: 1 },
      { type: 'confirm_diff', rid: 2, v: 3, base: 2 },
    ]);
    // b gets a's step first (what it missed), then its rebased confirmation.
    const bMessages = b.sent.filter((m) => m.type === 'diff' || m.type === 'confirm_diff');
    expect(bMessages[0]).toMatchObject({ type: 'diff', v: 0, cids: [a.sessionId] });
    expect(bMessages[1]).toEqual({ type: 'confirm_diff', rid: 1, v: 2, base: 1 });
    // Then a's third step, relayed once; a never gets its own steps back.
    expect(bMessages.slice(2)).toMatchObject([{ type: 'diff', v: 2, cids: [a.sessionId] }]);
    expect(of(a, 'diff').flatMap((m) => m.cids)).toEqual([b.sessionId]);
    const stored = await currentDocument(ctx.db, id);
    expect(stored?.version).toBe(3);
    expect(stored?.doc.textContent).toContain('three one two ');
    expect((await readSteps(ctx.db, id, 0)).map((s) => s.clientId)).toEqual([
      a.sessionId,
      b.sessionId,
      a.sessionId,
    ]);
  });

  it('refuses without committing: a read right, a late diff from a client that cannot take a rebase, one ahead', async () => {
    const { owner, reader, join, handle } = await setUp();
    const a = await join(owner);
    const r = await join(reader);
    const at = firstParagraphStart(freshDocument('Room'));
    await handle(r, { type: 'diff', v: 0, rid: 1, ds: [insert(at, 'no ')] });
    await handle(a, { type: 'diff', v: 0, rid: 1, ds: [insert(at, 'yes ')] });
    await handle(a, { type: 'diff', v: 0, rid: 2, ds: [insert(at, 'late ')] });
    await handle(a, { type: 'diff', v: 9, rid: 3, ds: [insert(at, 'ahead ')] });
    await handle(a, { type: 'catch_up', v: 1 });
    expect(of(r, 'reject_diff')).toEqual([{ type: 'reject_diff', rid: 1, reason: 'read_only' }]);
    expect(of(a, 'confirm_diff')).toEqual([{ type: 'confirm_diff', rid: 1, v: 1 }]);
    expect(of(a, 'reject_diff')).toEqual([
      { type: 'reject_diff', rid: 2, reason: 'stale' },
      { type: 'reject_diff', rid: 3, reason: 'ahead' },
    ]);
    expect((await currentDocument(ctx.db, a.id as number))?.version).toBe(1);
  });

  it('relays to each session the steps it has not seen, one message per starting version', () => {
    const doc = freshDocument('Room');
    const at = firstParagraphStart(doc);
    const room = new DocumentRoom(1, doc, 2, false, 0, [], 0, Date.now());
    const topic = new TestTopic(ctx, 1);
    const user = { id: 1 } as UserRow;
    const admission = { right: 'write' as const, isOwner: true, ownerId: 1 };
    const behind = testSocket(topic, user, admission);
    const current = testSocket(topic, user, admission);
    const sender = testSocket(topic, user, admission);
    const session = (sentVersion: number) => ({
      sentVersion,
      participant: { session_id: '', id: 1, name: '', username: '', avatar: null },
      tokens: 1,
      refilledAt: 0,
    });
    room.sessions.set(behind.sessionId, session(1));
    room.sessions.set(current.sessionId, session(2));
    room.sessions.set(sender.sessionId, session(2));
    const steps = [1, 2, 3].map((version) => ({ version, step: insert(at, `${version}`), clientId: 'x' }));
    relay(topic, room, steps, sender.sessionId);
    expect(behind.sent).toEqual([
      { type: 'diff', v: 1, ds: [steps[1].step, steps[2].step], cids: ['x', 'x'] },
    ]);
    expect(current.sent).toEqual([{ type: 'diff', v: 2, ds: [steps[2].step], cids: ['x'] }]);
    expect(sender.sent).toEqual([]);
    expect(room.sessions.get(behind.sessionId)?.sentVersion).toBe(3);
    relay(topic, room, steps);
    expect(behind.sent).toHaveLength(1); // nothing twice
  });

  it('rebases only what the kept steps cover and never over the sender\u2019s own', () => {
    const recent = [2, 3, 4].map((version) => ({
      version,
      step: insert(1, 'x'),
      clientId: version === 4 ? 'me' : 'o',
    }));
    const diff = (v: number, rebase = true) => ({
      type: 'diff' as const,
      v,
      rid: 1,
      ds: [],
      ...(rebase ? { rebase: true as const } : {}),
    });
    expect(canRebase(recent, 4, diff(2), 'you')).toBe(true);
    expect(canRebase(recent, 4, diff(0), 'you')).toBe(false); // step 1 is no longer kept
    expect(canRebase(recent, 4, diff(2, false), 'you')).toBe(false);
    expect(canRebase(recent, 4, diff(2), 'me')).toBe(false); // its own step 4 is among them
    expect(canRebase(recent, 4, diff(4), 'me')).toBe(true);
  });

  it('presence: another process’s participants join the list and go when that process falls silent', async () => {
    const { owner, join, topic } = await setUp();
    const a = await join(owner);
    const room = new DocumentRoom(topic.id, freshDocument('Room'), 0, false, 0, [], 0, Date.now());
    room.sessions.set(a.sessionId, {
      sentVersion: 0,
      participant: { session_id: a.sessionId, id: owner.id, name: 'owner', username: 'owner', avatar: null },
      tokens: 1,
      refilledAt: 0,
    });
    room.topic = topic;
    const far = { session_id: 'far', id: 99, name: 'Far', username: 'far', avatar: null };
    a.sent.length = 0;
    topic.published.length = 0;
    await heardPresence(topic, room, { kind: 'presence', process: 'p2', participants: [far], ask: true });
    expect(
      of(a, 'participants')
        .at(-1)
        ?.participants.map((p) => p.session_id),
    ).toEqual([a.sessionId, 'far']);
    // Asked, this process answers with its own participants.
    expect(topic.published).toEqual([
      {
        kind: 'presence',
        process: 'local',
        participants: [room.sessions.get(a.sessionId)?.participant],
        ask: false,
      },
    ]);
    // Our own announcement coming back changes nothing.
    a.sent.length = 0;
    await heardPresence(topic, room, { kind: 'presence', process: 'local', participants: [], ask: false });
    expect(a.sent).toEqual([]);
    // Three silent heartbeats later the other process's participants are gone.
    vi.useFakeTimers();
    presenceHeartbeat(new Map([[room.id, room]]))(ctx);
    vi.advanceTimersByTime(4 * ctx.config.presenceHeartbeatMs + 1);
    expect(room.remote.size).toBe(0);
    expect(
      of(a, 'participants')
        .at(-1)
        ?.participants.map((p) => p.session_id),
    ).toEqual([a.sessionId]);
  });
});
