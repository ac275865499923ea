// Lighthouse (from npm, offline, in Debian's Chromium) on the login page and the logged-in
// overview of the built app (web/dist, or WEB_DIST): the scores of performance, accessibility,
// best practices and SEO, with the issue's goals beside them. Mobile emulation (Lighthouse's
// default: a mid-range phone, simulated slow 4G) unless LIGHTHOUSE_PRESET=desktop.
import { existsSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { createBenchUser, loginHeaders, startBenchServer } from './lib/server';

const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const webDist = process.env.WEB_DIST;
const server = await startBenchServer('lighthouse', webDist ? { WEB_DIST: webDist } : {});
if (!existsSync(chromePath) || !existsSync(server.ctx.config.webDist)) {
  console.log('lighthouse: skipped (needs Chromium and a built web/dist: npm run build)');
  await server.close();
  process.exit(0);
}
await createBenchUser(server.ctx, 'lighthouse');
const { Cookie } = await loginHeaders(server.base, 'lighthouse');

const GOALS: Record<string, number> = {
  performance: 0.95,
  accessibility: 1,
  'best-practices': 0.95,
  seo: 0,
};
const desktop = process.env.LIGHTHOUSE_PRESET === 'desktop';
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
let failed = false;
try {
  for (const [name, headers] of [
    ['login page', {}],
    ['overview', { Cookie }],
  ] as const) {
    const result = await lighthouse(
      `${server.base}/`,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: Object.keys(GOALS),
        extraHeaders: headers,
      },
      desktop ? desktopConfig : undefined,
    );
    if (!result) throw new Error('lighthouse gave no result');
    const { categories, audits } = result.lhr;
    const scores = Object.keys(GOALS).map((id) => {
      const score = categories[id]?.score ?? 0;
      const goal = GOALS[id];
      if (score < goal) failed = true;
      return `${id} ${score.toFixed(2)}${goal ? ` (goal >= ${goal})` : ''}`;
    });
    console.log(`${name} (${desktop ? 'desktop' : 'mobile'}): ${scores.join(', ')}`);
    // What keeps a score down, so that the next run can fix it.
    for (const [id, audit] of Object.entries(audits)) {
      if (audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative') {
        console.log(`  ${id}: ${audit.score} ${audit.displayValue ?? ''}`);
        const items = (audit.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
        for (const item of items.slice(0, 3)) {
          if (process.env.BENCH_VERBOSE) console.log(`    ${JSON.stringify(item).slice(0, 300)}`);
        }
      }
    }
  }
} finally {
  chrome.kill();
  await server.close();
}
if (failed) console.log('lighthouse: a score is below its goal');
