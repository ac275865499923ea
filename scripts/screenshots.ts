/**
 * `npm run screenshots`: a gallery of screens and dialogs for review by eye, desktop (1280x800)
 * and phone (390x844), light and dark, in the languages of SHOT_LANGUAGES (default "en,bg").
 * Against a running server: BASE_URL (default http://127.0.0.1:8000), a user given by
 * SHOT_USER / SHOT_PASSWORD (logged-in screens are skipped without one), the folder in SHOT_DIR
 * (default screenshots/); SHOT_ONLY=name,name limits the set, SHOT_SEED=1 adds sample data first.
 * Exits non-zero when a screen scrolls sideways on a phone or a dialog's title or buttons stick out
 * of it. The dialogs are opened by their English names, so they are shot in English only.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../e2e/server-env';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8000';
const OUT = process.env.SHOT_DIR ?? 'screenshots';
const USER = process.env.SHOT_USER;
const PASSWORD = process.env.SHOT_PASSWORD;
const ONLY = process.env.SHOT_ONLY?.split(',');
const LANGUAGES = (process.env.SHOT_LANGUAGES ?? 'en,bg').split(',');

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

/** Dialogs: the screen, then how a user opens it (and fills it where its content matters). */
const DIALOGS: readonly [string, string, (page: Page) => Promise<void>][] = [
  [
    'dialog-delete-account',
    '/user/profile/',
    (page) => page.getByRole('button', { name: 'Delete account' }).click(),
  ],
  [
    'dialog-add-email',
    '/user/profile/',
    (page) => page.getByRole('button', { name: 'Add e-mail address' }).click(),
  ],
  [
    'dialog-invite-warnings',
    '/user/contacts/',
    async (page) => {
      await page.getByRole('button', { name: 'Invite contact' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox').fill(`${USER}, not-an-address, another@@wrong, x@, ${USER}`);
      await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
      await dialog.locator('.invite-contact-warning').first().waitFor();
    },
  ],
  [
    'dialog-register-source',
    '/bibliography/',
    (page) => page.getByRole('button', { name: 'Register new source' }).click(),
  ],
];

/** Reports an element that sticks out of its dialog (a clip the user cannot scroll to). */
async function overflowsDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const modal = document.querySelector('.dialog-modal');
    if (!modal) return false;
    const box = modal.getBoundingClientRect();
    return [...modal.querySelectorAll('.dialog-header, .dialog-buttons')].some((part) => {
      const rect = part.getBoundingClientRect();
      return rect.right > box.right + 1 || rect.bottom > box.bottom + 1 || rect.top < box.top - 1;
    });
  });
}

const LIBRARY = String.raw`
@article{lecun1998,
  author = {LeCun, Yann and Bottou, L{\'e}on and Bengio, Yoshua and Haffner, Patrick},
  title = {Gradient-Based Learning Applied to Document Recognition},
  journal = {Proceedings of the IEEE}, year = {1998}, volume = {86}, number = {11}, pages = {2278--2324}
}
@book{knuth1984,
  author = {Knuth, Donald E.}, title = {The {TeXbook}}, publisher = {Addison-Wesley}, year = {1984}
}
@inproceedings{long2019,
  author = {Smith, Jane and Doe, John},
  title = {A Remarkably Long Title About the Reproducibility of Computational Experiments in the Humanities and Social Sciences, With a Subtitle},
  booktitle = {Proceedings of the Conference on Things}, year = {2019}
}`;

/** With SHOT_SEED set: a few references (one with a long title) and a pending invite, once. */
async function seed(page: Page) {
  await page.goto('/bibliography/');
  await page.locator('h1').first().waitFor();
  await page.keyboard.press('Alt+u');
  const dialog = page.getByRole('dialog');
  await dialog.locator('textarea').fill(LIBRARY);
  await dialog.locator('button.button-primary').click();
  await dialog.locator('.bib-report-summary').waitFor();
  await page.keyboard.press('Escape');
  await page.request.post(`${BASE_URL}/api/user/invites/add/`, {
    form: { user_string: 'a.colleague.with.a.rather.long.address@university.example.org' },
    headers: { 'X-CSRFToken': await csrf(page) },
  });
}

async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

const browser = await chromium.launch(CHROMIUM_LAUNCH);
await mkdir(OUT, { recursive: true });
const problems: string[] = [];
for (const language of LANGUAGES) {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const scheme of SCHEMES) {
      const context = await browser.newContext({ viewport, colorScheme: scheme, baseURL: BASE_URL });
      await context.addCookies([{ name: 'language', value: language, url: BASE_URL }]);
      const page = await context.newPage();
      const shoot = async (name: string, url: string) => {
        if (ONLY && !ONLY.includes(name)) return;
        await page.goto(url);
        await page.locator('h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        const file = path.join(OUT, `${name}-${language}-${device}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        if (device === 'phone' && (await scrollsSideways(page)))
          problems.push(`${name} (${language}) scrolls sideways on a phone`);
      };
      for (const [name, url] of LOGGED_OUT) await shoot(name, url);
      if (USER && PASSWORD) {
        await page.request.post(`${BASE_URL}/api/user/login/`, {
          form: { login: USER, password: PASSWORD },
          headers: { 'X-CSRFToken': await csrf(page) },
        });
        // The user's saved language wins over the visitor cookie: save this run's language.
        await page.request.post(`${BASE_URL}/api/i18n/setlang/`, {
          form: { language },
          headers: { 'X-CSRFToken': await csrf(page) },
        });
        if (
          process.env.SHOT_SEED &&
          language === LANGUAGES[0] &&
          device === 'desktop' &&
          scheme === 'light'
        ) {
          await seed(page);
        }
        for (const [name, url] of LOGGED_IN) await shoot(name, url);
        for (const [name, url, open] of language === 'en' ? DIALOGS : []) {
          if (ONLY && !ONLY.includes(name)) continue;
          await page.goto(url);
          await page.locator('h1').first().waitFor();
          await page.waitForLoadState('networkidle');
          await open(page);
          await page.getByRole('dialog').waitFor();
          await page.screenshot({ path: path.join(OUT, `${name}-${language}-${device}-${scheme}.png`) });
          if (await overflowsDialog(page)) problems.push(`${name} overflows its dialog on a ${device}`);
          await page.keyboard.press('Escape');
        }
      }
      await context.close();
    }
  }
}
await browser.close();
for (const problem of problems) console.error(problem);
console.log(`Screenshots in ${OUT}; ${problems.length} problem(s).`);
process.exitCode = problems.length ? 1 : 0;
