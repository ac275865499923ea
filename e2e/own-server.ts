import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Page } from '@playwright/test';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { E2E_PORT, e2eServerEnv } from './server-env';

/**
 * A server process of a spec's own, beside the shared e2e server: for what must not reach other
 * specs' pages (system messages, a restart) or needs other settings (PLUGINS). `offset` keeps the
 * ports of such specs apart.
 */
export function ownServer(offset: number, settings: NodeJS.ProcessEnv = {}) {
  const port = E2E_PORT + offset;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `scriptorium-e2e-${offset}-`));
  const env = {
    ...e2eServerEnv(),
    PORT: String(port),
    DATA_DIR: dataDir,
    SITE_URL: `http://127.0.0.1:${port}`,
    ...settings,
  };
  let server: ChildProcess | null = null;

  async function start() {
    server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { env, stdio: 'ignore' });
    await expect
      .poll(
        async () => {
          try {
            return (await fetch(`http://127.0.0.1:${port}${baseApi.configuration.path}`)).status;
          } catch {
            return 0;
          }
        },
        { timeout: 60_000 },
      )
      .toBe(200);
  }

  async function stop() {
    const running = server;
    if (!running) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
    server = null;
  }

  /** A page in a context of its own whose relative addresses go to this server. */
  async function page(browser: Browser): Promise<Page> {
    const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
    return context.newPage();
  }

  /** Stops the process and removes its data. */
  async function dispose() {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  return { env, start, stop, page, dispose };
}
