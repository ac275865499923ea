import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PreparedDocument } from '@scriptorium/common/export/model';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Config } from '../../../config';
import { heavyWorkEnv } from '../../../util/worker-threads';
import { PdfTooLong } from './pdf';
import { PRINTER_WORKER_FILE } from './printer-pool';
import type { PdfMetadata } from './typeset-html';

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
 * The server's printer (`printerFor`) is a PrinterThread: the browser is driven from a worker
 * thread of its own (printer-worker.ts), which loads playwright-core (some 0.6 to 1.4 s of the
 * event loop, and 80 MB, in the thread that loads it) and holds this class's printer; the event
 * loop only sends it the HTML and gets the PDF back. Tests and benches print from their own
 * thread with `new Printer`.
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

/**
 * How much lower than the process's main thread the calling thread runs (Linux; else 0): the
 * printer's thread is lowered as the pools' are, and Chromium started from it inherits that.
 */
function threadLoweredBy(): number {
  try {
    const tid = Number(path.basename(readlinkSync('/proc/thread-self')));
    return Math.max(0, os.getPriority(tid) - os.getPriority(process.pid));
  } catch {
    return 0;
  }
}

/** How a print runs: its start budget's end (epoch ms), and what runs in its context first. */
export interface PrintOptions {
  startBy?: number;
  /** How the export's page is readied (the spare's when it is of the same readiness). */
  readiness?: PageReadiness;
  /** Runs once the context is open, within the time budget (tests hold a print here). */
  beforeWork?: () => Promise<void>;
}

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
  /** Called whenever `load` or `contexts` changed (the printer's thread tells the event loop). */
  changed: (() => void) | null = null;

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
            SCRIPTORIUM_NICENESS: String(
              Math.max(0, (this.config.heavyWorkNiceness ?? 10) - threadLoweredBy()),
            ),
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
      this.changed?.();
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
          this.changed?.();
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiting.push(wake);
      this.changed?.();
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.printing--;
    this.changed?.();
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
    options: PrintOptions = {},
  ): Promise<T> {
    const { readiness } = options;
    const startBy = options.startBy ?? Date.now() + (this.config.workerStartLimitMs ?? START_LIMIT_MS);
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
      this.changed?.();
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
      const result = (options.beforeWork ? options.beforeWork() : Promise.resolve()).then(async () =>
        work(open, spare?.page ?? (await exportPage(open, readiness))),
      );
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

/** A print the event loop asks of the printer's thread: the HTML and how to print it. */
export type PrintJob =
  | { kind: 'typeset'; html: string; metadata: PdfMetadata; maxPages: number }
  | { kind: 'html'; html: string; paperSize: PreparedDocument['paperSize']; book: boolean; maxPages: number };

/** A refusal as it crosses between the threads. */
export interface PrintFailure {
  name: string;
  message: string;
  maxPages?: number;
}

/** What the event loop sends the printer's thread. */
export type ToPrinter =
  | { type: 'job'; id: number; job: PrintJob; startBy: number; hold: boolean }
  | { type: 'html'; id: number; html: string }
  | { type: 'html-failed'; id: number }
  | { type: 'go'; id: number }
  | { type: 'warm' }
  | { type: 'close' };

/** What the printer's thread answers. */
export type FromPrinter =
  | { type: 'state'; printing: number; waiting: number; contexts: number }
  | { type: 'done'; id: number; pdf: Uint8Array }
  | { type: 'failed'; id: number; error: PrintFailure }
  | { type: 'need-html'; id: number; contentsPages: [string, number][] }
  | { type: 'holding'; id: number }
  | { type: 'warmed' }
  | { type: 'closed' };

/** A refusal of the printer's thread, as the class the refusals answer (refusals.ts). */
function failureOf(error: PrintFailure): Error {
  if (error.name === 'PrinterBusy') return new PrinterBusy();
  if (error.name === 'PrintTimeLimit') return new PrintTimeLimit();
  if (error.name === 'PdfTooLong') return new PdfTooLong(Number(error.maxPages));
  return new Error(error.message);
}

/** The printer thread's script: registers tsx for a TypeScript body, then imports the body. */
const START_PRINTER_THREAD = `const { workerData } = require('node:worker_threads');
(workerData.tsx ? import(workerData.tsx).then((tsx) => tsx.register()) : Promise.resolve())
  .then(() => import(workerData.file))
  .catch((error) => { throw error; });`;

/** How long the stop waits for the printer's thread to close its browser before ending it. */
const CLOSE_WAIT_MS = 10_000;

/**
 * An idle printer's thread and browser end after this (their memory, some 100 MB with
 * playwright-core, goes back); the next PDF starts them again, as the first did.
 */
const IDLE_MS = 5 * 60_000;

interface PendingPrint {
  resolve: (pdf: Uint8Array) => void;
  reject: (error: Error) => void;
  html?: (contentsPages: ReadonlyMap<string, number>) => Promise<string>;
}

/**
 * The server's printer: a Printer in a worker thread of its own (printer-worker.ts), started with
 * the first PDF (or `warm`), so that neither loading playwright-core nor driving the browser (the
 * DevTools protocol's messages, a PDF's bytes) runs on the event loop. Its queue, budgets and
 * refusals are the Printer's; `load` and `contexts` mirror what the thread last told. Idle for
 * IDLE_MS, the thread closes its browser and ends.
 */
export class PrinterThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, PendingPrint>();
  private readonly warming: (() => void)[] = [];
  private idle: NodeJS.Timeout | undefined;
  private state = { printing: 0, waiting: 0, contexts: 0 };
  /**
   * Tests: when set, each print waits in its open context (within its time budget) until this
   * resolves.
   */
  hold: (() => Promise<void>) | null = null;

  constructor(private readonly config: PrinterConfig) {}

  get load(): { printing: number; waiting: number } {
    return { printing: this.state.printing, waiting: this.state.waiting };
  }

  get contexts(): number {
    return this.state.contexts;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // The body is imported by a few lines of JavaScript: a TypeScript body (the sources, run by
    // tsx) needs tsx's loader registered in the thread first, which `--import` does not do for a
    // thread's own script.
    const fromSources = PRINTER_WORKER_FILE.endsWith('.ts');
    const worker = new Worker(START_PRINTER_THREAD, {
      eval: true,
      env: heavyWorkEnv(this.config.heavyWorkNiceness),
      workerData: {
        file: PRINTER_WORKER_FILE,
        tsx: fromSources ? import.meta.resolve('tsx/esm/api') : null,
        config: {
          pdfPrints: this.config.pdfPrints,
          pdfTimeLimitMs: this.config.pdfTimeLimitMs,
          pdfMaxPages: this.config.pdfMaxPages,
          workerStartLimitMs: this.config.workerStartLimitMs,
          heavyWorkNiceness: this.config.heavyWorkNiceness,
        } satisfies PrinterConfig,
      },
    });
    // An idle printer keeps no process alive (the app's close ends it); one at work does.
    worker.unref();
    worker.on('message', (message: FromPrinter) => this.received(worker, message));
    worker.on('error', (error) => this.detach(worker, error));
    worker.on('exit', (code) => this.detach(worker, new Error(`the printer's thread ended (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Forgets `worker` (ended, or being ended): its prints fail, the next one starts a thread. */
  private detach(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    clearTimeout(this.idle);
    this.state = { printing: 0, waiting: 0, contexts: 0 };
    for (const [id, print] of this.pending) {
      this.pending.delete(id);
      print.reject(error);
    }
    for (const warmed of this.warming.splice(0)) warmed();
  }

  /** Asks a detached thread to close its browser, then ends it. */
  private async end(worker: Worker): Promise<void> {
    worker.ref();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      worker.on('message', (message: FromPrinter) => {
        if (message.type === 'closed') done();
      });
      worker.once('exit', done);
      worker.postMessage({ type: 'close' } satisfies ToPrinter);
    });
    await worker.terminate();
  }

  /**
   * Keeps the process alive while the thread has work it will answer, not while it idles; an
   * idle thread ends after IDLE_MS.
   */
  private busy(worker: Worker): void {
    clearTimeout(this.idle);
    if (this.pending.size > 0 || this.warming.length > 0) {
      worker.ref();
      return;
    }
    worker.unref();
    this.idle = setTimeout(() => {
      if (this.worker !== worker || this.pending.size > 0 || this.warming.length > 0) return;
      this.detach(worker, new Error('the printer was idle'));
      void this.end(worker);
    }, IDLE_MS);
    this.idle.unref();
  }

  private received(worker: Worker, message: FromPrinter): void {
    // A detached thread's news (its state, its close) is no longer this printer's.
    if (this.worker !== worker) return;
    this.answered(worker, message);
    if (this.worker === worker) this.busy(worker);
  }

  private answered(worker: Worker, message: FromPrinter): void {
    switch (message.type) {
      case 'state':
        this.state = { printing: message.printing, waiting: message.waiting, contexts: message.contexts };
        return;
      case 'done':
      case 'failed': {
        const print = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.type === 'done') print?.resolve(message.pdf);
        else print?.reject(failureOf(message.error));
        return;
      }
      case 'need-html': {
        const print = this.pending.get(message.id);
        if (!print?.html) {
          worker.postMessage({ type: 'html-failed', id: message.id } satisfies ToPrinter);
          return;
        }
        print.html(new Map(message.contentsPages)).then(
          (html) => worker.postMessage({ type: 'html', id: message.id, html } satisfies ToPrinter),
          (error: Error) => {
            // The export worker's own error is the answer; the print ends.
            this.pending.delete(message.id);
            print.reject(error);
            worker.postMessage({ type: 'html-failed', id: message.id } satisfies ToPrinter);
          },
        );
        return;
      }
      case 'holding': {
        const go = () => worker.postMessage({ type: 'go', id: message.id } satisfies ToPrinter);
        (this.hold?.() ?? Promise.resolve()).then(go, go);
        return;
      }
      case 'warmed':
        this.warming.shift()?.();
        return;
      case 'closed':
        return;
    }
  }

  private print(job: PrintJob, html?: PendingPrint['html']): Promise<Uint8Array> {
    const id = this.nextId++;
    // The thread's start and the browser's launch count in the start budget, from now.
    const startBy = Date.now() + (this.config.workerStartLimitMs ?? START_LIMIT_MS);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, html });
      const worker = this.thread();
      worker.postMessage({ type: 'job', id, job, startBy, hold: this.hold !== null } satisfies ToPrinter);
      this.busy(worker);
    });
  }

  /** Starts the thread and its browser if they are not running (see Printer.warm). */
  warm(): Promise<void> {
    return new Promise((resolve) => {
      this.warming.push(resolve);
      const worker = this.thread();
      worker.postMessage({ type: 'warm' } satisfies ToPrinter);
      this.busy(worker);
    });
  }

  /** The typeset PDF of the export HTML (typeset.ts: Paged.js, metadata, the page budget). */
  typeset(maxPages: number, html: string, metadata: PdfMetadata): Promise<Uint8Array> {
    return this.print({ kind: 'typeset', html, metadata, maxPages });
  }

  /** The PDF of the export HTML as Chromium lays it out (pdf.ts: printHtmlPdf); `html` as there. */
  async printHtml(
    maxPages: number,
    paperSize: PreparedDocument['paperSize'],
    book: boolean,
    html: (contentsPages?: ReadonlyMap<string, number>) => Promise<string>,
  ): Promise<Uint8Array> {
    const first = await html();
    return this.print({ kind: 'html', html: first, paperSize, book, maxPages }, html);
  }

  /** Closes the browser and ends the thread (at app close). */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.detach(worker, new Error('the printer closed'));
    await this.end(worker);
  }
}

const printers = new Map<PrinterConfig, PrinterThread>();

/** The printer of this configuration (one per app), in a thread of its own. */
export function printerFor(config: PrinterConfig): PrinterThread {
  let printer = printers.get(config);
  if (!printer) {
    printer = new PrinterThread(config);
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
