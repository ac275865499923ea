import type { Page } from '@playwright/test';
import { baseApi, feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import {
  chooseOption,
  createUserByCommand,
  expect,
  fillLogin,
  loginAs,
  selectButton,
  setLanguage,
  type TestUser,
  test,
} from '../fixtures';

// Spec sections 2.1-2.3, 5 (login), 8 (configuration load) and 9, against the real server.

const nav = (page: Page, name = 'Main navigation') => page.getByRole('navigation', { name });

test.describe('login', () => {
  test('a login-only route shows the login page there, and login by username lands on it', async ({
    page,
    user,
  }) => {
    await page.goto('/bibliography/');
    await expect(page.getByLabel('Username or e-mail')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot Password' })).toHaveAttribute(
      'href',
      '/account/password-reset/',
    );
    await expect(page.getByLabel('Remember me')).toBeVisible();
    await fillLogin(page, user.username, user.password);
    await expect(nav(page).getByRole('link', { name: 'Bibliography' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page).toHaveURL(/\/bibliography\/$/);
  });

  test('login by e-mail address is case-insensitive', async ({ page, user }) => {
    await page.goto('/');
    await fillLogin(page, user.email.toUpperCase(), user.password);
    await expect(nav(page).getByRole('link', { name: 'Documents' })).toBeVisible();
  });

  test('empty fields say "This field is required." and send nothing', async ({ page }) => {
    await page.goto('/');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(userApi.login.path)) posts.push(request.url());
    });
    await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await expect(page.getByText('This field is required.')).toHaveCount(2);
    await page.getByLabel('Username or e-mail').fill('somebody');
    await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await expect(page.getByText('This field is required.')).toHaveCount(1);
    expect(posts).toEqual([]);
  });

  test('a wrong password is refused with a general error; the account locks after repeated failures', async ({
    page,
    user,
  }) => {
    await page.goto('/');
    await fillLogin(page, user.username, 'wrong password');
    await expect(
      page.getByText('The username or e-mail address and the password do not match.'),
    ).toBeVisible();
    for (let i = 0; i < 4; i++) {
      const answer = page.waitForResponse(`**${userApi.login.path}`);
      await fillLogin(page, user.username, `wrong ${i}`);
      await answer;
    }
    // Locked now: even the right password does not get in, and the message says why.
    await fillLogin(page, user.username, user.password);
    await expect(
      page.getByText(/Too many failed login attempts\. Please try again in \d+ minutes?\./),
    ).toBeVisible();
    await expect(nav(page)).toHaveCount(0);
  });
});

test.describe('logged-in shell', () => {
  test('header shortcuts, arrow keys and the user menu by keyboard; logout ends the session', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    await expect(nav(page).getByRole('link', { name: 'Documents' })).toHaveAttribute('aria-current', 'page');
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'same page';
    });

    await page.keyboard.press('Alt+b');
    await expect(page).toHaveURL(/\/bibliography\/$/);
    await page.keyboard.press('Alt+m');
    await expect(page).toHaveURL(/\/usermedia\/$/);
    await page.keyboard.press('Alt+d');
    await expect(page).toHaveURL(/\/$/);
    // Internal links are followed without a reload (spec 2.1).
    await nav(page).getByRole('link', { name: 'Images' }).click();
    await expect(page).toHaveURL(/\/usermedia\/$/);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same page');
    await page.goBack();
    await expect(nav(page).getByRole('link', { name: 'Documents' })).toHaveAttribute('aria-current', 'page');

    // Arrow keys move along the header; the user menu opens, moves and closes by keyboard.
    await nav(page).getByRole('link', { name: 'Documents' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(nav(page).getByRole('link', { name: 'Bibliography' })).toBeFocused();
    const userButton = page.getByRole('button', { name: new RegExp(user.firstName) });
    await userButton.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText(['Profile', 'Contacts', 'Log out']);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(userButton).toBeFocused();

    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Contacts' }).press('Enter');
    await expect(page).toHaveURL(/\/user\/contacts\/$/);

    await userButton.click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByLabel('Username or e-mail')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    const configuration = await page.request.get(baseApi.configuration.path);
    expect((await configuration.json()).user.is_authenticated).toBe(false);
  });

  test('the logo links home; plugin items are absent unless enabled', async ({ page, user }) => {
    await loginAs(page, user, '/usermedia/');
    await expect(page.getByRole('link', { name: /Scriptorium/ }).first()).toHaveAttribute('href', '/');
    await expect(nav(page).getByRole('link')).toHaveText(['Documents', 'Bibliography', 'Images']);
  });

  test('the feedback tab sends a report and refuses an empty one', async ({ page, user }) => {
    await loginAs(page, user);
    await page.getByRole('button', { name: 'Technical support feedback' }).click();
    const panel = page.getByRole('dialog', { name: 'Technical support feedback' });
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().endsWith(feedbackApi.send.path)) sent++;
    });
    await panel.getByLabel('Your message').fill('   ');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByLabel('Your message').fill('The export button is hard to find.');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Thank you for your report!')).toBeVisible();
    expect(sent).toBe(1);
  });
});

test.describe('a logged-in start on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("paints the overview's heading before the scripts, in the user's language, where the page draws it", async ({
    page,
    user,
  }) => {
    await loginAs(page, user, '/user/profile/');
    await setLanguage(page, 'de');
    // Where the heading of the next start's first paint is, before any of the app's scripts run.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const { x, y, height } = document.querySelector('.boot-shell h1')?.getBoundingClientRect() ?? {};
        Object.assign(window, { bootHeading: { x, y, height } });
      });
    });
    const answer = await page.goto('/');
    expect(await answer?.text()).toContain('<h1 class="documents-heading">Dokumente</h1>');
    const heading = page.getByRole('heading', { level: 1, name: 'Dokumente' });
    await expect(heading).toBeVisible();
    await expect(page.getByRole('button', { name: 'Neues Dokument erstellen' })).toBeVisible();
    const { x, y, height } = (await heading.boundingBox()) ?? {};
    expect(await page.evaluate(() => (window as unknown as { bootHeading: unknown }).bootHeading)).toEqual({
      x,
      y,
      height,
    });
  });
  test("fetches the shell's and the overview's files while the page is parsed; the loader adds none later", async ({
    page,
    user,
  }) => {
    await loginAs(page, user, '/user/profile/');
    await setLanguage(page, 'de');
    /** The page's modulepreload links, as paths. */
    const preloads = `[...document.querySelectorAll('link[rel="modulepreload"]')].map((link) => new URL(link.href).pathname)`;
    await page.addInitScript(
      `document.addEventListener('DOMContentLoaded', () => { window.parsedPreloads = ${preloads}; })`,
    );
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Neues Dokument erstellen' })).toBeVisible();
    const files = await page.evaluate<string[]>(preloads);
    const names = files.map((file) => file.replace(/-[\w-]{8}\.js$/, ''));
    expect(names).toEqual(expect.arrayContaining(['/assets/logged-in-shell', '/assets/documents-page']));
    // The texts of the user's language and of English, the fallback.
    expect(names.filter((name) => name.startsWith('/assets/texts-')).sort()).toEqual([
      '/assets/texts-de-overview',
      '/assets/texts-de-visitor',
      '/assets/texts-en-overview',
      '/assets/texts-en-visitor',
    ]);
    // All of them were in the page as the server sent it: the app's loader added none.
    expect(new Set(files).size).toBe(files.length);
    expect(
      await page.evaluate(() => (window as unknown as { parsedPreloads: string[] }).parsedPreloads),
    ).toEqual(files);
    // The first paint needs none of the scripts: the entry and every preload are fetched at low
    // priority, behind the heading's font (web/vite.config.ts).
    const priorities = await page.evaluate(() =>
      [...document.querySelectorAll('script[type="module"], link[rel="modulepreload"]')].map((element) =>
        element.getAttribute('fetchpriority'),
      ),
    );
    expect(priorities.length).toBe(files.length + 1);
    expect(new Set(priorities)).toEqual(new Set(['low']));
  });
});

test.describe('languages', () => {
  test('a visitor switches to German; the choice persists into the session and back', async ({
    page,
    user,
  }) => {
    await page.goto('/');
    await chooseOption(page, 'Language', 'Deutsch');
    await expect(page.getByLabel('Benutzername oder E-Mail')).toBeVisible();
    await fillLogin(page, user.username, user.password, 'de');
    await expect(nav(page, 'Hauptnavigation').getByRole('link')).toHaveText([
      'Dokumente',
      'Bibliografie',
      'Bilder',
    ]);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await page.goto('/nirgendwo/');
    await expect(page.getByRole('heading', { name: 'Fehler 404' })).toBeVisible();
    // react-aria's own texts follow it too (AriaLocaleProvider): the user menu's close buttons
    // for screen readers.
    await page.getByRole('button', { name: new RegExp(user.firstName) }).click();
    const menu = page.locator('.header-menu-popover');
    await expect(menu.getByRole('button', { name: 'Schließen', exact: true }).first()).toBeAttached();
    await expect(menu.getByRole('button', { name: 'Dismiss' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);

    // Logged in, the footer's selector switches back and the choice is saved on the account.
    await chooseOption(page, 'Sprache', 'English');
    await expect(page.getByRole('heading', { name: 'Error 404' })).toBeVisible();
    const configuration = await (await page.request.get(baseApi.configuration.path)).json();
    expect(configuration.language).toBe('en');
  });
});

test.describe('pages without login', () => {
  for (const path of ['/no/such/page', '/account/whatever', '/user/settings/']) {
    test(`${path} shows the 404 page`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Error 404' })).toBeVisible();
      await expect(page.getByText('The page you are looking for cannot be found.')).toBeVisible();
      await expect(page).toHaveTitle('Page not found');
    });
  }

  test('the footer links to the flat pages; a missing flat page shows the 404 text', async ({ page }) => {
    await page.goto('/account/sign-up');
    await expect(page.getByRole('heading', { name: 'Sign-up is closed' })).toBeVisible();
    await page.getByRole('link', { name: 'Terms and Conditions' }).click();
    await expect(page).toHaveURL(/\/pages\/terms\/$/);
    await expect(page.getByRole('heading', { name: 'Terms and Conditions' })).toBeVisible();
    await page.getByRole('link', { name: 'Privacy policy' }).click();
    await expect(page.getByRole('heading', { name: 'Privacy policy' })).toBeVisible();
    await page.goto('/pages/nothing-here/');
    await expect(page.getByText('The page you are looking for cannot be found.')).toBeVisible();
    for (const name of ['MathLive', 'citeproc-js', 'ProseMirror']) {
      await expect(page.getByRole('link', { name })).toHaveAttribute('target', '_blank');
    }
  });

  test('a failed configuration load shows the offline page', async ({ page }) => {
    await page.route(`**${baseApi.configuration.path}`, (route) => route.abort('internetdisconnected'));
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  });

  test('a 405 on configuration load shows the update page and retries every 5 seconds', async ({ page }) => {
    let refusals = 0;
    // The real server answers 405 only while it migrates; this stands in for those seconds.
    await page.route(`**${baseApi.configuration.path}`, async (route) => {
      if (refusals++ < 1) await route.fulfill({ status: 405, body: '{}', contentType: 'application/json' });
      else await route.continue();
    });
    await page.goto('/');
    await expect(page.getByText('The server is currently being updated. Please wait.')).toBeVisible();
    await expect(selectButton(page, 'Language')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Technical support feedback' })).toHaveCount(0);
    await expect(page.getByLabel('Username or e-mail')).toBeVisible({ timeout: 8000 });
    expect(refusals).toBe(2);
  });
});

test('the app passes its own Content-Security-Policy', async ({
  page,
  user,
}: {
  page: Page;
  user: TestUser;
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await loginAs(page, user);
  for (const path of ['/bibliography/', '/usermedia/', '/user/contacts/', '/user/profile/']) {
    await page.goto(path);
    await expect(nav(page)).toBeVisible();
  }
  expect(violations).toEqual([]);
});

test('a staff-made account can log in right after createuser', async ({ page }) => {
  const staff = await createUserByCommand({ staff: true });
  await page.goto('/');
  await fillLogin(page, staff.username, staff.password);
  await expect(nav(page)).toBeVisible();
});
