import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { createUser, loginAs } from './fixtures';
import { E2E_PORT, e2eServerEnv, SERVER_ENTRY } from './server-env';

/** A graceful stop (requests finished, sockets closed, database released) takes well under this. */
const STOP_LIMIT_MS = 15_000;

/**
 * A server process of a spec's own, beside the shared e2e server: for what must not reach other
 * specs' pages (system messages, a restart) or needs other settings (PLUGINS). `offset` keeps the
 * ports of such specs apart. Each start after a dispose gets a fresh data directory (and so a
 * fresh database): repeated runs of a spec never see each other's accounts.
 */
export function ownServer(offset: number, settings: NodeJS.ProcessEnv = {}) {
  const port = E2E_PORT + offset;
  const env: NodeJS.ProcessEnv = {
    ...e2eServerEnv(),
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    ...settings,
  };
  let server: ChildProcess | null = null;
  let dataDir: string | null = null;
  let logTail = '';
  const contexts = new Set<BrowserContext>();

  async function start() {
    dataDir ??= mkdtempSync(path.join(os.tmpdir(), `scriptorium-e2e-${offset}-`));
    env.DATA_DIR = dataDir;
    const child = spawn(process.execPath, [SERVER_ENTRY], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    let errors = '';
    child.stderr?.on('data', (chunk) => {
      errors = (errors + String(chunk)).slice(-4000);
    });
    // The log's last lines say what a stop that hangs is still waiting for.
    logTail = '';
    child.stdout?.on('data', (chunk) => {
      logTail = (logTail + String(chunk)).slice(-6000);
    });
    let exited: number | null = null;
    child.once('exit', (code) => {
      exited = code ?? -1;
    });
    await expect
      .poll(
        async () => {
          // A process that ended never answers: whatever does (a server left over on the port)
          // must not pass for it.
          if (exited !== null) return `exited with ${exited}: ${errors}`;
          try {
            return (await fetch(`http://127.0.0.1:${port}${baseApi.configuration.path}`)).status;
          } catch {
            return 0;
          }
        },
        { message: `the server on port ${port} answers`, timeout: 60_000 },
      )
      .toBe(200);
  }

  /** SIGTERM, as a service manager stops it; a server that does not end in time is a failure. */
  async function stop() {
    const running = server;
    if (!running) return;
    server = null;
    if (running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<boolean>((resolve) => running.once('exit', () => resolve(true)));
    running.kill('SIGTERM');
    const limit = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STOP_LIMIT_MS).unref());
    if (await Promise.race([exited, limit])) return;
    // Never leave it on the port for the next attempt: the failure is reported, the process ends.
    running.kill('SIGKILL');
    await exited;
    throw new Error(
      `the server on port ${port} did not stop within ${STOP_LIMIT_MS} ms of SIGTERM; its log ended with:\n${logTail}`,
    );
  }

  /** A page in a context of its own whose relative addresses go to this server. */
  async function page(browser: Browser): Promise<Page> {
    const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
    contexts.add(context);
    return context.newPage();
  }

  /** Closes the browser contexts of every page made by `page` or `userPage` so far. */
  async function closePages() {
    for (const context of contexts) await context.close();
    contexts.clear();
  }

  /** A new user of this server (`options` as createUser's), logged in on a page of its own at `path`. */
  async function userPage(browser: Browser, options: Parameters<typeof createUser>[0] = {}, path = '/') {
    const user = await createUser(options, env);
    const userPage = await page(browser);
    await loginAs(userPage, user, path);
    return { page: userPage, user };
  }

  /** Stops the process and removes its data. */
  async function dispose() {
    try {
      await stop();
    } finally {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      dataDir = null;
    }
  }

  return { env, start, stop, page, userPage, closePages, dispose };
}

/**
 * ownServer for the describe block it is called in: started before its tests (a fresh database to
 * migrate and a process to start: the hook may take up to a minute) and disposed after them; the
 * pages a test made on it are closed after that test.
 */
export function useOwnServer(offset: number, settings: NodeJS.ProcessEnv = {}) {
  const own = ownServer(offset, settings);
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    await own.start();
  });
  test.afterEach(async () => {
    await own.closePages();
  });
  test.afterAll(async () => {
    await own.dispose();
  });
  return own;
}
