import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentClient } from '../src/ws/document-client';
import { loggedInClient } from './harness';
import { NGINX, type RunningNginx, requireNginx, startNginx } from './nginx';
import {
  freePort,
  processEnv,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
  stopServerProcess,
} from './processes';
import { seedTwoAuthors } from './seed';
import { bodyParagraphStart, cookieHeader, wsUrlBase } from './ws-support';

// deploy/nginx.conf, as docs/deploy.md tells an operator to use it, in front of a real server
// process: pages, the API and the collaboration socket pass through it. The real nginx of Debian
// (.ci/run installs it); without one the test is skipped, unless REQUIRE_SERVICES=1.

const PASSWORD = 'correct horse battery staple';
requireNginx('the deploy test');

describe.skipIf(!NGINX)('deploy/nginx.conf in front of a server process', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-nginx-'));
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  let server: ServerProcess;
  let nginx: RunningNginx | undefined;
  let nginxBase = '';
  let documentId = 0;

  beforeAll(async () => {
    documentId = await seedDatabase({ databaseUrl: undefined, dataDir }, (db) =>
      seedTwoAuthors(db, PASSWORD, 'Behind nginx'),
    );
    server = await startServerProcess({ ...processEnv(dataDir, 'nginx-test'), TRUST_PROXY: '127.0.0.1' });
    // The upstream's first process is our server, the second a port nobody listens on (a dead
    // process, which nginx passes over).
    nginx = await startNginx([server.port, await freePort()]);
    nginxBase = nginx.baseUrl;
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    if (server) await stopServerProcess(server);
    rmSync(work, { recursive: true, force: true });
  });

  it('passes the API through', async () => {
    const answer = await fetch(`${nginxBase}${baseApi.configuration.path}`);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { ws_url_base: string }).ws_url_base).toBe('/ws');
  });

  it('passes the collaboration socket through: an edit is confirmed and reaches a co-author', async () => {
    const ada = await loggedInClient(nginxBase, 'ada', PASSWORD);
    const emmy = await loggedInClient(nginxBase, 'emmy', PASSWORD);
    const editor = (browser: typeof ada) =>
      new DocumentClient({
        wsUrlBase: wsUrlBase(nginxBase),
        documentId,
        headers: { cookie: cookieHeader(browser), origin: nginxBase },
      });
    const writer = editor(ada);
    const reader = editor(emmy);
    try {
      await Promise.all([writer.open(), reader.open()]);
      const confirmed = writer.next((message) => message.type === 'confirm_diff');
      const relayed = reader.next((message) => message.type === 'diff');
      writer.edit((tr) => tr.insertText('through nginx', bodyParagraphStart(tr.doc)));
      expect(await confirmed).toMatchObject({ type: 'confirm_diff', v: 1 });
      await relayed;
      expect(reader.state?.doc.textContent).toContain('through nginx');
    } finally {
      writer.close();
      reader.close();
    }
  });
});
