import { writeFileSync } from 'node:fs';
import { type Browser, chromium, type Page } from '@playwright/test';
import { type BenchServer, createBenchUser, loginHeaders, startBenchServer, WEB_DIST } from './server';
import { median } from './stats';

/** How many times a browser bench opens each document it times (BENCH_OPENS, 5 without it). */
export const OPENS = Number(process.env.BENCH_OPENS ?? 5);

/**
 * Debian's Chromium (CHROMIUM_PATH elsewhere), as the browser specs launch it, with frames not
 * held to a 60 Hz display: a keystroke's paint is then measured, not the wait (up to 16.7 ms) for
 * the display's next refresh, which a plain textarea pays too (BENCH_VSYNC=1 measures with it).
 */
export function launchBenchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      ...(process.env.BENCH_VSYNC ? [] : ['--disable-frame-rate-limit', '--disable-gpu-vsync']),
    ],
  });
}

/** What a browser bench works with: its server, the browser, and a user logged in there. */
export interface BrowserBench {
  server: BenchServer;
  browser: Browser;
  user: Awaited<ReturnType<typeof createBenchUser>>;
  /** The headers that carry the user's session (and CSRF token). */
  headers: Awaited<ReturnType<typeof loginHeaders>>;
}

/**
 * Starts a bench server (`name`) serving the build and a browser, makes the user `username` and
 * logs it in, runs `work` with them; the browser and the server are closed after it, also on failure.
 */
export async function withBrowserBench(
  name: string,
  username: string,
  work: (bench: BrowserBench) => Promise<void>,
): Promise<void> {
  const server = await startBenchServer(name, { WEB_DIST });
  const browser = await launchBenchBrowser();
  try {
    const user = await createBenchUser(server.ctx, username);
    const headers = await loginHeaders(server.base, username);
    await work({ server, browser, user, headers });
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * Time to editable, in ms: from navigating (after about:blank) to the document at `base` until its
 * editor is editable and shows the document's last paragraph.
 */
export async function timeToEditable(page: Page, base: string, id: number): Promise<number> {
  await page.goto('about:blank');
  const t0 = performance.now();
  await page.goto(`${base}/document/${id}`);
  await page.locator('.editor-document[contenteditable="true"]').waitFor();
  await page.locator('.editor-document p').last().waitFor();
  return performance.now() - t0;
}

/**
 * Time to editable of two documents, opened in turns `runs` times each (the machine's state
 * drifts alike for both): the times of the first and of the second, and their medians.
 */
export async function timesToEditableInTurns(
  page: Page,
  base: string,
  [first, second]: readonly [number, number],
  runs: number,
): Promise<{ times: [number[], number[]]; medians: [number, number] }> {
  const firstTimes: number[] = [];
  const secondTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    firstTimes.push(await timeToEditable(page, base, first));
    secondTimes.push(await timeToEditable(page, base, second));
  }
  return { times: [firstTimes, secondTimes], medians: [median(firstTimes), median(secondTimes)] };
}

/**
 * Runs the work; with BENCH_PROFILE=1 also prints where the page's time went meanwhile (self time
 * by function, top 15, from the DevTools CPU profiler). `name` tells two profiles of one bench apart.
 */
export async function profiled<T>(page: Page, work: () => Promise<T>, name = ''): Promise<T> {
  if (!process.env.BENCH_PROFILE) return work();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  // BENCH_PROFILE_INTERVAL=µs: a finer sampling than the default (1 ms) for short spans.
  if (process.env.BENCH_PROFILE_INTERVAL)
    await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL) });
  await cdp.send('Profiler.start');
  const result = await work();
  const { profile } = await cdp.send('Profiler.stop');
  // BENCH_PROFILE_FILE=path: the whole profile as well (path + name), for a call tree or DevTools.
  if (process.env.BENCH_PROFILE_FILE)
    writeFileSync(`${process.env.BENCH_PROFILE_FILE}${name}.cpuprofile`, JSON.stringify(profile));
  const self = new Map<string, number>();
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples?.length ?? 1);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const sample of profile.samples ?? []) {
    const frame = byId.get(sample)?.callFrame;
    if (!frame) continue;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + interval / 1000);
  }
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${key}`);
  // Inclusive time: each function counted once per sample whose stack holds it.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const total = new Map<string, number>();
  for (const sample of profile.samples ?? []) {
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (!frame?.url) continue;
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
      seen.add(key);
    }
    for (const key of seen) total.set(key, (total.get(key) ?? 0) + interval / 1000);
  }
  console.log('  inclusive:');
  for (const [key, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${key}`);
  return result;
}

/**
 * BENCH_TRACE=1: the browser's own work during `work` (style, layout, paint, event dispatch),
 * summed per kind of trace event on the busiest thread (the page's main thread); what a
 * JavaScript profile shows as "(program)". Events nest: RunTask holds the others.
 * BENCH_TRACE_CATS=a,b: other trace categories (e.g. blink,editing for the editing commands),
 * BENCH_TRACE_TOP=n: how many kinds to list, BENCH_TRACE_FILE=prefix: the whole trace as well
 * (for chrome://tracing or a script that walks one keystroke's events).
 */
export async function traced<T>(page: Page, work: () => Promise<T>): Promise<T> {
  const browser = page.context().browser();
  if (!process.env.BENCH_TRACE || !browser) return work();
  await browser.startTracing(page, {
    categories: (process.env.BENCH_TRACE_CATS ?? 'devtools.timeline,toplevel').split(','),
  });
  const result = await work();
  const trace = await browser.stopTracing();
  if (process.env.BENCH_TRACE_FILE) writeFileSync(`${process.env.BENCH_TRACE_FILE}${Date.now()}.json`, trace);
  const { traceEvents } = JSON.parse(trace.toString()) as {
    traceEvents: { name: string; ph: string; dur?: number; tid: number }[];
  };
  const complete = traceEvents.filter((event) => event.ph === 'X' && event.dur !== undefined);
  const sum = (events: typeof complete, key: (event: (typeof complete)[number]) => string | number) => {
    const totals = new Map<string | number, number>();
    for (const event of events)
      totals.set(key(event), (totals.get(key(event)) ?? 0) + (event.dur ?? 0) / 1000);
    return [...totals].sort((a, b) => b[1] - a[1]);
  };
  const main = sum(
    // Chromium's own tasks (category toplevel), named ThreadControllerImpl::RunTask in newer builds.
    complete.filter((event) => event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask'),
    (event) => event.tid,
  )[0]?.[0];
  for (const [name, ms] of sum(
    complete.filter((event) => event.tid === main),
    (event) => event.name,
  ).slice(0, Number(process.env.BENCH_TRACE_TOP ?? 12)))
    console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  return result;
}
