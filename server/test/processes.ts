import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import pg from 'pg';
import type { Config } from '../src/config';
import { createDatabase, type Db } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';

// Real server processes (src/main.ts as children) and throw-away PostgreSQL databases, for the
// tests and benchmarks that run more than one server process or kill one.

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The environment of server processes on `dataDir` (no web build: they serve the API only), on
 * PostgreSQL and Redis when `services` names them, else on SQLite in `dataDir`.
 */
export function processEnv(
  dataDir: string,
  secretKey: string,
  services?: { databaseUrl: string; redisUrl: string },
): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    SECRET_KEY: secretKey,
    ...(services ? { DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl } : {}),
  };
}

/**
 * Migrates the database server processes are about to share (PostgreSQL at `databaseUrl`, else
 * SQLite in `dataDir`) and fills it with `seed`, closing the connection before they start.
 */
export async function seedDatabase<T>(
  where: Pick<Config, 'databaseUrl' | 'dataDir'>,
  seed: (db: Db) => Promise<T>,
): Promise<T> {
  const { db, dialect } = createDatabase(where);
  try {
    await migrateToLatest(db, dialect);
    return await seed(db);
  } finally {
    await db.destroy();
  }
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** What the process wrote to stdout and stderr, for the messages of failed tests. */
  output: string[];
}

/**
 * Starts the server on 127.0.0.1 with `env` over this process's environment (on `port`, else a
 * free one) and resolves once it answers the configuration endpoint: the compiled server
 * `compiledMain` (scripts/build-server.mjs) with plain node, as `npm start` runs it; in the tests by
 * default the bundle of the run (compiled-server-setup.ts); else src/main.ts through tsx.
 */
export async function startServerProcess(
  env: Record<string, string>,
  port?: number,
  compiledMain = process.env.SCRIPTORIUM_TEST_SERVER,
): Promise<ServerProcess> {
  const listenOn = port ?? (await freePort());
  const output: string[] = [];
  const child = spawn(process.execPath, compiledMain ? [compiledMain] : ['--import', 'tsx', MAIN], {
    env: { ...process.env, ...env, PORT: String(listenOn), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const started: ServerProcess = { child, port: listenOn, baseUrl: `http://127.0.0.1:${listenOn}`, output };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
    try {
      if ((await fetch(`${started.baseUrl}${baseApi.configuration.path}`)).status === 200) return started;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Stops a server process with `signal` (SIGKILL: no clean shutdown) and resolves once it exited. */
export function stopServerProcess(
  { child, output = [] }: { child: ChildProcess; output?: string[] },
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const slow = setTimeout(
      () => console.warn(`slow ${signal} stop:\n${output.slice(-20).join('')}`),
      10_000,
    );
    child.once('exit', () => {
      clearTimeout(slow);
      resolve();
    });
    child.kill(signal);
  });
}

export interface TemporaryDatabase {
  url: string;
  /** Drops the database, closing the connections still open to it. */
  drop(): Promise<void>;
}

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A new PostgreSQL database named `<prefix>_<random>` next to the one `adminUrl` reaches: empty,
 * or migrated and filled with `seed` (as seedDatabase does) when one is given.
 */
export async function temporaryDatabase(
  adminUrl: string,
  prefix: string,
  seed?: (db: Db) => Promise<unknown>,
): Promise<TemporaryDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database: TemporaryDatabase = {
    url: url.toString(),
    drop: () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
  if (seed) {
    try {
      // On PostgreSQL nothing goes to the data folder: no folder is needed.
      await seedDatabase({ databaseUrl: database.url, dataDir: '' }, seed);
    } catch (error) {
      await database.drop();
      throw error;
    }
  }
  return database;
}
