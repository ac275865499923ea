import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { type Endpoint, encodeRequest } from '@scriptorium/common/api/endpoint';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import type { AppContext } from '../../server/src/context';
import { createDatabase } from '../../server/src/db/database';
import { migrateToLatest } from '../../server/src/db/migrate';
import type { UserRow } from '../../server/src/db/rows';
import { createMailer } from '../../server/src/mail/mailer';
import { createUser } from '../../server/src/modules/user/commands/create-user';
import { temporaryDatabase } from '../../server/test/processes';

export interface BenchServer {
  ctx: AppContext;
  app: FastifyInstance;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  /** Stops the server and removes its data directory. */
  close(): Promise<void>;
}

export const BENCH_PASSWORD = 'bench-password';

/** The build the browser benches serve: web/dist, or the WEB_DIST named. */
export const WEB_DIST = process.env.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist');

/**
 * The real app on a loopback port with a fresh SQLite DATA_DIR, migrated. With BENCH_DATABASE_URL
 * (a PostgreSQL server and a database there with the right to create databases) it runs on a new
 * empty database beside that one, dropped at close: a bench never writes into a database in use.
 */
export async function startBenchServer(name: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `scriptorium-bench-${name}-`));
  const postgres = process.env.BENCH_DATABASE_URL
    ? await temporaryDatabase(process.env.BENCH_DATABASE_URL, `scriptorium_bench_${name.replace(/\W/g, '_')}`)
    : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  const { db, dialect } = createDatabase(config);
  const ctx: AppContext = { config, db, dialect, mailer: createMailer(config), state: { ready: false } };
  await migrateToLatest(db, dialect);
  ctx.state.ready = true;
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  return {
    ctx,
    app,
    port,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      ctx.mailer.close();
      await db.destroy();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function createBenchUser(ctx: Pick<AppContext, 'db'>, username: string): Promise<UserRow> {
  return createUser(ctx, {
    username,
    email: `${username}@example.org`,
    password: BENCH_PASSWORD,
    emailVerified: true,
  });
}

/** Calls a common endpoint as the browser's `call` does (same encoding, same path) with the given headers. */
export function benchCall(
  base: string,
  target: Endpoint,
  input: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const encoded = encodeRequest(target, input);
  return fetch(`${base}${encoded.url}`, { method: encoded.method, headers, body: encoded.body });
}

/** Logs in as the browser does (csrftoken from a first answer, then the form post); the headers to send after. */
export async function loginHeaders(
  base: string,
  username: string,
): Promise<{ 'X-CSRFToken': string; Cookie: string }> {
  const first = await benchCall(base, baseApi.configuration);
  const csrf = /csrftoken=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const login = await benchCall(
    base,
    userApi.login,
    { login: username, password: BENCH_PASSWORD },
    { 'X-CSRFToken': csrf, Cookie: `csrftoken=${csrf}` },
  );
  const session = /sessionid=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error(`login of ${username} failed: ${login.status}`);
  return { 'X-CSRFToken': csrf, Cookie: `csrftoken=${csrf}; sessionid=${session}` };
}

/** The cookies of a Cookie header (`loginHeaders`), as a browser context adds them for `base`. */
export function sessionCookies(header: string, base: string): { name: string; value: string; url: string }[] {
  return header.split('; ').map((pair) => {
    const [name, value] = pair.split('=');
    return { name, value, url: base };
  });
}

/** A browser page at a desktop size carrying the session of `loginHeaders`. */
export async function loggedInPage(browser: Browser, base: string, headers: { Cookie: string }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies(sessionCookies(headers.Cookie, base));
  return { context, page: await context.newPage() };
}
