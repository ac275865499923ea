// Page weight of the login page and of the logged-in overview as Chromium loads them: the bytes of
// JavaScript, CSS (files and index.html's inline sheets) and fonts, raw and gzipped (level 9, each
// file on its own, as a server would send it), of the current build (web/dist, or WEB_DIST)
// against a build of BASELINE_REF made in the same run (default: the last commit before the
// design system of issue 15).
// Goal of issue 15: the design system adds at most 30 KB gzip to the login page. Goal of issue 23:
// the login page's JS + CSS at most 150 KB gzip.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from '@playwright/test';
import { createBenchUser, loginHeaders, sessionCookies, startBenchServer } from './lib/server';

const ROOT = path.resolve(import.meta.dirname, '..');
const BASELINE_REF = process.env.BASELINE_REF ?? 'c28147d';
const CURRENT_DIST = process.env.WEB_DIST ?? path.join(ROOT, 'web', 'dist');

type Kind = 'js' | 'css' | 'font';
type Weight = Record<Kind, { raw: number; gzip: number; files: number }>;

/** Builds web/ of `ref` in a temporary folder with this checkout's node_modules; returns its dist. */
function buildBaseline(ref: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-page-weight-'));
  const archive = execFileSync('git', ['archive', ref, 'web', 'common', 'package.json'], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  // The packages of this checkout, but @scriptorium/common of the baseline.
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@scriptorium'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@scriptorium' || entry === '.bin') continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  symlinkSync(path.join(dir, 'common'), path.join(modules, '@scriptorium', 'common'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: path.join(dir, 'web'),
    stdio: 'ignore',
  });
  return path.join(dir, 'web', 'dist');
}

function kindOf(type: string, url: string): Kind | null {
  if (type === 'script') return 'js';
  if (type === 'stylesheet') return 'css';
  if (type === 'font' || /\.woff2?$/.test(url)) return 'font';
  return null;
}

async function weigh(browser: Browser, dist: string): Promise<{ login: Weight; overview: Weight }> {
  const server = await startBenchServer('weight', { WEB_DIST: dist });
  try {
    await createBenchUser(server.ctx, 'weight');
    const measure = async (cookie: string | null): Promise<Weight> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      if (cookie) {
        await context.addCookies(sessionCookies(cookie, server.base));
      }
      const page = await context.newPage();
      const weight: Weight = {
        js: { raw: 0, gzip: 0, files: 0 },
        css: { raw: 0, gzip: 0, files: 0 },
        font: { raw: 0, gzip: 0, files: 0 },
      };
      const pending: Promise<void>[] = [];
      page.on('response', (response) => {
        const kind = kindOf(response.request().resourceType(), response.url());
        if (!kind) return;
        pending.push(
          response.body().then((body) => {
            weight[kind].raw += body.length;
            weight[kind].gzip += gzipSync(body, { level: 9 }).length;
            weight[kind].files += 1;
            if (process.env.BENCH_VERBOSE) console.log(`  ${kind} ${response.url()} ${body.length}`);
          }),
        );
      });
      await page.goto(server.base);
      await page.locator('#page-heading').waitFor();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      await Promise.all(pending);
      // The style sheets index.html carries inline (web/vite.config.ts) count as CSS all the same.
      const inline = await page.evaluate(() =>
        [...document.querySelectorAll('style[data-sheet]')].map((style) => style.textContent ?? ''),
      );
      for (const text of inline) {
        const body = Buffer.from(text);
        weight.css.raw += body.length;
        weight.css.gzip += gzipSync(body, { level: 9 }).length;
        weight.css.files += 1;
      }
      await context.close();
      return weight;
    };
    const login = await measure(null);
    const { Cookie } = await loginHeaders(server.base, 'weight');
    const overview = await measure(Cookie);
    return { login, overview };
  } finally {
    await server.close();
  }
}

/** Issue 23's goal for the login page's JavaScript and CSS, gzip. */
const LOGIN_CODE_GOAL = 150 * 1024;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const total = (weight: Weight, key: 'raw' | 'gzip') => weight.js[key] + weight.css[key] + weight.font[key];

function report(name: string, current: Weight, baseline: Weight | null) {
  for (const kind of ['js', 'css', 'font'] as const) {
    const line = `${name} ${kind}: ${current[kind].files} files, ${kb(current[kind].raw)} raw, ${kb(current[kind].gzip)} gzip`;
    console.log(baseline ? `${line} (baseline ${kb(baseline[kind].gzip)} gzip)` : line);
  }
  const gzip = total(current, 'gzip');
  if (name === 'login page') {
    // Issue 23: the code and styles a visitor loads before the login form can be used.
    const code = current.js.gzip + current.css.gzip;
    console.log(`${name} JS + CSS: ${kb(code)} gzip (goal <= ${kb(LOGIN_CODE_GOAL)})`);
  }
  if (!baseline) {
    console.log(`${name} total: ${kb(gzip)} gzip`);
    return;
  }
  const before = total(baseline, 'gzip');
  console.log(
    `${name} total: ${kb(gzip)} gzip against ${kb(before)} at ${BASELINE_REF}: +${kb(gzip - before)}, ratio ${(gzip / before).toFixed(2)}`,
  );
}

const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(executablePath) || !existsSync(CURRENT_DIST)) {
  console.log('page weight: skipped (needs Chromium and a built web/dist: npm run build)');
  process.exit(0);
}
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
let baselineDist: string | null = null;
try {
  try {
    baselineDist = process.env.BASELINE_DIST ?? buildBaseline(BASELINE_REF);
  } catch (error) {
    console.log(`baseline ${BASELINE_REF} could not be built (${(error as Error).message}); figures only`);
  }
  const current = await weigh(browser, CURRENT_DIST);
  const baseline = baselineDist ? await weigh(browser, baselineDist) : null;
  report('login page', current.login, baseline?.login ?? null);
  report('overview', current.overview, baseline?.overview ?? null);
} finally {
  await browser.close();
  if (baselineDist && !process.env.BASELINE_DIST)
    rmSync(path.resolve(baselineDist, '..', '..'), { recursive: true, force: true });
}
