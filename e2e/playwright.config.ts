import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { CHROMIUM_LAUNCH, E2E_PORT } from './server-env';

// Browser specs against the real server (SQLite in a fresh DATA_DIR) in Debian's Chromium.
// Never downloads a browser: executablePath points at the system package.
export default defineConfig({
  testDir: './specs',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: 2,
  // No retry: a test that fails once fails the run. A flaky test is a race to find and fix, and
  // a retry would hide it.
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'en-US',
    // A click whose target never comes fails by itself, naming the target, instead of silently
    // using up the whole test's time.
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    // A failed test keeps its trace with the DOM at each step, but no screencast: recording every
    // page's frames cost about 15% of the run's CPU on this 2-core machine (editor and documents
    // specs: 132-138 s busy against 154-166 s, measured in turns).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /broadcast\.spec\.ts$/,
      use: { browserName: 'chromium', headless: true },
    },
    // A system message goes to every connected user: these run alone, after all the others, so
    // that its dialog never opens over another scenario's page (alone: add --no-deps).
    {
      name: 'broadcast',
      testMatch: /broadcast\.spec\.ts$/,
      dependencies: ['chromium'],
      use: { browserName: 'chromium', headless: true },
    },
  ],
  webServer: {
    command: 'node --import tsx e2e/start-server.ts',
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `http://127.0.0.1:${E2E_PORT}${baseApi.configuration.path}`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
