import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { staffApi } from '@scriptorium/common/api/endpoints/staff';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { WebSocketConnector } from '@scriptorium/common/ws/connector';
import type { AppFrame } from '@scriptorium/common/ws/messages';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runManage } from '../src/cli/run-manage';
import { createDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { createUser } from '../src/modules/user/commands/create-user';
import { nodeSocketFactory } from '../src/ws/node-socket';
import { TestClient } from './harness';
import { postgresAndRedisReachable } from './services';
import { cookieHeader, eventually, waitFor } from './ws-support';

const REQUIRED = process.env.REQUIRE_SERVICES === '1';
const DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');

const SERVICES = REQUIRED || (await postgresAndRedisReachable(DATABASE_URL, REDIS_URL, 3000));
if (!SERVICES) console.warn('PostgreSQL or Redis not reachable: the two-process websocket test is skipped.');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

interface Process {
  child: ChildProcess;
  baseUrl: string;
  output: string[];
  dataDir: string;
}

describe.skipIf(!SERVICES)('two server processes sharing PostgreSQL and Redis', () => {
  const name = `scriptorium_ws_${randomBytes(6).toString('hex')}`;
  const databaseUrl = (() => {
    const url = new URL(DATABASE_URL);
    url.pathname = `/${name}`;
    return url.toString();
  })();
  const processes: Process[] = [];
  const connectors: WebSocketConnector[] = [];
  const password = 'correct horse battery staple';

  async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  }

  async function startProcess(): Promise<Process> {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-proc-'));
    const output: string[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        REDIS_URL,
        DATA_DIR: dataDir,
        SECRET_KEY: 'two-process-test',
        WEB_DIST: path.join(dataDir, 'no-web'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const started: Process = { child, baseUrl: `http://127.0.0.1:${port}`, output, dataDir };
    processes.push(started);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
      try {
        const response = await fetch(`${started.baseUrl}${baseApi.configuration.path}`);
        if (response.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return started;
  }

  async function login(on: Process, username: string): Promise<TestClient> {
    const client = new TestClient(on.baseUrl);
    const response = await client.call(userApi.login, { login: username, password });
    expect(response.status, response.text).toBe(200);
    return client;
  }

  function connect(on: Process, client: TestClient): { connector: WebSocketConnector; messages: AppFrame[] } {
    const messages: AppFrame[] = [];
    const connector = new WebSocketConnector({
      wsUrlBase: `${on.baseUrl.replace(/^http/, 'ws')}/ws`,
      createSocket: nodeSocketFactory({ cookie: cookieHeader(client), origin: on.baseUrl }),
      onMessage: (message) => messages.push(message),
      isOnline: () => true,
      events: new EventTarget(),
    });
    connector.open();
    connectors.push(connector);
    return { connector, messages };
  }

  beforeAll(async () => {
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-setup-'));
    const { db, dialect } = createDatabase({ databaseUrl, dataDir });
    try {
      await migrateToLatest(db, dialect);
      await createUser({ db }, { username: 'ada', email: 'ada@example.org', password, emailVerified: true });
      await createUser(
        { db },
        { username: 'emmy', email: 'emmy@example.org', password, emailVerified: true },
      );
      await createUser(
        { db },
        { username: 'root', email: 'root@example.org', password, emailVerified: true, isStaff: true },
      );
    } finally {
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
    await Promise.all([startProcess(), startProcess()]);
  }, 120_000);

  afterAll(async () => {
    for (const connector of connectors) connector.close();
    await Promise.all(
      processes.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    for (const { dataDir } of processes) rmSync(dataDir, { recursive: true, force: true });
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }, 60_000);

  it('fans a system message posted to one process out to the clients of both', async () => {
    const [first, second] = processes;
    const ada = connect(first, await login(first, 'ada'));
    const emmy = connect(second, await login(second, 'emmy'));
    await waitFor(
      () => ada.connector.status.state === 'open' && emmy.connector.status.state === 'open',
      'open',
    );

    const staffOnFirst = await login(first, 'root');
    const posted = await staffOnFirst.call(staffApi.sendSystemMessage, {
      message: 'Posted to the first.',
    });
    expect(posted.status, posted.text).toBe(200);
    await waitFor(() => ada.messages.length === 1 && emmy.messages.length === 1, 'the first message on both');

    // The session cookie made on one process is good on the other: they share the database.
    const staffOnSecond = new TestClient(second.baseUrl);
    for (const [cookie, value] of staffOnFirst.cookies) staffOnSecond.cookies.set(cookie, value);
    const again = await staffOnSecond.call(staffApi.sendSystemMessage, {
      message: 'Posted to the second.',
    });
    expect(again.status, again.text).toBe(200);
    await waitFor(
      () => ada.messages.length === 2 && emmy.messages.length === 2,
      'the second message on both',
    );

    for (const client of [ada, emmy]) {
      expect(client.messages.map((message) => message.message)).toEqual([
        'Posted to the first.',
        'Posted to the second.',
      ]);
    }

    // connection_info counts the sockets of every process.
    const info = await eventually(
      async () => (await staffOnSecond.call(staffApi.connectionInfo)).json(),
      (counted) => counted.processes === 2 && counted.sockets === 2,
      'the census of both processes',
    );
    expect(info).toEqual({ users: 2, sockets: 2, processes: 2 });

    // The command line reaches both processes through Redis.
    const out: string[] = [];
    const code = await runManage(['system-message', 'From the command line.'], {
      env: {
        DATABASE_URL: databaseUrl,
        REDIS_URL,
        DATA_DIR: processes[0].dataDir,
        SECRET_KEY: 'two-process-test',
        LANG: 'en_US.UTF-8',
      },
      out: (line) => out.push(line),
      err: (line) => out.push(line),
    });
    expect({ code, out }).toEqual({ code: 0, out: ['System message sent (server processes reached: 2).'] });
    await waitFor(
      () => ada.messages.length === 3 && emmy.messages.length === 3,
      'the command-line message on both',
    );
  }, 60_000);
});
