import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Endpoint, encodeRequest } from '@scriptorium/common/api/endpoint';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { encodeForm } from '@scriptorium/common/api/form';
import { FIRST_SCREEN_MARKER, FIRST_SCREEN_PRELOADS } from '@scriptorium/common/shell/first-screen';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import type { AppContext } from '../src/context';
import { createDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import type { UserRow } from '../src/db/rows';
import type { Database } from '../src/db/schema';
import { createMailer } from '../src/mail/mailer';
import { seedFlatpages } from '../src/modules/base/commands/seed-flatpages';
import { type CreateUserInput, createUser } from '../src/modules/user/commands/create-user';
import { postgresReachable } from './services';

export type Engine = 'sqlite' | 'postgres';

const REQUIRED = process.env.REQUIRE_SERVICES === '1';

/**
 * The engines every API suite runs on. PostgreSQL joins when TEST_DATABASE_URL reaches a server;
 * with REQUIRE_SERVICES=1 it joins regardless, so that an unreachable server fails the suite
 * instead of skipping it quietly.
 */
async function detectEngines(): Promise<Engine[]> {
  const url = process.env.TEST_DATABASE_URL;
  if (REQUIRED) return ['sqlite', 'postgres'];
  if (url && (await postgresReachable(url, 3000))) return ['sqlite', 'postgres'];
  if (url) console.warn(`TEST_DATABASE_URL is set but PostgreSQL does not answer: PostgreSQL leg skipped.`);
  return ['sqlite'];
}

export const ENGINES: Engine[] = await detectEngines();

/** A parsed Set-Cookie header, for assertions on cookie attributes. */
export interface SetCookie {
  name: string;
  value: string;
  /** Lower-cased attribute names; flag attributes (HttpOnly, Secure) map to true. */
  attributes: Record<string, string | true>;
}

function parseSetCookie(header: string): SetCookie {
  const [pair, ...rest] = header.split(';');
  const eq = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const [key, ...value] = part.trim().split('=');
    attributes[key.toLowerCase()] = value.length ? value.join('=') : true;
  }
  return { name: pair.slice(0, eq).trim(), value: decodeURIComponent(pair.slice(eq + 1).trim()), attributes };
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The raw body (files such as exports). */
  bytes: Uint8Array;
  /** The body parsed as JSON (throws when it is not JSON). */
  json: <T = Record<string, unknown>>() => T;
  setCookies: SetCookie[];
}

export interface RequestOptions {
  /** Form fields, encoded as the browser client does (common encodeForm). */
  form?: Record<string, unknown>;
  /** A body already encoded (a call's form or multipart), or raw text for a deliberately malformed request. */
  body?: URLSearchParams | FormData | string;
  headers?: Record<string, string>;
  /** Send X-CSRFToken from the cookie jar (default true, as the browser client always does). */
  csrf?: boolean;
}

/** Drives the server as the browser does: a cookie jar, form bodies, the CSRF header from the cookie. */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    /** Headers sent with every request, e.g. Accept-Language or X-Forwarded-For. */
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async request(method: string, pathname: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.defaultHeaders };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies]
        .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
        .join('; ');
    }
    const csrf = this.cookies.get('csrftoken');
    if (options.csrf !== false && csrf) headers['x-csrftoken'] = csrf;
    Object.assign(headers, options.headers);
    const response = await fetch(`${this.baseUrl}${pathname}`, {
      method,
      headers,
      body: options.body ?? (options.form ? encodeForm(options.form) : undefined),
      redirect: 'manual',
    });
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    for (const cookie of setCookies) {
      const expires = cookie.attributes.expires;
      const gone =
        cookie.attributes['max-age'] === '0' ||
        (typeof expires === 'string' && Date.parse(expires) <= Date.now()) ||
        cookie.value === '';
      if (gone) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    return {
      status: response.status,
      headers: response.headers,
      text,
      bytes,
      json: <T>() => JSON.parse(text) as T,
      setCookies,
    };
  }

  get(pathname: string, options?: RequestOptions): Promise<TestResponse> {
    return this.request('GET', pathname, options);
  }

  /** POSTs a form; first loads the configuration, as the app does, when there is no CSRF cookie yet. */
  async post(pathname: string, form: Record<string, unknown> = {}, options: RequestOptions = {}) {
    await this.ensureCsrf(options);
    return this.request('POST', pathname, { ...options, form });
  }

  /**
   * Calls a common endpoint as the browser's `call` does (same encoding, same path). The input is
   * loose on purpose: tests also send what the browser never would, to see it refused.
   */
  async call(target: Endpoint, input: Record<string, unknown> = {}, options: RequestOptions = {}) {
    const encoded = encodeRequest(target, input);
    if (encoded.method !== 'GET') await this.ensureCsrf(options);
    return this.request(encoded.method, encoded.url, { ...options, body: encoded.body });
  }

  private async ensureCsrf(options: RequestOptions): Promise<void> {
    if (options.csrf !== false && !this.cookies.has('csrftoken')) await this.call(baseApi.configuration);
  }
}

/** A browser at `baseUrl` logged in as `login` (the test fails unless the login succeeds). */
export async function loggedInClient(
  baseUrl: string,
  login: string,
  password: string,
  headers?: Record<string, string>,
): Promise<TestClient> {
  const browser = new TestClient(baseUrl, headers);
  const response = await browser.call(userApi.login, { login, password });
  expect(response.status, response.text).toBe(200);
  return browser;
}

export interface TestUser extends UserRow {
  /** The plain password, for logging in. */
  password: string;
  email: string;
}

/** A row of one of the core tables, as a test reads it back. */
export type TableRow<T extends keyof Database> = Selectable<Database[T]>;

export interface TestServer {
  engine: Engine;
  ctx: AppContext;
  app: FastifyInstance;
  baseUrl: string;
  /** The environment the server was configured from (DATA_DIR, DATABASE_URL, ...), e.g. for the CLI. */
  env: Record<string, string>;
  client(defaultHeaders?: Record<string, string>): TestClient;
  buildUser(overrides?: Partial<CreateUserInput>): Promise<TestUser>;
  loginAs(user: TestUser, defaultHeaders?: Record<string, string>): Promise<TestClient>;
  /** buildUser, then loginAs: the new user and a browser logged in as it. */
  loggedInUser(overrides?: Partial<CreateUserInput>): Promise<{ user: TestUser; browser: TestClient }>;
  /**
   * What a test reads back from the database: the rows of `table` whose columns hold the values
   * of `where` (every row without it).
   */
  rows<T extends keyof Database & string>(table: T, where?: Partial<TableRow<T>>): Promise<TableRow<T>[]>;
  /** Migrates, seeds and opens the API, as main.ts does after listening. */
  becomeReady(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /**
   * Extra settings, as environment variables (LOGIN_MAX_FAILURES, CONTACT_EMAIL, ...); a function
   * is read when the server starts, for values known only then (an SMTP sink's port).
   */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Start migrated and ready (default), or not ready, as during start-up. */
  ready?: boolean;
  /** A small built web app (default), or none, as before `npm run build`. */
  web?: 'built' | 'missing';
  /** Extra routes for a test, registered like src/ws is (BuildAppOptions.extensions). */
  extensions?: BuildAppOptions['extensions'];
}

/**
 * A fake web/dist: the app shell (with the boot shell's place for the first screen and the first
 * screen's preloads, commented out as the build writes them) and one hashed asset.
 */
export const SHELL_MARKER = '<title>Scriptorium test shell</title>';
export const FIRST_SCREEN_LINKS = {
  shell: '<link rel="modulepreload" crossorigin href="/assets/logged-in-shell-1a2b.js">',
  de: '<link rel="modulepreload" crossorigin href="/assets/texts-de-visitor-3c4d.js" data-language="de">',
  it: '<link rel="modulepreload" crossorigin href="/assets/texts-it-visitor-5e6f.js" data-language="it">',
  en: '<link rel="modulepreload" crossorigin href="/assets/texts-en-visitor-7a8b.js" data-language="en">',
};
const FIRST_SCREEN_COMMENT = [
  FIRST_SCREEN_PRELOADS.start,
  ...Object.values(FIRST_SCREEN_LINKS),
  FIRST_SCREEN_PRELOADS.end,
].join('\n    ');
export const ASSET_PATH = '/assets/index-4f2a9c.js';

function writeWebDist(dir: string): void {
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head>${SHELL_MARKER}\n  ${FIRST_SCREEN_COMMENT}\n</head><body><div class="boot-shell">${FIRST_SCREEN_MARKER}</div></body></html>`,
  );
  writeFileSync(path.join(dir, ASSET_PATH.slice(1)), 'console.log("app");\n');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error('REQUIRE_SERVICES=1 but TEST_DATABASE_URL is not set: cannot run the PostgreSQL leg.');
  const name = `scriptorium_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL at TEST_DATABASE_URL is not reachable: ${String(error)}`);
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

let userCounter = 0;

export async function startServer(engine: Engine, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-api-'));
  const webDist = path.join(dataDir, 'web-dist');
  if ((options.web ?? 'built') === 'built') writeWebDist(webDist);
  const postgres = engine === 'postgres' ? await createPostgresDatabase() : undefined;

  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SECRET_KEY: 'test-secret',
    WEB_DIST: webDist,
    PORT: '0',
    // Keep failed-login pauses short; the doubling is unit-tested.
    LOGIN_DELAY_MS: '1',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...(typeof options.env === 'function' ? options.env() : options.env),
  };
  const config: Config = loadConfig(env);
  const { db, dialect } = createDatabase(config);
  const mailer = createMailer(config, { info: () => undefined });
  const ctx: AppContext = { config, db, dialect, mailer, state: { ready: false } };

  const becomeReady = async () => {
    await migrateToLatest(db, dialect);
    await seedFlatpages(ctx);
    ctx.state.ready = true;
  };
  if (options.ready !== false) await becomeReady();

  const app = await buildApp(ctx, { logger: false, extensions: options.extensions });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('server has no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;

  const client = (headers?: Record<string, string>) => new TestClient(baseUrl, headers);

  const server: TestServer = {
    engine,
    ctx,
    app,
    baseUrl,
    env,
    client,
    becomeReady,
    async buildUser(overrides = {}) {
      userCounter += 1;
      const username = overrides.username ?? `user${userCounter}_${randomBytes(3).toString('hex')}`;
      const email = overrides.email ?? `${username}@example.org`;
      const password = overrides.password === undefined ? 'correct horse battery staple' : overrides.password;
      const user = await createUser(ctx, { emailVerified: true, ...overrides, username, email, password });
      return { ...user, password: password ?? '', email };
    },
    loginAs(user, headers) {
      return loggedInClient(baseUrl, user.username, user.password, headers);
    },
    async loggedInUser(overrides) {
      const user = await server.buildUser(overrides);
      return { user, browser: await server.loginAs(user) };
    },
    async rows(table, where = {}) {
      // `where` is typed by the caller; the query is built on the untyped view of the same database.
      let query = (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
        .selectFrom(table)
        .selectAll();
      for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
      return (await query.execute()) as TableRow<typeof table>[];
    },
    async close() {
      await app.close();
      mailer.close();
      await db.destroy();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** The answer to a refused form (spec section 7): errors of each field, and of the whole form. */
export function formErrors(fields: Record<string, string[]>, errors: string[] = []) {
  return {
    form: {
      errors,
      fields: Object.fromEntries(
        Object.entries(fields).map(([name, messages]) => [name, { errors: messages }]),
      ),
    },
  };
}

/**
 * Something a describe's tests talk to (a fake SMTP server, identity provider, ...), started
 * before its tests and closed after them; the returned function gives it to the tests.
 */
export function useStarted<T extends { close(): Promise<void> }>(
  what: string,
  start: () => Promise<T>,
): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  return () => {
    if (!started) throw new Error(`${what} did not start (see the beforeAll error)`);
    return started;
  };
}

/**
 * Starts a server for the enclosing describe block and stops it afterwards:
 * `const server = useServer(engine); ... server().client()`.
 */
export function useServer(engine: Engine, options: TestServerOptions = {}): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(engine, options);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the test server did not start (see the beforeAll error)');
    return server;
  };
}
