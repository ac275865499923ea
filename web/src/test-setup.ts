import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { initI18n } from './i18n/i18n';

/** CSS.escape as the CSSOM spec defines it; jsdom lacks it and react-aria's focus scopes call it. */
function cssEscape(value: string): string {
  let result = '';
  for (let index = 0; index < value.length; index++) {
    const char = value.charAt(index);
    const code = value.charCodeAt(index);
    if (code === 0) result += '\uFFFD';
    else if (
      (code >= 0x01 && code <= 0x1f) ||
      code === 0x7f ||
      (index === 0 && code >= 0x30 && code <= 0x39) ||
      (index === 1 && code >= 0x30 && code <= 0x39 && value.charCodeAt(0) === 0x2d)
    ) {
      result += `\\${code.toString(16)} `;
    } else if (index === 0 && value.length === 1 && code === 0x2d) result += `\\${char}`;
    else if (code >= 0x80 || code === 0x2d || code === 0x5f || /[0-9A-Za-z]/.test(char)) result += char;
    else result += `\\${char}`;
  }
  return result;
}

if (typeof globalThis.CSS === 'undefined') {
  Object.defineProperty(globalThis, 'CSS', {
    value: { escape: cssEscape, supports: () => false },
    configurable: true,
    writable: true,
  });
} else if (typeof globalThis.CSS.escape !== 'function') {
  globalThis.CSS.escape = cssEscape;
}

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
