/**
 * The screenshot gallery as a test (the e2e layer of `npm test` runs it after the browser specs):
 * starts the built app on a free port with a fresh DATA_DIR, creates a user, runs
 * scripts/screenshots.ts against it with sample data, and exits with its status, which is non-zero
 * when a screen scrolls sideways on a phone or a dialog's parts stick out of it. The gallery is
 * written to SHOT_DIR (default: a temporary folder, printed at the end).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const USER = 'gallery';
const PASSWORD = 'a long gallery secret';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function waitForServer(url: string, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not answer ${url}`);
}

const port = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-shots-data-'));
const shotDir = process.env.SHOT_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'scriptorium-shots-'));
const baseUrl = `http://127.0.0.1:${port}`;
const serverEnv = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SITE_URL: baseUrl,
  DATABASE_URL: '',
  REDIS_URL: '',
  SMTP_URL: '',
  PLUGINS: '',
  LOGIN_DELAY_MS: '20',
};
// The compiled server, as the browser specs run it (`npm test` builds before this step).
const server = spawn(process.execPath, ['server/dist/main.js'], {
  cwd: root,
  env: serverEnv,
  stdio: ['ignore', 'ignore', 'inherit'],
});
let status = 1;
try {
  await waitForServer(`${baseUrl}/api/base/configuration/`, server);
  const created = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/src/cli/manage.ts',
      'createuser',
      '--username',
      USER,
      '--email',
      'gallery@example.org',
      '--password',
      PASSWORD,
      '--first-name',
      'Gallery',
      '--last-name',
      'Reviewer',
    ],
    serverEnv,
  );
  if (created !== 0) throw new Error('could not create the gallery user');
  status = await run(process.execPath, ['--import', 'tsx', 'scripts/screenshots.ts'], {
    ...process.env,
    BASE_URL: baseUrl,
    SHOT_USER: USER,
    SHOT_PASSWORD: PASSWORD,
    SHOT_SEED: '1',
    SHOT_DIR: shotDir,
  });
} catch (error) {
  console.error(`screenshots: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`Gallery: ${shotDir}`);
process.exit(status);
