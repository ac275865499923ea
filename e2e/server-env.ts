import os from 'node:os';
import path from 'node:path';

/**
 * The specs run the compiled server (`npm run build`), as `npm start` serves it: under tsx every
 * worker thread compiles its module graph again at its first task, 10-20 s per pool on a busy
 * 2-core machine, taken from the specs' own time.
 */
export const SERVER_ENTRY = 'server/dist/main.js';

/** Where the e2e server listens and keeps its data; the specs' fixtures use the same values. */
export const E2E_PORT = Number(process.env.E2E_PORT || 8123);
export const E2E_DATA_DIR = path.join(os.tmpdir(), `scriptorium-e2e-${E2E_PORT}`);

export function e2eServerEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(E2E_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: E2E_DATA_DIR,
    SITE_URL: `http://127.0.0.1:${E2E_PORT}`,
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
    PLUGINS: '',
    // One address (loopback) runs every spec: only the per-account lock is exercised here.
    LOGIN_ADDRESS_MAX_FAILURES: '10000',
    LOGIN_DELAY_MS: '20',
    // The bibliography sources spec serves its files from a server of its own on loopback.
    BIB_SOURCES_ALLOW_PRIVATE: '127.0.0.1',
  };
}

/** Debian's Chromium, never a downloaded browser, with the flags of this machine (DESIGN.md). */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
