import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

// web/public/intl-warmup.js: the first use of Intl, in a task of its own after the first paint.
const web = path.resolve(import.meta.dirname, '..');
const source = readFileSync(path.join(web, 'public/intl-warmup.js'), 'utf8');

/** Runs the script with a browser's scheduling functions that record what it asks for. */
function runWarmup(language: string | undefined, supportedLocalesOf: (locales: string[]) => unknown) {
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  runInNewContext(source, {
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    setTimeout: (callback: () => void) => timers.push(callback),
    navigator: { language },
    Intl: { DateTimeFormat: { supportedLocalesOf } },
  });
  return { frames, timers };
}

describe('Intl warm-up', () => {
  it('is loaded async by index.html, before the app, not inline (script-src self)', () => {
    const index = readFileSync(path.join(web, 'index.html'), 'utf8');
    const head = index.slice(0, index.indexOf('</head>'));
    expect(head).toContain('<script async src="/intl-warmup.js"></script>');
    expect(index.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
  });

  it('touches Intl only after the next frame, in a task of its own, with the browser language', () => {
    const probe = vi.fn();
    const { frames, timers } = runWarmup('de-DE', probe);
    expect(probe).not.toHaveBeenCalled();
    frames[0]();
    expect(probe).not.toHaveBeenCalled();
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(probe).toHaveBeenCalledWith(['de-DE']);
  });

  it('falls back to en-US and is quiet about a language tag Intl refuses', () => {
    const refused = vi.fn(() => {
      throw new RangeError('Incorrect locale information provided');
    });
    const { frames, timers } = runWarmup(undefined, refused);
    frames[0]();
    expect(() => timers[0]()).not.toThrow();
    expect(refused).toHaveBeenCalledWith(['en-US']);
  });
});
