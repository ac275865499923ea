import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { violations } from '../axe';
import { body, firstParagraph, saved } from '../editor';
import { apiCall, expect, loginAs, selectionSeen, setLanguage, test, watchSelection } from '../fixtures';

// The editor on a phone (issue 55): one toolbar row with More, the menu bar in a drawer, the text
// on the first screen, fingers' targets, nothing sideways; on a desktop the menus stay in view.

const TEXTS = {
  en: {
    toolbar: 'Editing tools',
    menus: 'Menus',
    more: 'More tools',
    format: 'Format',
    bold: 'Bold',
    superscript: 'Superscript',
    file: 'File',
  },
  de: {
    toolbar: 'Bearbeitungswerkzeuge',
    menus: 'Menüs',
    more: 'Weitere Werkzeuge',
    format: 'Format',
    bold: 'Fett',
    superscript: 'Hochgestellt',
    file: 'Datei',
  },
} as const;

const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 640 },
  { width: 844, height: 390 },
];

async function newDocument(page: Page, user: Parameters<typeof loginAs>[1], language: string) {
  await loginAs(page, user, '/');
  if (language !== 'en') await setLanguage(page, language);
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/document/${id}`);
  await expect(firstParagraph(page)).toBeVisible();
}

/** Selects the body's first paragraph's text with the keys, as a user would. */
async function selectParagraph(page: Page, text: string) {
  await firstParagraph(page).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await selectionSeen(page, text);
}

for (const language of ['en', 'de'] as const) {
  const t = TEXTS[language];
  test(`on phones (${language}): one toolbar row, text on the first screen, More and the menus' drawer run commands`, async ({
    page,
    user,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(PHONES[0]);
    await newDocument(page, user, language);
    await page.locator('.doc-title').click();
    await page.keyboard.type('Notes from the train');
    await firstParagraph(page).click();
    await page.keyboard.type('A sentence');
    await saved(page);

    for (const viewport of PHONES) {
      await page.setViewportSize(viewport);
      await page.reload();
      // Measured once the server's document is shown: until then (the copy of the offline queue,
      // while connecting) a notice that this is a saved copy stands above the text.
      await expect(page.locator('.editor-save-state')).toHaveAttribute('data-from-cache', 'false');
      const toolbar = page.getByRole('toolbar', { name: t.toolbar });
      await expect(toolbar.getByRole('button', { name: t.more })).toBeVisible();
      const where = `${viewport.width}x${viewport.height}`;
      // The first line of text within the top third of the screen.
      const title = (await page.locator('.doc-title').boundingBox()) ?? { y: 1e9, height: 0 };
      expect(title.y + title.height, where).toBeLessThanOrEqual(viewport.height / 3);
      // Upright or sideways, the text keeps the phone's width: the review margin follows below it.
      const paper = (await page.locator('.ProseMirror').first().boundingBox()) ?? {
        y: 0,
        height: 0,
        width: 0,
      };
      const margin = await page.locator('.review-margin').boundingBox();
      expect(paper.width, where).toBeGreaterThan(viewport.width * 0.75);
      expect(margin?.y, where).toBeGreaterThan(paper.y + paper.height);
      // One row: every tool and the drawer's button side by side, each at least 44 px.
      const boxes = await page
        .locator('.editor-chrome button:visible')
        .evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().toJSON()));
      expect(boxes.length, where).toBeGreaterThanOrEqual(5);
      const middle = (box: DOMRect) => box.top + box.height / 2;
      for (const box of boxes) {
        expect(box.width, where).toBeGreaterThanOrEqual(44);
        expect(box.height, where).toBeGreaterThanOrEqual(44);
        expect(Math.abs(middle(box) - middle(boxes[0])), where).toBeLessThanOrEqual(1);
      }
      // The menu bar is in the drawer, not on the page.
      await expect(page.getByRole('button', { name: t.file, exact: true })).toHaveCount(0);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
        ),
        where,
      ).toBe(false);
    }

    await page.setViewportSize(PHONES[1]);
    await page.reload();
    await expect(firstParagraph(page)).toHaveText('A sentence');
    await watchSelection(page);
    // More: the tools that did not fit, by the keyboard.
    await selectParagraph(page, 'A sentence');
    await page.getByRole('button', { name: t.more }).click();
    await page.getByRole('menuitem', { name: t.superscript }).click();
    await expect(firstParagraph(page).locator('sup')).toHaveText('A sentence');
    const more = page.getByRole('button', { name: t.more });
    await more.press('Enter');
    const items = page.getByRole('menu', { name: t.more }).getByRole('menuitem');
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toBeFocused();
    expect(await violations(page), 'More').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(items).toHaveCount(0);
    await expect(more).toBeFocused();

    // The drawer: Format > Bold; the text keeps the focus (what is typed next lands in it).
    await selectParagraph(page, 'A sentence');
    await page.getByRole('button', { name: t.menus }).click();
    const drawer = page.getByRole('dialog', { name: t.menus });
    await drawer.getByRole('button', { name: t.format }).click();
    await expect(drawer.getByRole('menuitem', { name: t.bold })).toBeVisible();
    expect(await violations(page), 'drawer').toEqual([]);
    await drawer.getByRole('menuitem', { name: t.bold }).click();
    await expect(drawer).toHaveCount(0);
    await expect(firstParagraph(page).locator('strong')).toHaveText('A sentence');
    await page.keyboard.press('End');
    await page.keyboard.type(' here');
    await expect(firstParagraph(page)).toHaveText('A sentence here');
    await saved(page);
  });
}

test('on a desktop the menu bar and the toolbar stay in view at the end of a long document', async ({
  page,
  user,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await newDocument(page, user, 'en');
  await firstParagraph(page).click();
  for (let index = 1; index <= 40; index++) {
    await page.keyboard.insertText(`Paragraph ${index} of a long paper.`);
    await page.keyboard.press('Enter');
  }
  await expect(body(page).locator('p')).toHaveCount(41);
  await page.keyboard.press('ControlOrMeta+End');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.locator('.app-header')).not.toBeInViewport();
  await expect(page.getByRole('toolbar', { name: 'Editing tools' })).toBeInViewport({ ratio: 1 });
  const file = page.getByRole('button', { name: 'File', exact: true });
  await expect(file).toBeInViewport({ ratio: 1 });
  // Still usable there.
  await file.click();
  await expect(page.getByRole('menu', { name: 'File' })).toBeVisible();
  await page.keyboard.press('Escape');
});
