import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './service-worker';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('registerServiceWorker', () => {
  it('registers /sw.js only after the page has loaded and the browser is idle', () => {
    vi.stubEnv('PROD', true);
    const register = vi.fn(() => new Promise<never>(() => {}));
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: { register } });
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');

    registerServiceWorker();
    expect(register).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    expect(register).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle[0]();
    expect(register).toHaveBeenCalledWith('/sw.js');
  });
});
