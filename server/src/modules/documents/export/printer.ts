import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Config } from '../../../config';

/**
 * The one Chromium that prints PDFs in this process (issue 50): each export used to launch its own
 * browser (8 small exports at once: 9 GB). It is launched at the first PDF, reused, and launched
 * again after a crash; each export gets a fresh browser context (nothing of one export's page is
 * seen by the next) and closes it. PDF_PRINTS exports print at once, a bounded number wait.
 *
 * An export's time budget (PDF_TIME_LIMIT_MS) counts from the moment its context is open: the wait
 * for a free print and the browser's launch (seconds on a loaded machine) are no work of its own,
 * and have the separate start budget (WORKER_START_LIMIT_MS); past either, PrintTimeLimit.
 *
 * The profile and temporary folders of the browser (Chromium's and Playwright's) are under
 * `<tmp>/scriptorium-printer/<pid>-<id>/`: closed normally it is removed; for a process killed
 * with -9 a small detached shell started with the browser removes it once the process is gone
 * (`removeWhenGone`), and the next server start removes the folders of processes that no longer
 * run (`sweepPrinterFolders`), should that shell have gone down too.
 *
 * One context and page are kept ready for the next export (`Spare`): opened, and readied as the
 * last export asked (typeset.ts: Paged.js loaded), when the browser starts for an export and
 * after each export, so that an export does not wait for them (a context and page took 0.2-0.4 s,
 * loading Paged.js 0.1-0.9 s). It has seen no export's page; one of another readiness, or of a
 * browser gone, is closed instead.
 */

/** The start budget's default, where no configuration names one (benches and tests of the writers). */
const START_LIMIT_MS = 120_000;

export type PrinterConfig = Pick<Config, 'pdfPrints' | 'pdfTimeLimitMs' | 'pdfMaxPages'> &
  Partial<Pick<Config, 'workerStartLimitMs' | 'heavyWorkNiceness'>>;

/** Too many PDF exports wait already: 503 with Retry-After. */
export class PrinterBusy extends Error {}
/** The export's time budget (or its start budget) ran out: its context is closed. */
export class PrintTimeLimit extends Error {}

/** Exports that may wait for the browser per export printing at once. */
const WAITING_PER_PRINT = 8;
/** The renderer's JavaScript heap, in MB: a page past it crashes alone, not the machine. */
const RENDERER_HEAP_MB = 1024;
/**
 * Headless Chromium (a whole browser since the old headless mode went) makes the address bar's
 * suggestion popups, two WebUI pages with a renderer each, for every browser context: an export's
 * context with them cost about 1 s more CPU of the machine's 2 cores (bench/export.ts).
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Where every printer of this machine keeps its folders. */
export function printerRoot(): string {
  return path.join(os.tmpdir(), 'scriptorium-printer');
}

/** Removes a printer's folder; Chromium may still be writing into it as it exits, hence the retries. */
function removeFolder(folder: string): Promise<void> {
  return rm(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the folders of printers whose process no longer runs (killed during an export); those
 * of running processes, this one's included, stay. Answers the names removed.
 */
export function sweepPrinterFolders(root = printerRoot()): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (Number.isSafeInteger(pid) && pid > 0 && alive(pid)) continue;
    try {
      rmSync(path.join(root, name), { recursive: true, force: true, maxRetries: 5 });
      removed.push(name);
    } catch {
      // Still being written by a browser that outlived its server: the next start tries again.
    }
  }
  return removed;
}

/**
 * What the remover runs: waits until the server ($0) no longer runs, ends its Chromium (every
 * process started with the folder in its command line: with its server gone it only writes its
 * profile as it shuts down, and one caught starting would make the folder again), removes the
 * folder, and repeats that until neither is left (at most 30 times). The folder comes in the
 * environment, so that the shell's own command line does not match it.
 */
const REMOVER_SCRIPT = `
while kill -0 "$0" 2>/dev/null; do sleep 1; done
tries=0
while [ "$tries" -lt 30 ]; do
  pkill -KILL -f -- "$PRINTER_FOLDER" >/dev/null 2>&1
  sleep 1
  rm -rf -- "$PRINTER_FOLDER"
  pgrep -f -- "$PRINTER_FOLDER" >/dev/null 2>&1 || [ -e "$PRINTER_FOLDER" ] || break
  tries=$((tries + 1))
done
`;

/**
 * A detached shell, outside this process's group, that removes `folder` (and ends a browser left
 * running in it) once this process no longer runs: a kill -9 runs no handler of ours.
 */
function removeWhenGone(folder: string): ChildProcess | null {
  try {
    const remover = spawn('/bin/sh', ['-c', REMOVER_SCRIPT, String(process.pid)], {
      detached: true,
      stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PRINTER_FOLDER: folder },
    });
    remover.on('error', () => undefined);
    remover.unref();
    return remover;
  } catch {
    // No shell: the next start's sweep removes the folder.
    return null;
  }
}

/**
 * What the printer starts in Chromium's place: Chromium at a lower CPU priority than the server's
 * event loop (its renderers inherit it), as the pools' worker threads run, so that printing goes
 * after answering everyone else. The real browser and the nice value (HEAVY_WORK_NICENESS) come
 * in the environment. (Where Linux groups processes by session, "autogroup", Playwright's browser
 * is in a session of its own and shares the CPU with the server's as a group; its group's own
 * nice value is left alone: raised, it would put printing behind every other session of the
 * machine.) Chromium run as root sets some of its processes' priorities itself (its browser and
 * GPU processes at -8, renderers at 0), undoing this: run the server as an ordinary user.
 *
 * Chromium takes only the last `--disable-features`: Playwright's own and the printer's
 * (DISABLED_FEATURES) are passed on as one.
 */
const LOWER_PRIORITY_LAUNCHER = `#!/bin/sh
features=
for arg in "$@"; do
  shift
  case "$arg" in
    --disable-features=*) features="\${features:+$features,}\${arg#--disable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
if [ -n "$features" ]; then set -- "$@" "--disable-features=$features"; fi
if [ "$SCRIPTORIUM_NICENESS" -gt 0 ] 2>/dev/null && command -v nice >/dev/null 2>&1; then
  exec nice -n "$SCRIPTORIUM_NICENESS" "$SCRIPTORIUM_CHROMIUM" "$@"
fi
exec "$SCRIPTORIUM_CHROMIUM" "$@"
`;

interface Running {
  persistent: BrowserContext;
  browser: Browser;
  folder: string;
  /** The page the browser started with, in its own context: the first spare's (none has used it). */
  initial: Page | null;
}

/** Readies a fresh page for an export before its turn (typeset.ts: loads Paged.js into it). */
export type PageReadiness = (page: Page) => Promise<void>;

/** A context and page opened for the next export and readied for it. */
interface Spare {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  readiness: PageReadiness | undefined;
  crashed: boolean;
  /** Closes what the export had: its context, or the pages of the browser's own. */
  dispose(): Promise<void>;
}

const CONTEXT_OPTIONS = { serviceWorkers: 'block', colorScheme: 'light' } as const;

/** A page of an export's context: it fetches nothing (the page is self-contained, images as data: URLs). */
async function exportPage(
  context: BrowserContext,
  readiness: PageReadiness | undefined,
  blank: Page | null = null,
): Promise<Page> {
  const page = blank ?? (await context.newPage());
  await page.route('**/*', (route) =>
    route.request().url().startsWith('data:') ? route.continue() : route.abort(),
  );
  if (readiness) await readiness(page);
  return page;
}

export class Printer {
  private running: Promise<Running> | null = null;
  private spare: Promise<Spare | null> | null = null;
  private printing = 0;
  private openContexts = 0;
  private readonly waiting: (() => void)[] = [];

  /** `keepReady: false`: no spare context and page (the bench's comparison: each export opens its own). */
  constructor(
    private readonly config: PrinterConfig,
    private readonly options: { keepReady?: boolean } = {},
  ) {}

  /** Browser contexts of exports open now (tests: a refused export's is closed). */
  get contexts(): number {
    return this.openContexts;
  }

  /** Exports printing now and waiting (for tests and the bench). */
  get load(): { printing: number; waiting: number } {
    return { printing: this.printing, waiting: this.waiting.length };
  }

  private launch(): Promise<Running> {
    // Short names: Chromium's singleton socket lives below, and a socket's path has at most 107 bytes.
    const folder = path.join(printerRoot(), `${process.pid}-${randomBytes(4).toString('hex')}`);
    const temporary = path.join(folder, 't');
    // The remover first: a kill -9 between making the folder and starting it would leave the
    // folder to the next start's sweep.
    const remover = removeWhenGone(folder);
    mkdirSync(temporary, { recursive: true });
    const launcher = path.join(folder, 'chromium');
    writeFileSync(launcher, LOWER_PRIORITY_LAUNCHER, { mode: 0o700 });
    const removeNow = () => {
      remover?.kill();
      void removeFolder(folder);
    };
    // playwright-core is loaded with the first print, not with the server (memory, issue 52).
    const launched = import('playwright-core')
      .then(({ chromium }) =>
        chromium.launchPersistentContext(path.join(folder, 'p'), {
          executablePath: launcher,
          ...CONTEXT_OPTIONS,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--no-first-run',
            '--disable-background-networking',
            `--disable-features=${DISABLED_FEATURES.join(',')}`,
            `--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`,
          ],
          // Chromium's own temporary folders go into ours, and so do Playwright's.
          env: {
            ...process.env,
            TMPDIR: temporary,
            SCRIPTORIUM_CHROMIUM: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
            SCRIPTORIUM_NICENESS: String(this.config.heavyWorkNiceness ?? 10),
          },
          ...{ artifactsDir: temporary },
        }),
      )
      .then((persistent): Running => {
        const browser = persistent.browser();
        if (!browser) throw new Error('the printer has no browser');
        browser.once('disconnected', () => {
          // Crashed or closed: the next export launches a new one.
          if (this.running === launched) this.running = null;
          removeNow();
        });
        return { persistent, browser, folder, initial: persistent.pages()[0] ?? null };
      });
    launched.catch(() => {
      if (this.running === launched) this.running = null;
      removeNow();
    });
    this.running = launched;
    return launched;
  }

  private async browser(): Promise<Browser> {
    const running = await (this.running ?? this.launch());
    if (running.browser.isConnected()) return running.browser;
    this.running = null;
    return (await this.launch()).browser;
  }

  /**
   * Starts the browser if it is not running, and readies a page for the next export: an export
   * calls it, without waiting, before the work that comes before its print (the export worker's
   * HTML), so that the two overlap. Resolves once the browser runs (or failed to start: the print
   * tells).
   */
  warm(readiness?: PageReadiness): Promise<void> {
    const browser = this.browser();
    this.keepSpare(browser, readiness);
    return browser.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Opens and readies the next export's context and page in the background, unless one is (set
   * at once: the export's print that follows a warm() takes it, even before the browser runs).
   */
  private keepSpare(started: Promise<Browser>, readiness: PageReadiness | undefined): void {
    if (this.spare || this.options.keepReady === false) return;
    this.spare = (async (): Promise<Spare | null> => {
      const browser = await started;
      // The first export's page is the one the browser started with (a context and page less to
      // open on the way to it: 0.1-0.3 s); its context is the browser's, so only its pages close.
      const running = await this.running?.catch(() => null);
      const own = running?.browser === browser ? running : null;
      const initial = own?.initial ?? null;
      if (own) own.initial = null;
      const context = initial && own ? own.persistent : await browser.newContext(CONTEXT_OPTIONS);
      const dispose = async () => {
        if (context === own?.persistent)
          await Promise.all(context.pages().map((page) => page.close().catch(() => undefined)));
        else await context.close().catch(() => undefined);
      };
      try {
        const page = await exportPage(context, readiness, initial);
        const spare: Spare = { browser, context, page, readiness, crashed: false, dispose };
        page.once('crash', () => {
          spare.crashed = true;
        });
        return spare;
      } catch (error) {
        await dispose();
        throw error;
      }
    })().catch(() => null);
  }

  /** The spare context and page if they are of this browser and readiness and whole; else null. */
  private async takeSpare(browser: Browser, readiness: PageReadiness | undefined): Promise<Spare | null> {
    const pending = this.spare;
    this.spare = null;
    const spare = await pending;
    if (!spare) return null;
    if (
      spare.browser === browser &&
      browser.isConnected() &&
      spare.readiness === readiness &&
      !spare.crashed &&
      !spare.page.isClosed()
    )
      return spare;
    void spare.dispose();
    return null;
  }

  /** Waits for a free print until the deadline; false when it passed first. */
  private async slot(deadline: number): Promise<boolean> {
    if (this.printing < Math.max(1, this.config.pdfPrints)) {
      this.printing++;
      return true;
    }
    if (this.waiting.length >= WAITING_PER_PRINT * Math.max(1, this.config.pdfPrints)) {
      throw new PrinterBusy();
    }
    return new Promise<boolean>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        // The print that ended hands its place over: `printing` stays the same.
        resolve(true);
      };
      const timer = setTimeout(
        () => {
          const index = this.waiting.indexOf(wake);
          if (index !== -1) this.waiting.splice(index, 1);
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiting.push(wake);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.printing--;
  }

  /** What `work` resolves to, or PrintTimeLimit once the start budget's `startBy` has passed first. */
  private startedBy<T>(work: Promise<T>, startBy: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PrintTimeLimit()), Math.max(0, startBy - Date.now()));
    });
    // A launch (or spare) that ends after the budget is still the next export's.
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  /**
   * Runs `work` in a fresh browser context and page (readied by `readiness`; the spare when it
   * is of the same readiness) within the time budget, counted from the moment the context is
   * the export's (the wait for a free print, the browser's launch and a spare being readied have
   * the start budget); past it the context is closed, which ends what the page was doing, and
   * PrintTimeLimit is thrown. The page fetches nothing but data: URLs.
   */
  async print<T>(
    work: (context: BrowserContext, page: Page) => Promise<T>,
    readiness?: PageReadiness,
  ): Promise<T> {
    const startBy = Date.now() + (this.config.workerStartLimitMs ?? START_LIMIT_MS);
    if (!(await this.slot(startBy))) throw new PrintTimeLimit();
    let browser: Browser | undefined;
    let dispose: (() => Promise<void>) | undefined;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    try {
      browser = await this.startedBy(this.browser(), startBy);
      const started = browser;
      const taking = this.takeSpare(started, readiness);
      // Readied after the budget ran out: closed then (nobody else may have seen it taken).
      const spare = await this.startedBy(taking, startBy).catch((error) => {
        void taking.then((late) => late?.dispose()).catch(() => undefined);
        throw error;
      });
      const open = spare?.context ?? (await started.newContext(CONTEXT_OPTIONS));
      const close = spare?.dispose ?? (() => open.close().catch(() => undefined));
      dispose = close;
      this.openContexts++;
      const deadline = Date.now() + this.config.pdfTimeLimitMs;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => {
            timedOut = true;
            reject(new PrintTimeLimit());
            void close();
          },
          Math.max(0, deadline - Date.now()),
        );
      });
      const result = (async () => work(open, spare?.page ?? (await exportPage(open, readiness))))();
      // The work's own rejection after the budget ran out (its context closed) is no news.
      result.catch(() => undefined);
      return await Promise.race([result, expired]);
    } catch (error) {
      if (timedOut) throw new PrintTimeLimit();
      throw error;
    } finally {
      clearTimeout(timer);
      if (dispose) {
        await dispose();
        this.openContexts--;
      }
      this.release();
      // The next export's context and page, readied as this one's was.
      if (browser?.isConnected() && this.running) this.keepSpare(Promise.resolve(browser), readiness);
    }
  }

  /** Closes the browser (at app close); its folder goes with it. */
  async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    // A spare goes with the browser (not waited for: one being readied would hold the close up).
    this.spare = null;
    if (!running) return;
    const launched = await running.catch(() => null);
    if (!launched) return;
    await launched.persistent.close().catch(() => undefined);
    await removeFolder(launched.folder);
  }
}

const printers = new Map<PrinterConfig, Printer>();

/** The printer of this configuration (one per app). */
export function printerFor(config: PrinterConfig): Printer {
  let printer = printers.get(config);
  if (!printer) {
    printer = new Printer(config);
    printers.set(config, printer);
  }
  return printer;
}

/** Closes the printer of this configuration, if it was ever used. */
export async function closePrinter(config: PrinterConfig): Promise<void> {
  const printer = printers.get(config);
  printers.delete(config);
  await printer?.close();
}
