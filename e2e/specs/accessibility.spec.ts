import type { Page } from '@playwright/test';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import sharp from 'sharp';
import { openSettled as open, violations } from '../axe';
import {
  apiCall,
  chooseOption,
  createUser,
  expect,
  loginAs,
  selectValue,
  type TestUser,
  test,
} from '../fixtures';

// The look (issue 15): axe finds nothing on the screens, logged out and in, light and dark,
// desktop and phone; no screen scrolls sideways on a phone; skip link, theme choice, dialogs.

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
const SCHEMES = ['light', 'dark'] as const;

const LOGGED_OUT = ['/', '/account/password-reset/', '/pages/terms/'];
const LOGGED_IN = ['/', '/bibliography/', '/usermedia/', '/user/contacts/', '/user/profile/'];

const LIBRARY = `
@inproceedings{long2019,
  author = {Smith, Jane and Doe, John},
  title = {A Remarkably Long Title About the Reproducibility of Computational Experiments in the Humanities},
  booktitle = {Proceedings of the Conference on Things}, year = {2019}
}`;

/** Rows in the tables: a reference with a long title (imported as a user does) and a sent invite. */
async function seed(page: Page) {
  await open(page, '/bibliography/');
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import references' });
  await dialog.locator('textarea').fill(LIBRARY);
  await dialog.locator('button.button-primary').click();
  await expect(dialog.locator('.bib-report-summary')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await apiCall(page, contactsApi.invite, { user_string: 'a.colleague@university.example.org' });
}

async function scrollsSideways(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const colorScheme of SCHEMES) {
    test.describe(`${device}, ${colorScheme}`, () => {
      test.use({ viewport, colorScheme });

      test('logged out: no axe violations and no sideways scrolling', async ({ page }) => {
        for (const path of LOGGED_OUT) {
          await open(page, path);
          expect(await violations(page), path).toEqual([]);
          expect(await scrollsSideways(page), path).toBe(false);
        }
      });

      test('logged in: no axe violations and no sideways scrolling', async ({ page, user }) => {
        test.slow();
        await loginAs(page, user);
        await seed(page);
        for (const path of LOGGED_IN) {
          await open(page, path);
          expect(await violations(page), path).toEqual([]);
          expect(await scrollsSideways(page), path).toBe(false);
        }
      });
    });
  }
}

/** The page at a device's size, in a colour scheme. */
async function inLook(
  page: Page,
  viewport: { width: number; height: number },
  colorScheme: 'light' | 'dark',
) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme });
}

/** Logged in at a device's size with the seeded library, on the bibliography: its table. */
async function seededBibliography(page: Page, user: TestUser, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await loginAs(page, user, '/');
  await seed(page);
  await open(page, '/bibliography/');
  return page.getByRole('grid', { name: 'Bibliography' });
}

/** Logs in and opens a new document of the user's in the editor. */
async function openNewDocument(page: Page, user: TestUser) {
  await loginAs(page, user, '/');
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/document/${id}`);
}

/** One of the editor's menus: in the menu bar, on a phone in the menus' drawer. */
async function openEditorMenu(page: Page, device: string, menu: string) {
  if (device === 'phone') await page.getByRole('button', { name: 'Menus', exact: true }).click();
  await page.getByRole('button', { name: menu, exact: true }).click();
}

/** The editor's dialogs, each opened as a user does; axe runs on each. */
const EDITOR_DIALOGS: readonly [string, (page: Page, device: string) => Promise<void>][] = [
  [
    'Document settings',
    async (page, device) => {
      await openEditorMenu(page, device, 'File');
      await page.getByRole('menuitem', { name: 'Document settings' }).click();
    },
  ],
  [
    'Add author',
    async (page, device) => {
      await openEditorMenu(page, device, 'Insert');
      await page.getByRole('menuitem', { name: 'Add author' }).click();
    },
  ],
  [
    'Link',
    async (page) => {
      await page.locator('.doc-richtext_part[data-part-id="body"] p').first().click();
      await page.keyboard.type('ink');
      await page.keyboard.press('Shift+Home');
      await page.keyboard.press('ControlOrMeta+k');
    },
  ],
  [
    'Insert cross-reference',
    async (page, device) => {
      await page.locator('.doc-richtext_part[data-part-id="body"] p').first().click();
      await openEditorMenu(page, device, 'Insert');
      await page.getByRole('menuitem', { name: 'Cross-reference' }).click();
    },
  ],
  ['Keyboard shortcuts', (page) => page.keyboard.press('ControlOrMeta+/')],
  [
    'Frequently asked questions',
    async (page, device) => {
      await openEditorMenu(page, device, 'Help');
      await page.getByRole('menuitem', { name: 'Frequently asked questions' }).click();
    },
  ],
];

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const colorScheme of SCHEMES) {
    test(`the editor and its dialogs, ${device}, ${colorScheme}: no axe violations`, async ({
      page,
      user,
    }) => {
      test.slow();
      await inLook(page, viewport, colorScheme);
      await openNewDocument(page, user);
      await expect(page.locator('.doc-title')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      expect(await violations(page), 'editor').toEqual([]);
      expect(await scrollsSideways(page), 'editor').toBe(false);
      for (const [name, openDialog] of EDITOR_DIALOGS) {
        await openDialog(page, device);
        await expect(page.getByRole('dialog', { name })).toBeVisible();
        expect(await violations(page), name).toEqual([]);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
      }
    });
  }
}

test.describe('focus and theme', () => {
  test('the skip link is the first Tab stop and moves the focus to the content', async ({ page }) => {
    await open(page, '/');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    await expect(page).toHaveURL(/\/$/);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Username or e-mail')).toBeFocused();
  });

  test('the theme follows the system until chosen, and the choice survives a reload', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await open(page, '/');
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(await background()).toBe('rgb(22, 25, 30)');
    await chooseOption(page, 'Theme', 'Light');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await background()).toBe('rgb(246, 247, 249)');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect(selectValue(page, 'Theme')).toHaveText('Light');
    await chooseOption(page, 'Theme', 'As the system');
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
    expect(await background()).toBe('rgb(22, 25, 30)');
  });

  test('forced-colours mode keeps the focus ring, in the system highlight colour', async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    await open(page, '/');
    await page.getByLabel('Username or e-mail').focus();
    await page.keyboard.press('Tab');
    const style = await page
      .getByLabel('Password', { exact: true })
      .evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(style).toBe('solid');
    expect(await violations(page)).toEqual([]);
  });

  test('a keyboard focus ring is drawn at >= 3:1 against the page', async ({ page }) => {
    await open(page, '/');
    await page.getByLabel('Username or e-mail').focus();
    await page.keyboard.press('Tab');
    const ring = await page.getByLabel('Password', { exact: true }).evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor };
    });
    // --color-focus: #2f6fd6, 4.8:1 on white and 4.5:1 on the page background.
    expect(ring).toEqual({ style: 'solid', width: '2px', color: 'rgb(47, 111, 214)' });
  });
});

test.describe('the header on a phone', () => {
  test.use({ viewport: VIEWPORTS.phone });

  test('collapses into a menu with every item and its shortcut', async ({ page, user }) => {
    await loginAs(page, user, '/');
    await expect(page.locator('#page-heading')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('menu', { name: 'Menu' });
    await expect(menu.getByRole('menuitem')).toHaveText([
      'DocumentsAlt-d',
      'BibliographyAlt-b',
      'ImagesAlt-m',
    ]);
    expect(await violations(page)).toEqual([]);
    await menu.getByRole('menuitem', { name: /Bibliography/ }).click();
    await expect(page).toHaveURL(/\/bibliography\/$/);
    await page.keyboard.press('Alt+m');
    await expect(page).toHaveURL(/\/usermedia\/$/);
  });
});

test.describe('dialogs on a phone', () => {
  test.use({ viewport: VIEWPORTS.phone });

  test('fill the screen, keep their buttons in view and pass axe', async ({ page, user }) => {
    await loginAs(page, user, '/user/profile/');
    await expect(page.locator('#page-heading')).toBeVisible();
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    await expect(dialog).toBeVisible();
    const box = await page.locator('.dialog-modal').boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport();
    expect(await violations(page)).toEqual([]);
  });
});

for (const colorScheme of SCHEMES) {
  test.describe(`dialogs, desktop, ${colorScheme}`, () => {
    test.use({ viewport: VIEWPORTS.desktop, colorScheme });

    test('pass axe, with their warnings shown', async ({ page, user }) => {
      test.slow();
      await loginAs(page, user, '/user/contacts/');
      await expect(page.locator('#page-heading')).toBeVisible();
      await page.getByRole('button', { name: 'Invite contact' }).click();
      const invite = page.getByRole('dialog', { name: 'Invite contact' });
      await invite.getByRole('textbox').fill(`${user.username}, not-an-address`);
      await invite.getByRole('button', { name: 'Invite', exact: true }).click();
      await expect(invite.getByText('Invalid email!')).toBeVisible();
      expect(await violations(page), 'invite contact').toEqual([]);
      await page.keyboard.press('Escape');

      await open(page, '/bibliography/');
      await page.getByRole('button', { name: 'Register new source' }).click();
      await expect(page.getByRole('dialog', { name: 'Register new source' })).toBeVisible();
      expect(await violations(page), 'register new source').toEqual([]);
      await page.keyboard.press('Escape');

      await open(page, '/user/profile/');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await violations(page), 'change password').toEqual([]);
    });
  });
}

/** Clicks the button named `name`: how a user opens most dialogs. */
const clickButton = (name: string) => (page: Page) => page.getByRole('button', { name }).click();

/** A dialog of `screen` opened by the button with its name: [screen, dialog name, how to open it]. */
const byItsButton = (screen: string, name: string) => [screen, name, clickButton(name)] as const;

/** The remaining dialogs, opened as a user does, logged in: [screen, dialog name, how to open it]. */
const MORE_DIALOGS: readonly (readonly [string, string | RegExp, (page: Page) => Promise<void>])[] = [
  byItsButton('/', 'New folder'),
  ['/', /./, (page) => page.keyboard.press('ControlOrMeta+k')],
  ['/bibliography/', 'Import references', clickButton('Import')],
  ['/user/profile/', /./, clickButton('Add e-mail address')],
  byItsButton('/user/profile/', 'Delete account'),
  byItsButton('/usermedia/', 'Upload new image'),
  byItsButton('/usermedia/', 'Edit categories'),
  byItsButton('/bibliography/', 'Edit categories'),
];

for (const colorScheme of SCHEMES) {
  test(`more dialogs, desktop, ${colorScheme}: no axe violations`, async ({ page, user }) => {
    test.slow();
    await inLook(page, VIEWPORTS.desktop, colorScheme);
    await loginAs(page, user, '/');
    for (const [path, name, openDialog] of MORE_DIALOGS) {
      await open(page, path);
      await openDialog(page);
      await expect(page.getByRole('dialog', { name }).first()).toBeVisible();
      expect(await violations(page), `${path} ${name}`).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  });
}

/** An image the user uploads: a small PNG made on the fly. */
async function uploadImage(page: Page, name: string) {
  const upload = page.getByRole('button', { name: 'Upload new image' });
  await expect(upload).toBeEnabled();
  await upload.click();
  const dialog = page.getByRole('dialog', { name: 'Upload new image' });
  await page.getByTestId('usermedia-file-input').setInputFiles({
    name,
    mimeType: 'image/png',
    buffer: await sharp({ create: { width: 40, height: 30, channels: 3, background: '#36c' } })
      .png()
      .toBuffer(),
  });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** Dialogs that need rows to open from, each opened as a user does: [screen, dialog name, open]. */
const ROW_DIALOGS: readonly (readonly [string, string, (page: Page) => Promise<void>])[] = [
  [
    '/usermedia/',
    'Edit image',
    (page) => page.getByRole('grid', { name: 'Images' }).getByRole('button', { name: 'Edit figure' }).click(),
  ],
  [
    '/bibliography/',
    'Edit source',
    (page) =>
      page
        .getByRole('grid', { name: 'Bibliography' })
        .getByRole('button', { name: /^Edit A Remarkably/ })
        .click(),
  ],
  [
    '/',
    'Move',
    async (page) => {
      await page.getByRole('checkbox', { name: 'Select Untitled', exact: true }).check();
      await page.getByRole('button', { name: 'Actions for the selected entries' }).click();
      await page.getByRole('menuitem', { name: 'Move selected' }).click();
    },
  ],
  ['/', 'Share', clickButton('Share Untitled')],
  byItsButton('/user/contacts/', 'Invite contact'),
  byItsButton('/user/contacts/', 'Technical support feedback'),
];

/** What each screen's dialogs need before they open: its rows, made as a user makes them. */
const PREPARE: Record<string, (page: Page) => Promise<void>> = {
  '/usermedia/': async (page) => {
    await open(page, '/usermedia/');
    await uploadImage(page, 'figure.png');
  },
  '/bibliography/': seed,
  '/': async (page) => {
    await apiCall(page, documentsApi.create, { path: '/' });
  },
  '/user/contacts/': async () => {},
};

// One test per screen and look: each stays short enough for a busy machine.
for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const colorScheme of SCHEMES) {
    for (const [screen, prepare] of Object.entries(PREPARE)) {
      test(`the dialogs of ${screen}, ${device}, ${colorScheme}: no axe violations`, async ({
        page,
        user,
      }) => {
        test.slow();
        await inLook(page, viewport, colorScheme);
        await loginAs(page, user, '/');
        await prepare(page);
        for (const [path, name, openDialog] of ROW_DIALOGS.filter(([path]) => path === screen)) {
          await open(page, path);
          await openDialog(page);
          const dialog = page.getByRole('dialog', { name });
          await expect(dialog).toBeVisible();
          expect(await violations(page), `${path} ${name}`).toEqual([]);
          expect(await scrollsSideways(page), `${path} ${name}`).toBe(false);
          await page.keyboard.press('Escape');
          await expect(dialog).toBeHidden();
        }
      });
    }

    test(`the staff screens, ${device}, ${colorScheme}: no axe violations`, async ({ page }) => {
      test.slow();
      const staff = await createUser({ staff: true });
      await inLook(page, viewport, colorScheme);
      await loginAs(page, staff, '/');
      for (const section of ['users', 'pages', 'messages', 'feedback', 'settings', 'log']) {
        const path = `/admin/${section}/`;
        await open(page, path);
        expect(await violations(page), path).toEqual([]);
        expect(await scrollsSideways(page), path).toBe(false);
      }
    });
  }
}

test.describe('focus returns and shortcuts wait', () => {
  test('a dialog keeps Alt shortcuts from navigating; Escape returns the focus to its button', async ({
    page,
    user,
  }) => {
    test.slow();
    await loginAs(page, user, '/user/contacts/');
    const invite = page.getByRole('button', { name: 'Invite contact' });
    await invite.click();
    const dialog = page.getByRole('dialog', { name: 'Invite contact' });
    await dialog.getByRole('textbox').fill('someone@example.org');
    await page.keyboard.press('Alt+b');
    await page.keyboard.press('Alt+d');
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/user\/contacts\/$/);
    await expect(dialog.getByRole('textbox')).toHaveValue('someone@example.org');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(invite).toBeFocused();
    // Closed, the shortcut works again.
    await page.keyboard.press('Alt+b');
    await expect(page).toHaveURL(/\/bibliography\/$/);
  });

  test('after an image upload the focus is back on the upload button', async ({ page, user }) => {
    test.slow();
    await loginAs(page, user, '/usermedia/');
    await uploadImage(page, 'figure.png');
    await expect(page.getByRole('grid', { name: 'Images' })).toContainText('figure');
    await expect(page.getByRole('button', { name: 'Upload new image' })).toBeFocused();
  });
});

test.describe('overview tables', () => {
  test('on a phone rows are cards with every value and its label, and nothing scrolls sideways', async ({
    page,
    user,
  }) => {
    test.slow();
    const table = await seededBibliography(page, user, VIEWPORTS.phone);
    const row = table.getByRole('row').filter({ hasText: 'Remarkably' });
    await expect(row.getByRole('gridcell').filter({ hasText: 'Smith, Doe' })).toHaveAttribute(
      'data-label',
      'Authors',
    );
    await expect(row.getByRole('gridcell').filter({ hasText: '2019' })).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
    // Sorting stays at hand above the cards.
    await table.getByRole('columnheader', { name: 'Year' }).click();
    await expect(table.getByRole('columnheader', { name: 'Year' })).toHaveAttribute('aria-sort', 'ascending');
    await open(page, '/user/contacts/');
    // The label is drawn before the value (CSS), from the cell's data-label.
    await expect(
      page
        .getByRole('grid', { name: 'Contacts' })
        .getByRole('gridcell')
        .filter({ hasText: 'Invitation sent' }),
    ).toHaveAttribute('data-label', 'Type');
    expect(await scrollsSideways(page)).toBe(false);
  });

  test('on a desktop columns resize by keyboard and by dragging; long titles wrap to two lines', async ({
    page,
    user,
  }) => {
    test.slow();
    const table = await seededBibliography(page, user, VIEWPORTS.desktop);
    const title = table.getByRole('columnheader', { name: 'Title' });
    const width = async () => Math.round((await title.boundingBox())?.width ?? 0);
    const before = await width();
    const handle = table.getByRole('separator', { name: 'Resize column Title' });
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(handle).toHaveAttribute('aria-valuenow', String(before + 32));
    expect(await width()).toBe(before + 32);
    await page.keyboard.press('Shift+ArrowLeft');
    expect(await width()).toBe(before - 32);

    const box = await handle.boundingBox();
    if (!box) throw new Error('no resize handle');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    expect(await width()).toBe(before + 48);

    // The long title takes two lines and ends in an ellipsis, its full text still its name.
    const long = table.getByRole('button', { name: /^Edit A Remarkably Long Title/ });
    const lines = await long.evaluate((element) => {
      const style = getComputedStyle(element);
      return Math.round(element.getBoundingClientRect().height / Number.parseFloat(style.lineHeight));
    });
    expect(lines).toBe(2);
    expect(await long.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  });

  test('while its list loads, an overview is a busy grid whose header stays where it is once the rows are in', async ({
    page,
    user,
  }) => {
    test.slow();
    await loginAs(page, user, '/user/profile/');
    for (const [viewport, colorScheme] of [
      [VIEWPORTS.desktop, 'light'],
      [VIEWPORTS.phone, 'dark'],
    ] as const) {
      await inLook(page, viewport, colorScheme);
      // The list's answer is held until the loading grid has been measured.
      let answer = () => {};
      const held = new Promise<void>((resolve) => {
        answer = resolve;
      });
      await page.route(`**${documentsApi.list.path}`, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/');
      const grid = page.getByRole('grid', { name: 'Documents and folders' });
      await expect(grid).toHaveAttribute('aria-busy', 'true');
      await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toBeAttached();
      await page.evaluate(() => document.fonts.ready);
      const header = await grid.locator('thead').boundingBox();
      expect(await violations(page)).toEqual([]);
      answer();
      await expect(grid).toContainText('No documents available');
      await expect(grid).not.toHaveAttribute('aria-busy', /./);
      expect(await grid.locator('thead').boundingBox()).toEqual(header);
      await page.unroute(`**${documentsApi.list.path}`);
    }
  });

  test('an empty overview shows its icon, sentence and next action', async ({ page, user }) => {
    test.slow();
    await loginAs(page, user, '/usermedia/');
    const table = page.getByRole('grid', { name: 'Images' });
    await expect(table).toContainText('No images available');
    await table.getByRole('button', { name: 'Upload your first image' }).click();
    await expect(page.getByRole('dialog', { name: 'Upload new image' })).toBeVisible();
    await page.keyboard.press('Escape');
    await open(page, '/user/contacts/');
    await page.getByRole('button', { name: 'Invite your first contact' }).click();
    await expect(page.getByRole('dialog', { name: 'Invite contact' })).toBeVisible();
  });
});

// Review (issue 18): the review margin with a tracked change, a new paragraph and an open comment
// thread, and the revision dialogs (save, history, compare), light and dark, desktop and phone.
// Screenshots of each state go to the test's output folder.

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`the review margin and revision dialogs, ${device}, ${colorScheme}: no axe violations`, async ({
      page,
      user,
    }, testInfo) => {
      test.slow();
      await inLook(page, viewport, colorScheme);
      await openNewDocument(page, user);
      const body = page.locator('.doc-richtext_part[data-part-id="body"] p').first();
      await body.click();
      await page.keyboard.type('The experiment shows a clear result');
      // A suggestion (Mod-Alt-S) and a new paragraph, then a comment on the first word.
      await page.keyboard.press('ControlOrMeta+Alt+s');
      await page.keyboard.type(' indeed');
      await page.keyboard.press('Enter');
      await page.keyboard.type('More');
      await body.click();
      await page.keyboard.press('Home');
      await page.keyboard.press('Shift+ControlOrMeta+ArrowRight');
      await page.keyboard.press('ControlOrMeta+Alt+m');
      await page.getByRole('textbox', { name: 'New comment' }).fill('Please cite a source.');
      await page.getByRole('form', { name: 'New comment' }).getByRole('button', { name: 'Comment' }).click();
      const margin = page.getByRole('complementary', { name: 'Comments and changes' });
      await expect(margin.getByText('started a new paragraph')).toBeVisible();
      const thread = margin.locator('.review-card', { hasText: 'Please cite a source.' });
      // The new thread is open (its answer field and controls shown).
      await expect(thread.getByRole('textbox', { name: 'Answer' })).toBeVisible();
      await expect(page.locator('.editor-save-state')).toHaveAttribute('data-saved', 'true');
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({
        path: testInfo.outputPath(`margin-${device}-${colorScheme}.png`),
        fullPage: true,
      });
      expect(await violations(page), 'margin').toEqual([]);
      expect(await scrollsSideways(page), 'margin').toBe(false);

      await openEditorMenu(page, device, 'File');
      await page.getByRole('menuitem', { name: 'Save revision…' }).click();
      const save = page.getByRole('dialog', { name: 'Save revision' });
      await save.getByRole('button', { name: 'Save' }).click();
      await expect(save.getByRole('alert')).toHaveText('Please give the revision a name.');
      expect(await violations(page), 'save revision').toEqual([]);
      await save.getByLabel('Name').fill('Draft 1');
      await save.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Revision “Draft 1” saved.')).toBeVisible();

      await openEditorMenu(page, device, 'File');
      await page.getByRole('menuitem', { name: 'History' }).click();
      const history = page.getByRole('dialog', { name: 'History' });
      const row = history.getByRole('row', { name: /Draft 1/ });
      await expect(row).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: testInfo.outputPath(`history-${device}-${colorScheme}.png`) });
      expect(await violations(page), 'history').toEqual([]);
      await row.getByRole('checkbox').check();
      await history.getByRole('button', { name: 'Compare with the current text' }).click();
      const compared = page.getByRole('dialog', { name: /Draft 1 .* compared with current text/ });
      await expect(compared.getByTestId('revision-document')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: testInfo.outputPath(`compare-${device}-${colorScheme}.png`) });
      expect(await violations(page), 'compare').toEqual([]);
    });
  }
}
