import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConnectorTiming } from '@scriptorium/common/ws/connector';
import type { DocumentServerMessage } from '@scriptorium/common/ws/document-messages';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser } from '../src/modules/user/commands/create-user';
import { DocumentClient } from '../src/ws/document-client';
import { loggedInClient } from './harness';
import { NGINX, type RunningNginx, requireNginx, startNginx } from './nginx';
import {
  processEnv,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
  stopServerProcess,
  type TemporaryDatabase,
  temporaryDatabase,
} from './processes';
import { insertSharedDocument, shareDocument } from './seed';
import { servicesForTests, TEST_DATABASE_URL, TEST_REDIS_URL } from './services';
import { bodyParagraphStart, cookieHeader, waitFor, wsUrlBase } from './ws-support';

// Failover as docs/deploy.md sets it up: two server processes on PostgreSQL + Redis behind the
// shipped deploy/nginx.conf in Debian's nginx, two co-authors typing into one document through
// nginx. One process dies (kill -9) or is stopped (SIGTERM); the co-authors go on through the
// other. Needs PostgreSQL, Redis and nginx; skipped without them unless REQUIRE_SERVICES=1.

const PASSWORD = 'correct horse battery staple';
const SERVICES = await servicesForTests('the failover test through nginx is');
requireNginx('the failover test');

/** The presence heartbeat here (default 5 s): a dead process's participants go within 1.5 s. */
const HEARTBEAT_MS = 500;
/** One keystroke per this many ms per co-author. */
const TYPING_MS = 25;

interface Site {
  database: TemporaryDatabase;
  dataDir: string;
  documentId: number;
  processes: ServerProcess[];
  nginx: RunningNginx;
}

async function startSite(): Promise<Site> {
  const database = await temporaryDatabase(TEST_DATABASE_URL, 'scriptorium_failover');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-failover-'));
  const documentId = await seedDatabase({ databaseUrl: database.url, dataDir }, async (db) => {
    const ids: number[] = [];
    for (const username of ['ada', 'emmy', 'carl', 'dora'])
      ids.push(
        (
          await createUser(
            { db },
            { username, email: `${username}@example.org`, password: PASSWORD, emailVerified: true },
          )
        ).id,
      );
    const id = await insertSharedDocument(db, ids[0], { userId: ids[1] }, { title: 'Failover' });
    for (const userId of ids.slice(2)) await shareDocument(db, id, { userId });
    return id;
  });
  const env = {
    ...processEnv(dataDir, 'failover-test', { databaseUrl: database.url, redisUrl: TEST_REDIS_URL }),
    TRUST_PROXY: '127.0.0.1',
    PRESENCE_HEARTBEAT_MS: String(HEARTBEAT_MS),
  };
  const processes = [await startServerProcess(env), await startServerProcess(env)];
  const nginx = await startNginx([processes[0].port, processes[1].port]);
  return { database, dataDir, documentId, processes, nginx };
}

async function stopSite(site: Site): Promise<void> {
  await site.nginx.stop();
  await Promise.all(site.processes.map((child) => stopServerProcess(child)));
  await site.database.drop();
  rmSync(site.dataDir, { recursive: true, force: true });
}

/** A co-author's editor on `base` (nginx, or one process directly), counting its confirmations. */
class Author {
  readonly client: DocumentClient;
  /** Local steps confirmed so far, and when the latest confirmation came. */
  confirmed = 0;
  confirmedAt = 0;
  typed = 0;
  /** The most steps waiting for a confirmation at once after `watchFrom`. */
  mostUnconfirmed = 0;
  watchFrom = Number.POSITIVE_INFINITY;
  private typing: Promise<void> | null = null;
  private running = false;

  constructor(
    readonly name: string,
    base: string,
    cookie: string,
    documentId: number,
    timing?: Partial<ConnectorTiming>,
  ) {
    this.client = new DocumentClient({
      wsUrlBase: wsUrlBase(base),
      documentId,
      headers: { cookie, origin: base },
      timing,
      onConfirmed: (steps) => {
        this.confirmed += steps;
        this.confirmedAt = performance.now();
      },
    });
  }

  /** Types `letter` at the start of the body every TYPING_MS until stopped, connected or not. */
  startTyping(letter: string): void {
    this.running = true;
    this.typing = (async () => {
      while (this.running) {
        this.client.edit((tr) => tr.insertText(letter, bodyParagraphStart(tr.doc)));
        this.typed += 1;
        if (performance.now() >= this.watchFrom)
          this.mostUnconfirmed = Math.max(this.mostUnconfirmed, this.client.unconfirmed);
        await new Promise((resolve) => setTimeout(resolve, TYPING_MS));
      }
    })();
  }

  close(): void {
    this.running = false;
    this.client.close();
  }

  async stopTyping(): Promise<void> {
    this.running = false;
    await this.typing;
  }

  /** The user names of the latest participants list this editor got. */
  participants(): string[] {
    const lists = this.client.messages.flatMap((message: DocumentServerMessage) =>
      message.type === 'participants' || message.type === 'doc_data' ? [message.participants] : [],
    );
    return (lists.at(-1) ?? []).map((participant) => participant.username).sort();
  }

  /** How many times the server opened the document for this editor (1 + its reconnects). */
  get opened(): number {
    return this.client.messages.filter((message) => message.type === 'doc_data').length;
  }
}

/** The body's text (after the title) of an editor's document. */
function bodyText(client: DocumentClient): string {
  const doc = client.state!.doc;
  return doc.textBetween(doc.child(0).nodeSize, doc.content.size, '\n');
}

const count = (text: string, letter: string) => text.split(letter).length - 1;

/**
 * The process that serves the most of the co-authors' sockets, read from the request log each
 * process writes (nginx places each socket on one of the two).
 */
function busiestProcess(site: Site): number {
  const upgrades = site.processes.map(
    ({ output }) =>
      output
        .join('')
        .split('\n')
        .filter(
          (line) => line.includes('incoming request') && line.includes(`/ws/document/${site.documentId}/`),
        ).length,
  );
  return upgrades[0] >= upgrades[1] ? 0 : 1;
}

/**
 * Two co-authors typing through nginx, carl sitting in the document on the process about to go;
 * `stop` takes that process away; both co-authors get a confirmed edit after it, then stop typing.
 * Returns the authors, the gap from the stop to each one's next confirmation (ms) and the process
 * that went.
 */
async function typeThrough(
  site: Site,
  stop: (victim: ServerProcess) => Promise<void>,
  timing?: Partial<ConnectorTiming>,
) {
  const cookie = async (username: string) =>
    cookieHeader(await loggedInClient(site.nginx.baseUrl, username, PASSWORD));
  const ada = new Author('ada', site.nginx.baseUrl, await cookie('ada'), site.documentId, timing);
  const emmy = new Author('emmy', site.nginx.baseUrl, await cookie('emmy'), site.documentId, timing);
  authors.push(ada, emmy);
  await Promise.all([ada.client.open(), emmy.client.open()]);
  const victim = site.processes[busiestProcess(site)];
  // carl is on the process that goes, straight (not through nginx), and does not come back.
  const carl = new Author('carl', victim.baseUrl, await cookie('carl'), site.documentId);
  authors.push(carl);
  await carl.client.open();
  await waitFor(
    () => [ada, emmy].every((author) => author.participants().join() === 'ada,carl,emmy'),
    'everyone listed everywhere',
  );

  ada.startTyping('q');
  emmy.startTyping('z');
  await waitFor(() => ada.confirmed >= 5 && emmy.confirmed >= 5, 'both typing and confirmed');
  const stoppedAt = performance.now();
  ada.watchFrom = emmy.watchFrom = stoppedAt;
  await stop(victim);
  // Gone with its process, without a goodbye (its reconnect would fail anyway: its address is
  // the process's own).
  carl.close();
  await waitFor(
    () => ada.confirmedAt > stoppedAt && emmy.confirmedAt > stoppedAt,
    'a confirmed edit of each co-author after the process went',
  );
  const gaps = [ada, emmy].map((author) => author.confirmedAt - stoppedAt);
  await Promise.all([ada.stopTyping(), emmy.stopTyping()]);
  await Promise.all([ada.client.settled(), emmy.client.settled()]);
  return { ada, emmy, gaps, victim };
}

const authors: Author[] = [];
const sites: Site[] = [];

afterEach(async () => {
  for (const author of authors.splice(0)) author.close();
  for (const site of sites.splice(0)) await stopSite(site);
}, 60_000);

/** What must hold after either kind of stop: nothing confirmed lost, nothing doubled, presence right. */
async function expectNothingLost(site: Site, ada: Author, emmy: Author) {
  await waitFor(() => ada.client.version === emmy.client.version, 'both at the same version');
  expect(ada.client.state!.doc.toJSON()).toEqual(emmy.client.state!.doc.toJSON());
  // Every keystroke of both is confirmed (settled) and in the document, once.
  expect([ada.client.unconfirmed, emmy.client.unconfirmed]).toEqual([0, 0]);
  const text = bodyText(ada.client);
  expect(count(text, 'q')).toBe(ada.typed);
  expect(count(text, 'z')).toBe(emmy.typed);
  // And stored: a new editor through nginx reads the same document from the database.
  const reader = new Author(
    'dora',
    site.nginx.baseUrl,
    cookieHeader(await loggedInClient(site.nginx.baseUrl, 'dora', PASSWORD)),
    site.documentId,
  );
  authors.push(reader);
  await reader.client.open();
  expect(reader.client.version).toBe(ada.typed + emmy.typed);
  expect(reader.client.state!.doc.toJSON()).toEqual(ada.client.state!.doc.toJSON());
  // carl's session died with its process: the others drop it (the heartbeat); dora is new.
  await waitFor(
    () => [ada, emmy, reader].every((author) => author.participants().join() === 'ada,dora,emmy'),
    'the lists: ada, emmy and dora, without carl',
  );
  const sessions = (author: Author) =>
    author.client.messages
      .flatMap((message) => (message.type === 'participants' ? [message.participants] : []))
      .at(-1)
      ?.map((participant) => participant.session_id)
      .sort();
  expect(sessions(ada)).toEqual(sessions(emmy));
  expect(sessions(ada)).toHaveLength(3);
}

describe.skipIf(!SERVICES || !NGINX)('failover: two processes behind nginx', () => {
  it('a process killed with -9: both co-authors go on through the other, nothing confirmed lost', async () => {
    const site = await startSite();
    sites.push(site);
    // The connector's own reconnect delay (2 s), as in the browser.
    const { ada, emmy, gaps, victim } = await typeThrough(site, (victim) =>
      stopServerProcess(victim, 'SIGKILL'),
    );
    console.info(
      `failover after kill -9: next confirmed edit after ${gaps.map((gap) => gap.toFixed(0)).join(' and ')} ms`,
    );
    expect(victim.child.signalCode).toBe('SIGKILL');
    // At least one of them was on the dead process: it reconnected, and what it typed meanwhile
    // waited unconfirmed and was sent on the new socket.
    const moved = [ada, emmy].filter((author) => author.opened > 1);
    expect(moved.length).toBeGreaterThan(0);
    for (const author of moved) expect(author.mostUnconfirmed).toBeGreaterThan(0);
    await expectNothingLost(site, ada, emmy);
  }, 120_000);

  it('a process stopped with SIGTERM: it finishes its commits and sends its editors away at once', async () => {
    const site = await startSite();
    sites.push(site);
    // A reconnect delay far beyond this test's waits: they are back only because the stopping
    // process closed their sockets as "going away", which the connector follows at once.
    const { ada, emmy, gaps, victim } = await typeThrough(
      site,
      (victim) => stopServerProcess(victim, 'SIGTERM'),
      { reconnectMs: 600_000 },
    );
    console.info(
      `failover after SIGTERM: next confirmed edit after ${gaps.map((gap) => gap.toFixed(0)).join(' and ')} ms`,
    );
    expect(victim.child.exitCode).toBe(0);
    expect([ada, emmy].some((author) => author.opened > 1)).toBe(true);
    await expectNothingLost(site, ada, emmy);
  }, 120_000);
});
