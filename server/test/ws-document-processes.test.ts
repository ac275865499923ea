import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { schema } from '@scriptorium/common/editor/schema';
import type { DocumentServerMessage } from '@scriptorium/common/ws/document-messages';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database';
import { PRESENCE_MISSED_BEATS } from '../src/modules/documents/collab/document-endpoint';
import { createUser } from '../src/modules/user/commands/create-user';
import { DocumentClient } from '../src/ws/document-client';
import { redisPrefix } from '../src/ws/fan-out';
import { loggedInClient, type TestClient } from './harness';
import {
  freePort,
  processEnv,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
  stopServerProcess,
  type TemporaryDatabase,
  temporaryDatabase,
} from './processes';
import { insertSharedDocument } from './seed';
import { TEST_DATABASE_URL as DATABASE_URL, TEST_REDIS_URL as REDIS_URL, servicesForTests } from './services';
import { bodyParagraphStart, cookieHeader, eventually, waitFor, wsUrlBase } from './ws-support';

// The document endpoint across real server processes (src/main.ts as children): two processes
// serving one document through PostgreSQL and Redis, and kill -9 right after a confirmation.

const PASSWORD = 'correct horse battery staple';

const SERVICES = await servicesForTests('the PostgreSQL legs of the multi-process document tests are');

interface Deployment {
  env: Record<string, string>;
  documentId: number;
  /** Reads the stored versions of the document's step log. */
  stepVersions(): Promise<number[]>;
  drop(): Promise<void>;
}

/** The server's presence heartbeat in these tests. */
const HEARTBEAT_MS = 500;

/** Counts, per server process, the presence heartbeats the deployment of `env` publishes through Redis. */
async function countPresenceBeats(env: Record<string, string>) {
  const prefix = redisPrefix({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  const redis = new Redis(REDIS_URL as string);
  const counts = new Map<string, number>();
  redis.on('pmessage', (_pattern: string, _channel: string, text: string) => {
    const payload = JSON.parse(text) as { kind?: string; process?: string; ask?: boolean };
    if (payload.kind === 'presence' && payload.ask === false && payload.process)
      counts.set(payload.process, (counts.get(payload.process) ?? 0) + 1);
  });
  await redis.psubscribe(`${prefix}topic:*`);
  return { counts: () => new Map(counts), stop: () => redis.disconnect() };
}

/** A database with two users (ada owns the document, emmy may write) and one document. */
async function prepare(engine: 'sqlite' | 'postgres'): Promise<Deployment> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-collab-'));
  const postgres: TemporaryDatabase | null =
    engine === 'postgres' ? await temporaryDatabase(DATABASE_URL, 'scriptorium_collab') : null;
  const databaseUrl = postgres?.url;
  const documentId = await seedDatabase({ databaseUrl, dataDir }, async (db) => {
    const users: { id: number }[] = [];
    for (const username of ['ada', 'emmy'])
      users.push(
        await createUser(
          { db },
          { username, email: `${username}@example.org`, password: PASSWORD, emailVerified: true },
        ),
      );
    return insertSharedDocument(db, users[0].id, { userId: users[1].id }, { title: 'Together' });
  });
  return {
    env: processEnv(dataDir, 'collab-test', databaseUrl ? { databaseUrl, redisUrl: REDIS_URL } : undefined),
    documentId,
    async stepVersions() {
      const reader = createDatabase({ databaseUrl, dataDir });
      try {
        const rows = await reader.db
          .selectFrom('document_steps')
          .select('version')
          .where('document_id', '=', documentId)
          .orderBy('version')
          .execute();
        return rows.map((row) => row.version);
      } finally {
        await reader.db.destroy();
      }
    },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}

const login = (on: ServerProcess, username: string) => loggedInClient(on.baseUrl, username, PASSWORD);

function editor(on: { baseUrl: string }, browser: TestClient, documentId: number): DocumentClient {
  return new DocumentClient({
    wsUrlBase: wsUrlBase(on.baseUrl),
    documentId,
    headers: { cookie: cookieHeader(browser), origin: on.baseUrl },
    // Reconnect quickly after the server comes back.
    timing: { reconnectMs: 100 },
  });
}

/** Position inside the body's first paragraph of a client's current document. */
const bodyStart = (client: DocumentClient) => bodyParagraphStart(client.state!.doc);

/**
 * A TCP relay between an editor and a server port, to lose what the server sends at a chosen
 * moment (a confirm on its way when the server dies) and to keep the editor away while others
 * write.
 */
interface Relay {
  baseUrl: string;
  /** Drops what the server sends from now on (the client still reaches the server). */
  muteServer(): void;
  /** Refuses new connections and cuts the open ones. */
  block(): void;
  /** Relays again, both ways. */
  unblock(): void;
  close(): Promise<void>;
}

async function startRelay(target: number): Promise<Relay> {
  let muted = false;
  let blocked = false;
  const open = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    if (blocked) return client.destroy();
    const upstream = net.connect(target, '127.0.0.1');
    open.add(client).add(upstream);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (!muted) client.write(chunk);
    });
    const cut = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('close', cut).on('error', cut);
    upstream.on('close', cut).on('error', cut);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    muteServer: () => {
      muted = true;
    },
    block: () => {
      blocked = true;
      for (const socket of open) socket.destroy();
    },
    unblock: () => {
      blocked = false;
      muted = false;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}

const ENGINES = (['sqlite', 'postgres'] as const).filter((engine) => engine === 'sqlite' || SERVICES);

describe.each(ENGINES)('collaboration across server processes (%s)', (engine) => {
  const children: ServerProcess[] = [];
  const editors: DocumentClient[] = [];
  const deployments: Deployment[] = [];

  afterAll(async () => {
    for (const client of editors) client.close();
    await Promise.all(children.map((child) => stopServerProcess(child)));
    for (const deployment of deployments) await deployment.drop();
  }, 60_000);

  /** A fresh deployment and its first server process, on a port a restart can take again. */
  async function firstProcess() {
    const deployment = await prepare(engine);
    deployments.push(deployment);
    const port = await freePort();
    const first = await startServerProcess(deployment.env, port);
    children.push(first);
    return { deployment, port, first };
  }

  it('keeps a confirmed step through kill -9, and sends the unconfirmed ones after the restart', async () => {
    const { deployment, port, first } = await firstProcess();
    const ada = editor(first, await login(first, 'ada'), deployment.documentId);
    editors.push(ada);
    await ada.open();

    const confirmed = ada.next((message) => message.type === 'confirm_diff');
    ada.edit((tr) => tr.insertText('kept', bodyStart(ada)));
    expect(await confirmed).toMatchObject({ v: 1 });
    // At once after the confirmation: no time for a clean shutdown or a later save.
    await stopServerProcess(first, 'SIGKILL');
    expect(await deployment.stepVersions()).toEqual([1]);

    // Typed while the server is down: unconfirmed, kept by the client.
    ada.edit((tr) => tr.insertText(' and more', bodyStart(ada) + 4));
    const reopened = ada.next((message) => message.type === 'doc_data');
    const second = await startServerProcess(deployment.env, port);
    children.push(second);
    await reopened;
    await ada.settled();
    expect(await deployment.stepVersions()).toEqual([1, 2]);
    expect(ada.state!.doc.textBetween(0, ada.state!.doc.content.size, '\n')).toContain('kept and more');
  }, 120_000);

  it('applies a committed diff whose confirm died with the server exactly once, merged with what others wrote meanwhile', async () => {
    const { deployment, port, first } = await firstProcess();
    const relay = await startRelay(port);
    const ada = editor(
      { ...first, baseUrl: relay.baseUrl },
      await login(first, 'ada'),
      deployment.documentId,
    );
    editors.push(ada);
    await ada.open();
    ada.edit((tr) => tr.insertText('ada', bodyStart(ada)));
    await ada.settled();

    // The next diff reaches the server and is committed; its confirm never reaches ada.
    relay.muteServer();
    ada.edit((tr) => tr.insertText(' wrote', bodyStart(ada) + 3));
    await eventually(
      () => deployment.stepVersions(),
      (versions) => versions.length === 2,
      'the diff committed',
    );
    await stopServerProcess(first, 'SIGKILL');
    relay.block();
    expect(ada.unconfirmed).toBe(1);

    // Emmy writes on the restarted server before ada is back; ada keeps typing meanwhile.
    const second = await startServerProcess(deployment.env, port);
    children.push(second);
    const emmy = editor(second, await login(second, 'emmy'), deployment.documentId);
    editors.push(emmy);
    await emmy.open();
    emmy.edit((tr) => tr.insertText('emmy ', bodyStart(emmy)));
    await emmy.settled();
    ada.edit((tr) => tr.insertText(' more', bodyStart(ada) + 9));

    relay.unblock();
    await ada.next((message) => message.type === 'doc_data');
    await waitFor(() => ada.version === 4 && ada.unconfirmed === 0, 'ada caught up and confirmed');
    await waitFor(() => emmy.version === 4, "emmy has ada's last step");
    expect(await deployment.stepVersions()).toEqual([1, 2, 3, 4]);
    const text = (client: DocumentClient) => {
      const doc = client.state!.doc;
      return doc.textBetween(doc.child(0).nodeSize, doc.content.size, '\n');
    };
    expect(text(ada).trim()).toBe('emmy ada wrote more');
    expect(ada.state!.doc.toJSON()).toEqual(emmy.state!.doc.toJSON());
    await relay.close();
  }, 120_000);

  it('keeps diffs committed together whose confirms died with the server (kill -9): each exactly once after the restart', async () => {
    const { deployment, port, first } = await firstProcess();
    const relays = [await startRelay(port), await startRelay(port)];
    const ada = editor(
      { ...first, baseUrl: relays[0].baseUrl },
      await login(first, 'ada'),
      deployment.documentId,
    );
    const emmy = editor(
      { ...first, baseUrl: relays[1].baseUrl },
      await login(first, 'emmy'),
      deployment.documentId,
    );
    editors.push(ada, emmy);
    await Promise.all([ada.open(), emmy.open()]);

    // Both diffs reach the server at once and are committed; their confirms never arrive.
    for (const relay of relays) relay.muteServer();
    ada.edit((tr) => tr.insertText('ada', bodyStart(ada)));
    emmy.edit((tr) => tr.insertText('emmy', bodyStart(emmy)));
    await eventually(
      () => deployment.stepVersions(),
      (versions) => versions.length === 2,
      'both diffs committed',
    );
    await stopServerProcess(first, 'SIGKILL');
    for (const relay of relays) relay.block();
    expect([ada.unconfirmed, emmy.unconfirmed]).toEqual([1, 1]);

    const second = await startServerProcess(deployment.env, port);
    children.push(second);
    const back = [ada, emmy].map((client) => client.next((message) => message.type === 'doc_data'));
    for (const relay of relays) relay.unblock();
    await Promise.all(back);
    await waitFor(
      () => [ada, emmy].every((client) => client.version === 2 && client.unconfirmed === 0),
      'both caught up, nothing unconfirmed',
    );
    expect(await deployment.stepVersions()).toEqual([1, 2]);
    expect(ada.state!.doc.toJSON()).toEqual(emmy.state!.doc.toJSON());
    const doc = ada.state!.doc;
    const body = doc.textBetween(doc.child(0).nodeSize, doc.content.size, '\n');
    expect(body.match(/ada/g)).toHaveLength(1);
    expect(body.match(/emmy/g)).toHaveLength(1);
    await Promise.all(relays.map((relay) => relay.close()));
  }, 120_000);

  it.skipIf(engine === 'sqlite')(
    "drops the participants of a process killed with -9 from the others' lists",
    async () => {
      const deployment = await prepare(engine);
      deployments.push(deployment);
      // A quick heartbeat (the default is 5 s), so that the dead process is noticed within seconds.
      const env = { ...deployment.env, PRESENCE_HEARTBEAT_MS: String(HEARTBEAT_MS) };
      const beats = await countPresenceBeats(env);
      const one = await startServerProcess(env);
      const two = await startServerProcess(env);
      children.push(one, two);
      const ada = editor(one, await login(one, 'ada'), deployment.documentId);
      const emmy = editor(two, await login(two, 'emmy'), deployment.documentId);
      editors.push(ada, emmy);
      const listed = (message: DocumentServerMessage) =>
        message.type === 'participants' ? message.participants.map((p) => p.username).sort() : null;
      const both = ada.next((message) => listed(message)?.join() === 'ada,emmy');
      await Promise.all([ada.open(), emmy.open()]);
      await both;
      // More beats than a process may miss pass, counted as they cross Redis (not a fixed wait:
      // a starved machine only makes the beats later): a live process stays listed.
      const heard = beats.counts();
      await waitFor(
        () =>
          beats.counts().size === 2 &&
          [...beats.counts()].every(
            ([process, count]) => count - (heard.get(process) ?? 0) > PRESENCE_MISSED_BEATS,
          ),
        'more heartbeats of each process than may be missed',
      );
      beats.stop();
      const latest = () =>
        ada.messages
          .map(listed)
          .filter((names) => names !== null)
          .at(-1);
      expect(latest()).toEqual(['ada', 'emmy']);

      const alone = ada.next((message) => listed(message)?.join() === 'ada');
      await stopServerProcess(two, 'SIGKILL');
      emmy.close();
      await alone;
      expect(latest()).toEqual(['ada']);
    },
    120_000,
  );

  it.skipIf(engine === 'sqlite')(
    'lets two processes serve one document, ordered by the database',
    async () => {
      const deployment = await prepare(engine);
      deployments.push(deployment);
      const one = await startServerProcess(deployment.env);
      const two = await startServerProcess(deployment.env);
      children.push(one, two);
      const ada = editor(one, await login(one, 'ada'), deployment.documentId);
      const emmy = editor(two, await login(two, 'emmy'), deployment.documentId);
      editors.push(ada, emmy);
      await Promise.all([ada.open(), emmy.open()]);
      // Each sees the other in the participants, through Redis.
      await ada.next((m) => m.type === 'participants' && m.participants.length === 2);

      for (let round = 0; round < 10; round++) {
        ada.edit((tr) => tr.insertText('a', bodyStart(ada)));
        emmy.edit((tr) => tr.insertText('e', bodyStart(emmy)));
      }
      await Promise.all([ada.settled(), emmy.settled()]);
      await waitFor(() => ada.version === 20 && emmy.version === 20, 'both at version 20');
      expect(ada.state!.doc.toJSON()).toEqual(emmy.state!.doc.toJSON());
      expect(await deployment.stepVersions()).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
      const doc = ada.state!.doc;
      // The body only: the title ('Together') has letters of its own.
      const text = doc.textBetween(doc.child(0).nodeSize, doc.content.size, '\n');
      expect(text.replace(/[^ae]/g, '').split('').sort().join('')).toBe(`${'a'.repeat(10)}${'e'.repeat(10)}`);
      expect(schema.nodeFromJSON(ada.state!.doc.toJSON()).firstChild?.textContent).toBe('Together');
    },
    120_000,
  );
});
