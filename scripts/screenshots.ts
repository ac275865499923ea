/**
 * A gallery of screens for review by eye: desktop (1280x800) and phone (390x844), light and dark.
 * Against a running server: BASE_URL (default http://127.0.0.1:8000), a user given by
 * SHOT_USER / SHOT_PASSWORD, the folder in SHOT_DIR (default screenshots/). Reports every screen
 * that scrolls sideways on a phone and exits non-zero then.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8000';
const OUT = process.env.SHOT_DIR ?? 'screenshots';
const USER = process.env.SHOT_USER;
const PASSWORD = process.env.SHOT_PASSWORD;
const ONLY = process.env.SHOT_ONLY?.split(',');

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const SCHEMES = ['light', 'dark'] as const;
const LOGGED_OUT = [
  ['login', '/'],
  ['password-reset', '/account/password-reset/'],
  ['terms', '/pages/terms/'],
  ['not-found', '/nowhere/'],
] as const;
const LOGGED_IN = [
  ['documents', '/'],
  ['bibliography', '/bibliography/'],
  ['usermedia', '/usermedia/'],
  ['contacts', '/user/contacts/'],
  ['profile', '/user/profile/'],
] as const;

async function csrf(page: Page): Promise<string> {
  await page.request.get(`${BASE_URL}/api/base/configuration/`);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'csrftoken');
  return cookie?.value ?? '';
}

async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
await mkdir(OUT, { recursive: true });
const problems: string[] = [];
for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const scheme of SCHEMES) {
    const context = await browser.newContext({ viewport, colorScheme: scheme, baseURL: BASE_URL });
    const page = await context.newPage();
    const shoot = async (name: string, url: string) => {
      if (ONLY && !ONLY.includes(name)) return;
      await page.goto(url);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const file = path.join(OUT, `${name}-${device}-${scheme}.png`);
      await page.screenshot({ path: file, fullPage: true });
      if (device === 'phone' && (await scrollsSideways(page))) problems.push(`${name} scrolls sideways`);
    };
    for (const [name, url] of LOGGED_OUT) await shoot(name, url);
    if (USER && PASSWORD) {
      await page.request.post(`${BASE_URL}/api/user/login/`, {
        form: { login: USER, password: PASSWORD },
        headers: { 'X-CSRFToken': await csrf(page) },
      });
      for (const [name, url] of LOGGED_IN) await shoot(name, url);
    }
    await context.close();
  }
}
await browser.close();
for (const problem of problems) console.error(problem);
console.log(`Screenshots in ${OUT}; ${problems.length} problem(s).`);
process.exitCode = problems.length ? 1 : 0;
