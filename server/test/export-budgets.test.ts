import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { PRINT_DATA_PATH } from '@scriptorium/common/export/print-page';
import { referenceManagersDocx } from '@scriptorium/common/import/testing/word';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument } from '../src/modules/documents/commands/create-document';
import { printerFor } from '../src/modules/documents/export/printer';
import { createUser } from '../src/modules/user/commands/create-user';
import { ENGINES, loggedInClient, type TestClient, type TestServer, useServer } from './harness';
import {
  processEnv,
  seedDatabase,
  startServerProcess,
  stopServerProcess,
  type TemporaryDatabase,
  temporaryDatabase,
} from './processes';
import { TEST_DATABASE_URL } from './services';
import { eventually } from './ws-support';

/**
 * Issue 50: exports run in the export worker pool and the pooled printer, within their budgets,
 * one at a time per user. The print page here is a stand-in (the build's is web/src/print): it
 * shows the document's title, then waits until the test writes `assets/go.txt` into the build, and
 * lays out as many pages as `assets/pages.txt` says, so that a test holds an export running for as
 * long as it needs.
 */

const PAPER = fixturePaper(
  { sections: 1, equations: 1, citations: 2, figures: 0, paragraphs: 1 },
  'Budget paper',
);

const STAND_IN = `
const data = await (await fetch('${PRINT_DATA_PATH}')).json();
document.getElementById('title').textContent = data.doc.content[0].content[0].text;
const ok = (file) => fetch(file).then((answer) => answer.ok, () => false);
while (!(await ok('/assets/go.txt'))) await new Promise((resolve) => setTimeout(resolve, 20));
const pages = Number(await (await fetch('/assets/pages.txt')).text());
for (let page = 2; page <= pages; page++) {
  const next = document.createElement('p');
  next.style.breakBefore = 'page';
  next.textContent = 'Page ' + page;
  document.body.append(next);
}
document.documentElement.dataset.printReady = 'true';
`;

function standInPrintPage(server: TestServer): { go(pages: number): void; hold(): void } {
  const dist = server.ctx.config.webDist;
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dist, 'print.html'),
    '<!doctype html><html><body><h1 id="title"></h1><script type="module" src="/assets/stand-in.js"></script></body></html>',
  );
  writeFileSync(path.join(dist, 'assets', 'stand-in.js'), STAND_IN);
  return {
    go(pages) {
      writeFileSync(path.join(dist, 'assets', 'pages.txt'), String(pages));
      writeFileSync(path.join(dist, 'assets', 'go.txt'), 'go');
    },
    hold() {
      rmSync(path.join(dist, 'assets', 'go.txt'), { force: true });
    },
  };
}

async function paperOf(server: TestServer, browser: TestClient): Promise<number> {
  const id = (await browser.call(documentsApi.create, {})).json<{ id: number }>().id;
  await server.ctx.db
    .updateTable('documents')
    .set({
      content: JSON.stringify(PAPER.doc.toJSON()),
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

const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.slice(0, 5)) === '%PDF-';

describe.each(ENGINES)('exports one at a time per user, PDFs within the page budget (%s)', (engine) => {
  const server = useServer(engine, { env: { PDF_MAX_PAGES: '3' } });

  it('answers a second export or an import of a user whose export runs with 429 busy; others are served', async () => {
    const page = standInPrintPage(server());
    page.hold();
    const ada = await server().loggedInUser();
    const emmy = await server().loggedInUser();
    const adasPaper = await paperOf(server(), ada.browser);
    const emmysPaper = await paperOf(server(), emmy.browser);
    const printer = printerFor(server().ctx.config);

    const first = exportAs(ada.browser, adasPaper, 'pdf');
    await eventually(
      async () => printer.load.printing,
      (printing) => printing === 1,
      'the first export printing',
    );

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

    page.go(1);
    const printed = await first;
    expect(printed.status, printed.text).toBe(200);
    expect(printed.headers.get('content-type')).toBe('application/pdf');
    expect(isPdf(printed.bytes)).toBe(true);
    // Done: ada may export again.
    const again = await exportAs(ada.browser, adasPaper, 'docx');
    expect(again.status, again.text).toBe(200);
  }, 120_000);

  it('refuses a PDF of more pages than PDF_MAX_PAGES with a translated message; one within it prints', async () => {
    const page = standInPrintPage(server());
    const { browser } = await server().loggedInUser();
    const id = await paperOf(server(), browser);
    page.go(5);
    const long = await exportAs(browser, id, 'pdf');
    expect(long.status).toBe(422);
    expect(long.json()).toEqual({
      error: 'pdf_too_long',
      message:
        'As a PDF this document has more than 3 pages, too many to export. Export it as DOCX or ODT instead.',
    });
    const french = await exportAs(browser, id, 'pdf', 'fr');
    expect(french.json()).toEqual({
      error: 'pdf_too_long',
      message:
        'En PDF, ce document compte plus de 3 pages, trop pour être exporté. Exportez-le plutôt en DOCX ou en ODT.',
    });
    page.go(3);
    const within = await exportAs(browser, id, 'pdf');
    expect(within.status, within.text).toBe(200);
    expect(isPdf(within.bytes)).toBe(true);
    expect(new TextDecoder('latin1').decode(within.bytes).match(/\/Type\s*\/Page\b/g)).toHaveLength(3);
  }, 120_000);
});

describe.each(ENGINES)('export time budgets (%s)', (engine) => {
  const printing = useServer(engine, { env: { PDF_TIME_LIMIT_MS: '1500' } });
  const writing = useServer(engine, { env: { EXPORT_TIME_LIMIT_MS: '1' } });

  it('ends a PDF export past PDF_TIME_LIMIT_MS with a translated refusal and closes its context', async () => {
    const page = standInPrintPage(printing());
    page.hold();
    const { browser } = await printing().loggedInUser();
    const id = await paperOf(printing(), browser);
    const stuck = await exportAs(browser, id, 'pdf');
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
});

/**
 * A server process killed with -9 while its browser prints leaves the printer's folder (profile
 * and temporary files) behind; the next server start removes it, and nothing else.
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

  it('removes the folder of a killed server at the next start', async () => {
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
    expect(existsSync(killedFolder)).toBe(true);

    const second = await startServerProcess(env);
    try {
      expect(existsSync(killedFolder)).toBe(false);
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
