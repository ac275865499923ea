import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentClient } from '../src/ws/document-client';
import { loggedInClient } from './harness';
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

const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'correct horse battery staple';
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(
  (candidate) => spawnSync(candidate, ['-v']).status === 0,
);
if (!NGINX && process.env.REQUIRE_SERVICES === '1')
  throw new Error('REQUIRE_SERVICES=1 but nginx is not installed: the deploy test cannot run.');

/** Resolves once something listens on the port. */
async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const probe = net.connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!NGINX)('deploy/nginx.conf in front of a server process', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-nginx-'));
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  let server: ServerProcess;
  let nginx: ChildProcess;
  let nginxBase = '';
  let documentId = 0;

  beforeAll(async () => {
    documentId = await seedDatabase({ databaseUrl: undefined, dataDir }, (db) =>
      seedTwoAuthors(db, PASSWORD, 'Behind nginx'),
    );
    server = await startServerProcess({ ...processEnv(dataDir, 'nginx-test'), TRUST_PROXY: '127.0.0.1' });
    const port = await freePort();
    nginxBase = `http://127.0.0.1:${port}`;
    // The shipped file, with this test's ports: the upstream's first process is our server, the
    // second a port nobody listens on (a dead process, which nginx passes over).
    const shipped = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
    const site = shipped
      .replace('127.0.0.1:8001', `127.0.0.1:${server.port}`)
      .replace('127.0.0.1:8002', `127.0.0.1:${await freePort()}`)
      .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
    expect(site).not.toBe(shipped);
    writeFileSync(path.join(work, 'scriptorium.conf'), site);
    const temp = (name: string) => `${name} ${path.join(work, name.replace(/_path$/, ''))};`;
    writeFileSync(
      path.join(work, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${path.join(work, 'nginx.pid')};`,
        `error_log ${path.join(work, 'error.log')} warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  access_log off;',
        ...[
          'client_body_temp_path',
          'proxy_temp_path',
          'fastcgi_temp_path',
          'uwsgi_temp_path',
          'scgi_temp_path',
        ].map((name) => `  ${temp(name)}`),
        `  include ${path.join(work, 'scriptorium.conf')};`,
        '}',
      ].join('\n'),
    );
    const output: string[] = [];
    nginx = spawn(NGINX as string, ['-p', work, '-c', path.join(work, 'nginx.conf')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nginx.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    await listening(port, nginx, () => output.join(''));
  }, 120_000);

  afterAll(async () => {
    nginx?.kill('SIGTERM');
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
