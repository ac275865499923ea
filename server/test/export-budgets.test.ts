import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { referenceManagersDocx } from '@scriptorium/common/import/testing/word';
import { Redis } from 'ioredis';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument } from '../src/modules/documents/commands/create-document';
import {
  type PageReadiness,
  Printer,
  PrintTimeLimit,
  printerFor,
} from '../src/modules/documents/export/printer';
import { createUser } from '../src/modules/user/commands/create-user';
import { redisPrefix } from '../src/ws/fan-out';
import {
  ENGINES,
  loggedInClient,
  type TestClient,
  type TestResponse,
  type TestServer,
  useServer,
} from './harness';
import {
  processEnv,
  seedDatabase,
  startServerProcess,
  stopServerProcess,
  type TemporaryDatabase,
  temporaryDatabase,
} from './processes';
import { servicesForTests, TEST_DATABASE_URL, TEST_REDIS_URL } from './services';
import { eventually } from './ws-support';

/**
 * Issue 50: exports run in the export worker pool and the pooled printer, within their budgets,
 * one at a time per user. A test holds a PDF export running for as long as it needs by holding the
 * printer's work (`heldPrints`): the export has its browser context and waits there until the test
 * lets it go on typesetting.
 */

const PAPER = fixturePaper(
  { sections: 1, equations: 1, citations: 2, figures: 0, paragraphs: 1 },
  'Budget paper',
);
/** A paper of more than three pages once typeset. */
const LONG_PAPER = fixturePaper(
  { sections: 16, equations: 4, citations: 8, figures: 2, paragraphs: 10 },
  'Budget paper',
);

interface Gates {
  gate: Promise<void>;
  open: () => void;
  /** Called when a print reaches the gate. */
  arrived: () => void;
}

const held = new WeakMap<object, Gates>();

/**
 * Makes the server's printer wait, in each export's browser context, while the test holds it;
 * `hold()` answers a promise of the first print to reach the gate (no time limit: an export's
 * worker and the browser may take long to start on a loaded machine).
 */
function heldPrints(server: TestServer): { go(): void; hold(): Promise<void> } {
  const printer = printerFor(server.ctx.config);
  let state = held.get(printer);
  if (!state) {
    const created: Gates = { gate: Promise.resolve(), open: () => undefined, arrived: () => undefined };
    state = created;
    held.set(printer, created);
    const print = printer.print.bind(printer);
    printer.print = <T>(
      work: (context: BrowserContext, page: Page) => Promise<T>,
      readiness?: PageReadiness,
    ) =>
      print(async (context, page) => {
        created.arrived();
        await created.gate;
        return work(context, page);
      }, readiness);
  }
  const gates = state;
  return {
    go() {
      gates.open();
    },
    hold() {
      gates.gate = new Promise<void>((resolve) => {
        gates.open = resolve;
      });
      return new Promise<void>((resolve) => {
        gates.arrived = resolve;
      });
    },
  };
}

async function paperOf(server: TestServer, browser: TestClient, paper = PAPER): Promise<number> {
  const id = (await browser.call(documentsApi.create, {})).json<{ id: number }>().id;
  await server.ctx.db
    .updateTable('documents')
    .set({
      content: JSON.stringify(paper.doc.toJSON()),
      content_version: 0,
      version: 0,
      title: 'Budget paper',
    })
    .where('id', '=', id)
    .execute();
  return id;
}

const exportAs = (browser: TestClient, id: number, format: string, language = 'en') =>
  browser.call(documentsApi.export, { id: String(id), format }, { headers: { 'Accept-Language': language } });

/** Waits until the held export prints; an export that ends before it gets there fails the test. */
async function untilPrinting(printing: Promise<void>, exported: Promise<TestResponse>): Promise<void> {
  const ended = exported.then((response) =>
    Promise.reject(new Error(`the export ended before printing: ${response.status} ${response.text}`)),
  );
  // Only the race reports it: an export that ends after printing is the test's own business.
  ended.catch(() => undefined);
  await Promise.race([printing, ended]);
}

const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.slice(0, 5)) === '%PDF-';

describe.each(ENGINES)('exports one at a time per user, PDFs within the page budget (%s)', (engine) => {
  const server = useServer(engine, { env: { PDF_MAX_PAGES: '3' } });

  it('answers a second export or an import of a user whose export runs with 429 busy; others are served', async () => {
    const page = heldPrints(server());
    const printing = page.hold();
    const ada = await server().loggedInUser();
    const emmy = await server().loggedInUser();
    const adasPaper = await paperOf(server(), ada.browser);
    const emmysPaper = await paperOf(server(), emmy.browser);

    const first = exportAs(ada.browser, adasPaper, 'pdf');
    // Let go in any case: a held print would hold the next tests' prints too.
    try {
      await untilPrinting(printing, first);
      const second = await exportAs(ada.browser, adasPaper, 'docx');
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('10');
      expect(second.json()).toEqual({
        error: 'busy',
        message:
          'You already have an import or export running. Please wait until it is finished, then try again.',
      });
      const german = await exportAs(ada.browser, adasPaper, 'latex', 'de');
      expect(german.status).toBe(429);
      expect(german.json()).toEqual({
        error: 'busy',
        message:
          'Bei Ihnen läuft bereits ein Import oder Export. Bitte warten Sie, bis er abgeschlossen ist, und versuchen Sie es dann erneut.',
      });
      const imported = await ada.browser.call(importApi.document, {
        path: '',
        file: new File([new Uint8Array(referenceManagersDocx())], 'Managers.docx'),
      });
      expect(imported.status).toBe(429);
      expect(imported.headers.get('retry-after')).toBe('10');
      expect(imported.json()).toEqual({
        code: 'busy',
        error:
          'You already have an import or export running. Wait until it is finished, then import this file again.',
      });

      // Another user is not held up by ada's export: the file comes from the export pool.
      const other = await exportAs(emmy.browser, emmysPaper, 'docx');
      expect(other.status, other.text).toBe(200);
      expect(other.headers.get('content-disposition')).toBe(
        `attachment; filename="Budget paper.docx"; filename*=UTF-8''Budget%20paper.docx`,
      );
      expect(new TextDecoder().decode(other.bytes.slice(0, 2))).toBe('PK');
    } finally {
      page.go();
    }

    const printed = await first;
    expect(printed.status, printed.text).toBe(200);
    expect(printed.headers.get('content-type')).toBe('application/pdf');
    expect(isPdf(printed.bytes)).toBe(true);
    // Done: ada may export again.
    const again = await exportAs(ada.browser, adasPaper, 'docx');
    expect(again.status, again.text).toBe(200);
  }, 120_000);

  it('refuses a PDF of more pages than PDF_MAX_PAGES with a translated message; one within it prints', async () => {
    const { browser } = await server().loggedInUser();
    const long = await exportAs(browser, await paperOf(server(), browser, LONG_PAPER), 'pdf');
    expect(long.status).toBe(422);
    expect(long.json()).toEqual({
      error: 'pdf_too_long',
      message:
        'As a PDF this document has more than 3 pages, too many to export. Export it as DOCX or ODT instead.',
    });
    const id = await paperOf(server(), browser);
    const french = await exportAs(browser, await paperOf(server(), browser, LONG_PAPER), 'pdf', 'fr');
    expect(french.json()).toEqual({
      error: 'pdf_too_long',
      message:
        'En PDF, ce document compte plus de 3 pages, trop pour être exporté. Exportez-le plutôt en DOCX ou en ODT.',
    });
    const within = await exportAs(browser, id, 'pdf');
    expect(within.status, within.text).toBe(200);
    expect(isPdf(within.bytes)).toBe(true);
    const pages = new TextDecoder('latin1').decode(within.bytes).match(/\/Type\s*\/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages.length).toBeLessThanOrEqual(3);
  }, 120_000);
});

/**
 * The pooled printer's queue is bounded (finding 5): past PDF_PRINTS printing and 8 waiting per
 * print, a PDF export is refused at once with 503 and Retry-After, not queued without end. One
 * user may run many here (HEAVY_TASKS_PER_USER), so that the queue, not the per-user limit, answers.
 */
describe.each(ENGINES)('the printer’s bounded queue (%s)', (engine) => {
  const server = useServer(engine, { env: { PDF_PRINTS: '1', HEAVY_TASKS_PER_USER: '20' } });

  it('answers 503 printer_busy with Retry-After to a PDF export past the queue; the others print', async () => {
    const page = heldPrints(server());
    const printing = page.hold();
    const printer = printerFor(server().ctx.config);
    const { browser } = await server().loggedInUser();
    const id = await paperOf(server(), browser);
    const first = exportAs(browser, id, 'pdf');
    const queued: Promise<TestResponse>[] = [];
    try {
      await untilPrinting(printing, first);
      for (let index = 0; index < 8; index++) queued.push(exportAs(browser, id, 'pdf'));
      // The eight wait for the print (each made its HTML in the export pool first).
      while (printer.load.waiting < 8) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(printer.load).toEqual({ printing: 1, waiting: 8 });
      const refused = await exportAs(browser, id, 'pdf');
      expect(refused.status, refused.text).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(refused.json()).toEqual({
        error: 'printer_busy',
        message: 'Too many PDFs are being made right now. Please try again in a minute.',
      });
    } finally {
      page.go();
    }
    for (const answer of await Promise.all([first, ...queued])) {
      expect(answer.status, answer.text).toBe(200);
      expect(isPdf(answer.bytes)).toBe(true);
    }
    expect(printer.load).toEqual({ printing: 0, waiting: 0 });
  }, 300_000);
});

describe.each(ENGINES)('export time budgets (%s)', (engine) => {
  const printing = useServer(engine, { env: { PDF_TIME_LIMIT_MS: '1500' } });
  // Each budget counts from the moment its worker starts the task: 1 ms is past for any export,
  // and a worker is never started within 1 ms (it loads its modules first).
  const writing = useServer(engine, { env: { EXPORT_TIME_LIMIT_MS: '1' } });
  const starting = useServer(engine, { env: { WORKER_START_LIMIT_MS: '1' } });

  it('ends a PDF export past PDF_TIME_LIMIT_MS with a translated refusal and closes its context', async () => {
    const page = heldPrints(printing());
    page.hold();
    const { browser } = await printing().loggedInUser();
    const id = await paperOf(printing(), browser);
    const stuck = await exportAs(browser, id, 'pdf').finally(() => page.go());
    expect(stuck.status).toBe(422);
    expect(stuck.json()).toEqual({
      error: 'pdf_time_limit',
      message:
        'Making this PDF took too long and was stopped. Try again later, or export the document as DOCX or ODT.',
    });
    // Its context is closed and its place in the printer given back.
    expect(printerFor(printing().ctx.config).load).toEqual({ printing: 0, waiting: 0 });
    expect(printerFor(printing().ctx.config).contexts).toBe(0);
  }, 120_000);

  it('refuses an export whose worker runs past EXPORT_TIME_LIMIT_MS with a translated message', async () => {
    const { browser } = await writing().loggedInUser();
    const id = await paperOf(writing(), browser);
    const refused = await exportAs(browser, id, 'docx', 'it');
    expect(refused.status).toBe(422);
    expect(refused.json()).toEqual({
      error: 'export_limit',
      message:
        'L’esportazione di questo documento in questo formato richiede troppo tempo o memoria. Prova un altro formato o dividi il documento.',
    });
  });

  it('refuses an export whose worker does not start within WORKER_START_LIMIT_MS, not hanging', async () => {
    const { browser } = await starting().loggedInUser();
    const id = await paperOf(starting(), browser);
    const refused = await exportAs(browser, id, 'odt');
    expect(refused.status).toBe(422);
    expect(refused.json()).toEqual({
      error: 'export_limit',
      message:
        'This document needs too much time or memory to export in this format. Try another format, or split the document.',
    });
  });
});

describe('the printer’s start budget', () => {
  // Chromium never launches within 1 ms; the print's own budget would have let it run a minute.
  const printer = new Printer({
    pdfPrints: 1,
    pdfTimeLimitMs: 60_000,
    pdfMaxPages: 3,
    workerStartLimitMs: 1,
  });
  afterAll(() => printer.close());

  it('ends a print whose browser has not started within the start budget with PrintTimeLimit', async () => {
    let ran = false;
    await expect(
      printer.print(async () => {
        ran = true;
      }),
    ).rejects.toBeInstanceOf(PrintTimeLimit);
    expect(ran).toBe(false);
    expect(printer.load).toEqual({ printing: 0, waiting: 0 });
  });
});

/**
 * With REDIS_URL the limit holds over every process of the deployment: here two app instances on
 * one PostgreSQL database and one Redis. A user's export running in one is counted in the other.
 */
const SERVICES = await servicesForTests('the heavy work limit over two instances is');
describe.skipIf(!SERVICES)('one user’s heavy work counted over two instances sharing Redis', () => {
  const first = useServer('postgres', { env: { REDIS_URL: TEST_REDIS_URL } });
  const second = useServer('postgres', {
    env: () => ({ REDIS_URL: TEST_REDIS_URL, DATABASE_URL: first().env.DATABASE_URL }),
  });

  it('answers 429 busy in one instance while the user’s export runs in the other; others are served', async () => {
    const page = heldPrints(first());
    const printing = page.hold();
    const adaUser = await first().buildUser();
    const adaFirst = await first().loginAs(adaUser);
    const adaSecond = await second().loginAs(adaUser);
    const emmy = await second().loggedInUser();
    const adasPaper = await paperOf(first(), adaFirst);
    const emmysPaper = await paperOf(second(), emmy.browser);

    const running = exportAs(adaFirst, adasPaper, 'pdf');
    try {
      await untilPrinting(printing, running);
      const elsewhere = await exportAs(adaSecond, adasPaper, 'docx');
      expect(elsewhere.status, elsewhere.text).toBe(429);
      expect(elsewhere.headers.get('retry-after')).toBe('10');
      expect(elsewhere.json()).toMatchObject({ error: 'busy' });
      const other = await exportAs(emmy.browser, emmysPaper, 'docx');
      expect(other.status, other.text).toBe(200);
    } finally {
      page.go();
    }
    const printed = await running;
    expect(printed.status, printed.text).toBe(200);
    // Given back in Redis: the other instance serves ada again.
    const again = await exportAs(adaSecond, adasPaper, 'docx');
    expect(again.status, again.text).toBe(200);
  }, 120_000);
});

/**
 * The place a process holds in Redis for a user's running task is a lease, renewed while the task
 * runs: when that process is killed with -9 (no handler of ours runs), the lease runs out and
 * another process accepts the user's next task. Process A's export is held at its browser's
 * launch (CHROMIUM_PATH a script that waits and never starts one) so that it surely runs when A
 * is killed.
 */
describe.skipIf(!SERVICES)('a user’s heavy-work place after its process is killed with -9', () => {
  const PASSWORD = 'correct horse battery staple';
  let tmp = '';
  let dataDir = '';
  let postgres: TemporaryDatabase | null = null;
  let redis: Redis | null = null;
  let seeded = { adaId: 0, documentId: 0 };

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'hk-'));
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-heavy-kill-'));
    postgres = await temporaryDatabase(TEST_DATABASE_URL, 'scriptorium_heavy');
    seeded = await seedDatabase({ databaseUrl: postgres.url, dataDir }, async (db) => {
      const ada = await createUser(
        { db },
        { username: 'ada', email: 'ada@example.org', password: PASSWORD, emailVerified: true },
      );
      const created = await createDocument(db, ada.id, {
        title: 'Budget paper',
        path: '',
        content: PAPER.doc,
      });
      return { adaId: ada.id, documentId: created.id };
    });
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    rmSync(tmp, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  });

  it('frees the place of a killed process’s export: another process then runs the user’s next export', async () => {
    const env = {
      ...processEnv(dataDir, 'heavy-kill', { databaseUrl: postgres?.url ?? '', redisUrl: TEST_REDIS_URL }),
      TMPDIR: tmp,
    };
    // A browser that never starts: it tells it was launched, then waits (its command line names the
    // printer folder, so the printer's remover ends it once A is gone).
    const launched = path.join(tmp, 'launched');
    const stalled = path.join(tmp, 'stalled-chromium');
    writeFileSync(stalled, `#!/bin/sh\ntouch '${launched}'\nwhile :; do sleep 1; done\n`, { mode: 0o700 });
    const places = `${redisPrefix({ databaseUrl: postgres?.url, dataDir })}heavy:user:${seeded.adaId}`;

    const first = await startServerProcess({ ...env, CHROMIUM_PATH: stalled });
    const second = await startServerProcess(env);
    try {
      const adaFirst = await loggedInClient(first.baseUrl, 'ada', PASSWORD);
      const adaSecond = await loggedInClient(second.baseUrl, 'ada', PASSWORD);
      const pending = exportAs(adaFirst, seeded.documentId, 'pdf').catch(() => null);
      await eventually(
        async () => existsSync(launched),
        (started) => started,
        'the held export reaching its browser',
      );
      expect(await redis?.zcard(places)).toBe(1);
      const refused = await exportAs(adaSecond, seeded.documentId, 'docx');
      expect(refused.status, refused.text).toBe(429);

      await stopServerProcess(first, 'SIGKILL');
      await pending;
      // The lease of the killed process's place runs out (30 s without renewal); until then the
      // user is asked to retry. Each try that is refused takes no place.
      let next = await exportAs(adaSecond, seeded.documentId, 'docx');
      while (next.status === 429) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        next = await exportAs(adaSecond, seeded.documentId, 'docx');
      }
      expect(next.status, next.text).toBe(200);
      expect(new TextDecoder().decode(next.bytes.slice(0, 2))).toBe('PK');
      // Given back at the end: nothing of the killed process's place is left.
      expect(await redis?.zcard(places)).toBe(0);
    } finally {
      await stopServerProcess(first, 'SIGKILL');
      await stopServerProcess(second);
    }
  }, 180_000);
});

/**
 * A server process killed with -9 while its browser prints leaves no printer folder (profile and
 * temporary files) behind: a remover started with the browser deletes it once the process is
 * gone, and the next server start removes any folder of a process that no longer runs.
 */
describe.each(ENGINES)('printer folders after kill -9 (%s)', (engine) => {
  const PASSWORD = 'correct horse battery staple';
  let tmp = '';
  let dataDir = '';
  let postgres: TemporaryDatabase | null = null;
  let documentId = 0;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'pk-'));
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-printer-kill-'));
    postgres =
      engine === 'postgres'
        ? await temporaryDatabase(TEST_DATABASE_URL as string, 'scriptorium_print')
        : null;
    documentId = await seedDatabase({ databaseUrl: postgres?.url, dataDir }, async (db) => {
      const ada = await createUser(
        { db },
        { username: 'ada', email: 'ada@example.org', password: PASSWORD, emailVerified: true },
      );
      const created = await createDocument(db, ada.id, {
        title: 'Budget paper',
        path: '',
        content: PAPER.doc,
      });
      return created.id;
    });
  });
  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  });

  it('removes the folder of a killed server without a restart, and any left over at the next start', async () => {
    const env = {
      ...processEnv(
        dataDir,
        'printer-kill',
        postgres ? { databaseUrl: postgres.url, redisUrl: '' } : undefined,
      ),
      TMPDIR: tmp,
    };
    const root = path.join(tmp, 'scriptorium-printer');
    // A folder of a running process stays (this test's own process stands for one).
    const running = path.join(root, `${process.pid}-running`);
    mkdirSync(running, { recursive: true });

    const first = await startServerProcess(env);
    const ada = await loggedInClient(first.baseUrl, 'ada', PASSWORD);
    const pending = exportAs(ada, documentId, 'pdf').catch(() => null);
    const own = await eventually(
      async () =>
        (existsSync(root) ? readdirSync(root) : []).filter((name) => name.startsWith(`${first.child.pid}-`)),
      (names) => names.length === 1,
      "the killed server's printer folder",
    );
    const killedFolder = path.join(root, own[0]);
    await stopServerProcess(first, 'SIGKILL');
    await pending;
    // Gone without any restart: the remover the printer left beside its browser saw it die.
    await eventually(
      async () => existsSync(killedFolder),
      (exists) => !exists,
      "the removal of the killed server's printer folder",
    );
    // A folder whose remover never ran either (the machine went down with it) goes at the next start.
    const leftOver = path.join(root, `${first.child.pid}-left`);
    mkdirSync(path.join(leftOver, 'p'), { recursive: true });

    const second = await startServerProcess(env);
    try {
      expect(existsSync(leftOver)).toBe(false);
      expect(existsSync(running)).toBe(true);
      // The new server prints with a browser and folder of its own.
      const emmy = await loggedInClient(second.baseUrl, 'ada', PASSWORD);
      const printed = await exportAs(emmy, documentId, 'pdf');
      expect(printed.status, printed.text).toBe(200);
      expect(isPdf(printed.bytes)).toBe(true);
    } finally {
      await stopServerProcess(second);
    }
    // Stopped cleanly: its folder went with its browser.
    expect(readdirSync(root).filter((name) => name.startsWith(`${second.child.pid}-`))).toEqual([]);
  }, 180_000);
});
