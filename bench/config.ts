// Benchmark: authenticated GET /api/base/configuration/ (session lookup, user, e-mails, presenter)
// against a bare Fastify route that returns the same bytes, both measured in this run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeForm } from '@scriptorium/common/api/form';
import Fastify from 'fastify';
import { loadConfig } from '../server/src/config';
import type { AppContext } from '../server/src/context';
import { createDatabase } from '../server/src/db/database';
import { migrateToLatest } from '../server/src/db/migrate';
import { buildApp } from '../server/src/http/app';
import { createMailer } from '../server/src/mail/mailer';
import { createUser } from '../server/src/modules/user/commands/create-user';
import { formatLoad, loadTest } from './lib/load';

const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bench-config-'));
const config = loadConfig({ DATA_DIR: dataDir, PORT: '0' });
const { db, dialect } = createDatabase(config);
const ctx: AppContext = { config, db, dialect, mailer: createMailer(config), state: { ready: false } };
await migrateToLatest(db, dialect);
ctx.state.ready = true;
await createUser(ctx, {
  username: 'bench',
  email: 'bench@example.org',
  password: 'bench-password',
  emailVerified: true,
});

const app = await buildApp(ctx, { logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as { port: number }).port;
const base = `http://127.0.0.1:${port}`;

// Log in as the browser does: csrftoken cookie from a first answer, then the form post.
const first = await fetch(`${base}/api/base/configuration/`);
const csrf = /csrftoken=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
const login = await fetch(`${base}/api/user/login/`, {
  method: 'POST',
  headers: { 'X-CSRFToken': csrf, Cookie: `csrftoken=${csrf}` },
  body: encodeForm({ login: 'bench', password: 'bench-password' }),
});
const session = /sessionid=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
if (!session) throw new Error(`login failed: ${login.status}`);
const headers = { Cookie: `csrftoken=${csrf}; sessionid=${session}` };
const sample = await fetch(`${base}/api/base/configuration/`, { headers });
const body = await sample.text();
if (!JSON.parse(body).user.is_authenticated) throw new Error('configuration is not authenticated');

const bare = Fastify({ logger: false });
bare.get('/api/base/configuration/', (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(body),
);
await bare.listen({ host: '127.0.0.1', port: 0 });
const barePort = (bare.server.address() as { port: number }).port;

// Warm both up, then measure alternately so that machine noise hits both alike.
await loadTest({ port, path: '/api/base/configuration/', headers, seconds: 1 });
await loadTest({ port: barePort, path: '/api/base/configuration/', seconds: 1 });
const real = await loadTest({ port, path: '/api/base/configuration/', headers, seconds: SECONDS });
const baseline = await loadTest({ port: barePort, path: '/api/base/configuration/', seconds: SECONDS });

console.log(`configuration body: ${body.length} bytes`);
console.log(formatLoad('authenticated /api/base/configuration/', real));
console.log(formatLoad('bare Fastify route, same bytes', baseline));
console.log(`ratio (configuration / bare): ${(real.perSecond / baseline.perSecond).toFixed(3)}`);

await app.close();
await bare.close();
await db.destroy();
rmSync(dataDir, { recursive: true, force: true });
