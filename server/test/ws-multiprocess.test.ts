import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { staffApi } from '@scriptorium/common/api/endpoints/staff';
import { WebSocketConnector } from '@scriptorium/common/ws/connector';
import { type AppFrame, BASE_SERVER_APP_SCHEMAS } from '@scriptorium/common/ws/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runManage } from '../src/cli/run-manage';
import { createUser } from '../src/modules/user/commands/create-user';
import { nodeSocketFactory } from '../src/ws/node-socket';
import { loggedInClient, TestClient } from './harness';
import {
  processEnv,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
  type TemporaryDatabase,
  temporaryDatabase,
} from './processes';
import { TEST_DATABASE_URL as DATABASE_URL, TEST_REDIS_URL as REDIS_URL, servicesForTests } from './services';
import { cookieHeader, eventually, waitFor, wsUrlBase } from './ws-support';

const SERVICES = await servicesForTests('the two-process websocket test is');

type Process = ServerProcess & { dataDir: string };

describe.skipIf(!SERVICES)('two server processes sharing PostgreSQL and Redis', () => {
  let database: TemporaryDatabase;
  const processes: Process[] = [];
  const connectors: WebSocketConnector[] = [];
  const password = 'correct horse battery staple';

  async function startProcess(): Promise<Process> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-proc-'));
    const started = await startServerProcess(
      processEnv(dataDir, 'two-process-test', { databaseUrl: database.url, redisUrl: REDIS_URL }),
    );
    const server = { ...started, dataDir };
    processes.push(server);
    return server;
  }

  const login = (on: Process, username: string) => loggedInClient(on.baseUrl, username, password);

  function connect(on: Process, client: TestClient): { connector: WebSocketConnector; messages: AppFrame[] } {
    const messages: AppFrame[] = [];
    const connector = new WebSocketConnector({
      serverMessages: BASE_SERVER_APP_SCHEMAS,
      wsUrlBase: wsUrlBase(on.baseUrl),
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
    database = await temporaryDatabase(DATABASE_URL, 'scriptorium_ws', async (db) => {
      for (const [username, isStaff] of [
        ['ada', false],
        ['emmy', false],
        ['root', true],
      ] as const) {
        await createUser(
          { db },
          { username, email: `${username}@example.org`, password, emailVerified: true, isStaff },
        );
      }
    });
    await Promise.all([startProcess(), startProcess()]);
  }, 120_000);

  afterAll(async () => {
    for (const connector of connectors) connector.close();
    await Promise.all(processes.map((started) => stopServerProcess(started)));
    for (const { dataDir } of processes) rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
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
        DATABASE_URL: database.url,
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
