import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { body, firstParagraph, saved } from '../editor';
import { apiCall, expect, loginAs, setLanguage, test } from '../fixtures';

// Tables as in Google Docs (issue 55): text after a final table, Tab adding a row, the size
// picker and the cell's context menu, on a desktop and a phone, in English and German.

const TEXTS = {
  en: {
    toolbar: 'Editing tools',
    table: 'Table',
    picker: 'Insert table',
    contextMenu: 'Table commands',
    rowBelow: 'Insert row below',
    rowAbove: 'Insert row above',
  },
  de: {
    toolbar: 'Bearbeitungswerkzeuge',
    table: 'Tabelle',
    picker: 'Tabelle einfügen',
    contextMenu: 'Tabellenbefehle',
    rowBelow: 'Zeile darunter einfügen',
    rowAbove: 'Zeile darüber einfügen',
  },
};

/** A new document of a new user, open in the editor in `language`. */
async function openNewDocument(page: Page, user: Parameters<typeof loginAs>[1], language: 'en' | 'de') {
  await loginAs(page, user, '/');
  if (language === 'de') await setLanguage(page, 'de');
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/document/${id}`);
  await expect(firstParagraph(page)).toBeVisible();
}

/** The body as its blocks: `p:text`, a table as its rows of cell texts joined with `|`. */
function blocksOf(page: Page) {
  return body(page).evaluate((part) =>
    [...part.querySelectorAll(':scope > p, :scope > .tableWrapper')].map((block) =>
      block.tagName === 'P'
        ? `p:${block.textContent}`
        : `table:${[...block.querySelectorAll('tr')]
            .map((row) => [...row.querySelectorAll('td, th')].map((cell) => cell.textContent).join('|'))
            .join('/')}`,
    ),
  );
}

const type = (page: Page, text: string) => page.keyboard.type(text, { delay: 20 });

test('desktop, English: the size picker by keyboard, Tab adds a row, the context menu, text after the final table', async ({
  page,
  user,
}) => {
  const texts = TEXTS.en;
  await openNewDocument(page, user, 'en');
  await firstParagraph(page).click();
  await type(page, 'Intro');

  // The picker: arrow keys choose 2 columns × 2 rows, Enter inserts; the caret is in the first cell.
  await page
    .getByRole('toolbar', { name: texts.toolbar })
    .getByRole('button', { name: texts.table, exact: true })
    .click();
  const picker = page.getByRole('dialog', { name: texts.picker });
  await expect(picker.getByRole('button', { name: '1 × 1' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(picker.getByRole('button', { name: '2 × 2' })).toBeFocused();
  await expect(picker.getByText('2 × 2', { exact: true })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  await type(page, 'A');
  await page.keyboard.press('Tab');
  await type(page, 'B');
  await page.keyboard.press('Tab');
  await type(page, 'c');
  await page.keyboard.press('Tab');
  await type(page, 'd');
  // Tab in the last cell: a new row, and the caret in it (the focus stays in the text).
  await page.keyboard.press('Tab');
  await type(page, 'e');
  await page.keyboard.press('Shift+Tab');
  await type(page, 'D');
  await expect.poll(() => blocksOf(page)).toEqual(['p:Intro', 'table:A|B/c|D/e|']);

  // Right-click on a cell: the context menu inserts a row below it.
  await body(page).locator('td', { hasText: 'c' }).click({ button: 'right' });
  const contextMenu = page.getByRole('menu', { name: texts.contextMenu });
  await expect(contextMenu.getByRole('menuitem', { name: 'Merge cells' })).toBeDisabled();
  await contextMenu.getByRole('menuitem', { name: texts.rowBelow }).click();
  await expect.poll(() => blocksOf(page)).toEqual(['p:Intro', 'table:A|B/c|D/|/e|']);

  // Out of the final table: arrow down from its last row, then type.
  await body(page).locator('td', { hasText: 'e' }).click();
  await page.keyboard.press('ArrowDown');
  await type(page, 'After');
  await expect.poll(() => blocksOf(page)).toEqual(['p:Intro', 'table:A|B/c|D/|/e|', 'p:After']);
  await saved(page);
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('phone, German: the picker by touch, the menu by Shift+F10, Ctrl+End and Enter after the final table', async ({
    page,
    user,
  }) => {
    const texts = TEXTS.de;
    await openNewDocument(page, user, 'de');
    await firstParagraph(page).click();
    // On a phone the toolbar's Table tool is under More.
    await page
      .getByRole('toolbar', { name: texts.toolbar })
      .getByRole('button', { name: 'Weitere Werkzeuge' })
      .click();
    await page.getByRole('menuitem', { name: texts.table, exact: true }).click();
    await page.getByRole('dialog', { name: texts.picker }).getByRole('button', { name: '3 × 1' }).click();
    await type(page, 'Kopf');
    await expect.poll(() => blocksOf(page)).toEqual(['table:Kopf||']);

    // The keyboard's way to the context menu: Shift+F10 in a cell.
    await page.keyboard.press('Shift+F10');
    const contextMenu = page.getByRole('menu', { name: texts.contextMenu });
    await expect(contextMenu.getByRole('menuitem').first()).toBeFocused();
    await contextMenu.getByRole('menuitem', { name: texts.rowBelow }).click();
    await expect.poll(() => blocksOf(page)).toEqual(['table:Kopf||/||']);

    // Ctrl+End, Enter: a paragraph after the final table; typed text goes there, none lost.
    await body(page).locator('th', { hasText: 'Kopf' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await type(page, 'Danach');
    await expect.poll(() => blocksOf(page)).toEqual(['table:Kopf||/||', 'p:Danach']);
    await saved(page);
  });
});
