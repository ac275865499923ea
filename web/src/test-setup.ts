import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import './components/test-polyfills';
import { initI18n } from './i18n/i18n';

// The first render of a file imports the whole shell and its lazy screens; under a parallel run of
// every workspace that can take longer than Vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });
// Lazy screens are transformed on first import, which can exceed findBy*'s 1 s default under load.
configure({ asyncUtilTimeout: 8000 });

// Screens translate through the shared i18next instance; tests read the English texts.
await initI18n('en');

// Unmount rendered trees between tests so portals and listeners do not leak across tests.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
