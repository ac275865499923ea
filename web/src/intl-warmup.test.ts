import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

// web/public/intl-warmup.js: the first use of Intl, in small tasks of its own after the first paint.
const web = path.resolve(import.meta.dirname, '..');
const source = readFileSync(path.join(web, 'public/intl-warmup.js'), 'utf8');

/** Runs the script with a browser's scheduling functions and an Intl that record what it asks for. */
function runWarmup(language: string | undefined, refuse = false) {
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const calls: string[] = [];
  const use =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push(`${name} ${JSON.stringify(args)}`);
      if (refuse) throw new RangeError('Incorrect locale information provided');
      return { format: () => '' };
    };
  const construct = (name: string) =>
    function (this: unknown, ...args: unknown[]) {
      return use(name)(...args);
    };
  const DateTimeFormat = Object.assign(construct('DateTimeFormat'), {
    supportedLocalesOf: use('supportedLocalesOf'),
  });
  runInNewContext(source, {
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    setTimeout: (callback: () => void) => timers.push(callback),
    navigator: { language },
    Intl: { Locale: construct('Locale'), NumberFormat: construct('NumberFormat'), DateTimeFormat },
  });
  /** Runs the next task the script scheduled. */
  const runTask = () => {
    const task = timers.shift();
    if (!task) throw new Error('no task scheduled');
    task();
  };
  return { frames, timers, calls, runTask };
}

describe('Intl warm-up', () => {
  it('is loaded async by index.html, before the app, not inline (script-src self)', () => {
    const index = readFileSync(path.join(web, 'index.html'), 'utf8');
    const head = index.slice(0, index.indexOf('</head>'));
    expect(head).toContain('<script async src="/intl-warmup.js"></script>');
    expect(index.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
  });

  it('touches Intl only after the next frame, one step per task, with the browser language', () => {
    const { frames, timers, calls, runTask } = runWarmup('de-DE');
    expect(timers).toHaveLength(0);
    frames[0]();
    expect(calls).toEqual([]);
    const perTask: string[][] = [];
    while (timers.length > 0) {
      const before = calls.length;
      runTask();
      perTask.push(calls.slice(before).map((call) => call.split(' ')[0]));
    }
    expect(perTask).toEqual([['Locale'], ['supportedLocalesOf'], ['NumberFormat'], ['DateTimeFormat']]);
    expect(calls[1]).toBe('supportedLocalesOf [["de-DE"]]');
  });

  it('falls back to en-US and goes on through every step when Intl refuses the language', () => {
    const { frames, timers, calls, runTask } = runWarmup(undefined, true);
    frames[0]();
    while (timers.length > 0) expect(runTask).not.toThrow();
    expect(calls.map((call) => call.split(' ')[0])).toEqual([
      'Locale',
      'supportedLocalesOf',
      'NumberFormat',
      'DateTimeFormat',
    ]);
    expect(calls[0]).toBe('Locale ["en-US"]');
  });
});
