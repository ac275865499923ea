import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { saveImageResponse } from '@scriptorium/common/api/usermedia';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database';
import { DocumentClient } from '../src/ws/document-client';
import { loggedInClient, type TestClient } from './harness';
import {
  processEnv,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
  stopServerProcess,
} from './processes';
import { seedTwoAuthors } from './seed';
import { bodyParagraphStart, cookieHeader, wsUrlBase } from './ws-support';

// `npm start` runs the server compiled by scripts/build-server.mjs with plain node (issue 52).
// What the bundle could break and the TypeScript runs of every other test would not see: the
// worker-thread bodies the pools load by file name, files found next to a module's source (the
// locales, the CSL styles), the native modules, the collaboration socket.

const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'correct horse battery staple';

describe('the compiled server (npm start)', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-compiled-'));
  // Inside the repository, as server/dist is: the bundle finds its npm packages in node_modules.
  const outdir = path.join(ROOT, 'server/dist', `test-${path.basename(work)}`);
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  let server: ServerProcess;
  let ada: TestClient;
  let documentId: number;

  beforeAll(async () => {
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), outdir], {
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    documentId = await seedDatabase({ databaseUrl: undefined, dataDir }, (db) =>
      seedTwoAuthors(db, PASSWORD, 'Compiled'),
    );
    server = await startServerProcess(
      processEnv(dataDir, 'compiled-test'),
      undefined,
      path.join(outdir, 'main.js'),
    );
    ada = await loggedInClient(server.baseUrl, 'ada', PASSWORD);
  }, 120_000);

  afterAll(async () => {
    if (server) await stopServerProcess(server);
    rmSync(work, { recursive: true, force: true });
    rmSync(outdir, { recursive: true, force: true });
  });

  it('runs plain JavaScript, not the TypeScript sources', () => {
    expect(server.child.spawnargs.slice(1)).toEqual([path.join(outdir, 'main.js')]);
  });

  it('loads no export writer or bibliography converter at start (only on first use)', () => {
    // The npm packages main.js loads before it runs: its static imports and its chunks'.
    const loaded = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(path.join(outdir, file), 'utf8');
      for (const [, named, bare] of code.matchAll(
        /^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|^import\s*"([^"]+)"/gms,
      )) {
        const from = named ?? bare;
        if (from?.startsWith('./')) visit(from.slice(2));
        else if (from) loaded.add(from);
      }
    };
    visit('main.js');
    expect(loaded.has('kysely')).toBe(true);
    for (const heavy of ['citeproc', 'temml', '@xmldom/xmldom', 'mathml2omml', 'biblatex-csl-converter'])
      expect(loaded.has(heavy), heavy).toBe(false);
  });

  it('checks an upload and makes its thumbnail in the worker threads', async () => {
    const paper = fixturePaper(undefined, 'Compiled');
    const png = paper.input.images[Object.keys(paper.input.images)[0]].data;
    const response = await ada.call(usermediaApi.save, {
      title: 'Stripes',
      image: new File([new Uint8Array(png)], 'stripes.png', { type: 'image/png' }),
    });
    expect(response.status, response.text).toBe(201);
    const saved = saveImageResponse.parse(response.json()).values;
    expect(saved?.file_type).toBe('image/png');
    const original = await ada.get(saved?.image ?? '');
    expect(original.headers.get('content-type')).toBe('image/png');
    const thumbnail = await ada.get(saved?.thumbnail ?? '');
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
  });

  it('exports with the citation style files found next to the sources', async () => {
    const paper = fixturePaper(undefined, 'Compiled');
    const writer = createDatabase({ databaseUrl: undefined, dataDir });
    try {
      // Without its figures: this test is about citations, which need the CSL files.
      const content = JSON.stringify(paper.doc.toJSON()).replaceAll(/"src":"[^"]*"/g, '"src":""');
      await writer.db
        .updateTable('documents')
        .set({ content, content_version: 0, version: 0 })
        .where('id', '=', documentId)
        .execute();
    } finally {
      await writer.db.destroy();
    }
    const response = await ada.call(documentsApi.export, { id: String(documentId), format: 'docx' });
    expect(response.status, response.text).toBe(200);
    const document = strFromU8(unzipSync(response.bytes)['word/document.xml']);
    expect(document).toContain('Section 1 on structures');
    // The bibliography, rendered by citeproc with the style and locale read from their files.
    expect(document).toContain('On the structure of problem 1');
    expect(document).toContain('Journal of Examples');
  });

  it('confirms an edit on the collaboration socket', async () => {
    const editor = new DocumentClient({
      wsUrlBase: wsUrlBase(server.baseUrl),
      documentId,
      headers: { cookie: cookieHeader(ada), origin: server.baseUrl },
    });
    try {
      await editor.open();
      const confirmed = editor.next((message) => message.type === 'confirm_diff');
      editor.edit((tr) => tr.insertText('compiled', bodyParagraphStart(tr.doc)));
      expect(await confirmed).toMatchObject({ type: 'confirm_diff' });
    } finally {
      editor.close();
    }
  });
});
