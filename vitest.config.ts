import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One Vitest run covers the unit and API layers of every workspace; browser specs are Playwright's (e2e/).
export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one on a 2-core machine, where the API
    // suites then spent their waits on servers, databases and converters one file at a time
    // (12.3 min for the whole run here, 7.1 min with two workers).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'common/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'server/test/**/*.test.ts',
            'web/build/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          testTimeout: 20000,
          hookTimeout: 60000,
          globalSetup: ['server/test/compiled-server-setup.ts'],
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['web/src/test-setup.ts'],
        },
      },
    ],
  },
});
