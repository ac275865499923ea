import type { Browser, Page } from '@playwright/test';
import { body, card, firstParagraph, insertTableOfSize, saved } from '../editor';
import { expect, selectionSeen, setLanguage, sharedDocument, test, watchSelection } from '../fixtures';

// Accounts are made by the CLI on the server's SQLite file: one test after the other.
test.describe.configure({ mode: 'serial' });

const tool = (page: Page, name: string) =>
  page.getByRole('toolbar', { name: 'Editing tools' }).getByRole('button', { name, exact: true });

/** Ann, the owner, and Bob, her write-tracked co-author, each with the shared document open. */
async function annAndBobOpen(
  browser: Browser,
  names: { ann: string; bob: string } = { ann: 'Owner', bob: 'Helper' },
  language?: 'de',
) {
  const { annPage, bobPage, id } = await sharedDocument(
    browser,
    'write-tracked',
    { firstName: 'Ann', lastName: names.ann },
    { firstName: 'Bob', lastName: names.bob },
  );
  for (const page of [annPage, bobPage]) {
    if (language) await setLanguage(page, language);
    await page.goto(`/document/${id}`);
  }
  return { annPage, bobPage };
}

/** Ann writes `lines` (Enter after each but the last) at the start of the body; saved, Bob's body shows `blocks`. */
async function annWrites(annPage: Page, bobPage: Page, lines: string[], blocks: string[]) {
  await firstParagraph(annPage).click();
  for (const [index, line] of lines.entries()) {
    if (index > 0) await annPage.keyboard.press('Enter');
    await annPage.keyboard.type(line);
  }
  await saved(annPage);
  await expect.poll(() => blocksOf(bobPage)).toEqual(blocks);
}

/** After the owner's decision: both show `blocks`, no change is left to decide and no block is marked. */
async function bothSettled(pages: Page[], blocks: string[]) {
  for (const page of pages) {
    await expect.poll(() => blocksOf(page)).toEqual(blocks);
    await expect(page.locator('.review-card-change')).toHaveCount(0);
    await expect(body(page).locator('.block-mark, [class*="review-block-"]')).toHaveCount(0);
  }
}

/** The body as its blocks: a list's items and a table's cells in brackets. */
function blocksOf(page: Page) {
  return body(page).evaluate((part) => {
    const out: string[] = [];
    for (const element of part.querySelectorAll('p, ul, ol, table')) {
      if (element.closest('li, td, th') && element.tagName === 'P') continue;
      if (element.tagName === 'P') out.push(`p:${element.textContent}`);
      else if (element.tagName === 'TABLE') out.push(`table:${element.querySelectorAll('td, th').length}`);
      else
        out.push(
          `${element.tagName.toLowerCase()}(${[...element.children].map((li) => li.textContent).join('|')})`,
        );
    }
    return out;
  });
}

test('a write-tracked co-author makes a list and inserts a table as suggestions; the owner accepts one and rejects the other', async ({
  browser,
}) => {
  const { annPage, bobPage } = await annAndBobOpen(browser);
  await annWrites(annPage, bobPage, ['Alpha', 'Beta'], ['p:Alpha', 'p:Beta']);

  // The co-author's list and table are suggestions: made, marked and listed for both.
  await expect(bobPage.getByText('Your changes are recorded as suggestions.')).toBeVisible();
  await body(bobPage).locator('p', { hasText: 'Alpha' }).click();
  await tool(bobPage, 'Bulleted list').click();
  await body(bobPage).locator('p', { hasText: 'Beta' }).click();
  await bobPage.keyboard.press('End');
  await insertTableOfSize(bobPage, 3, 3);
  await saved(bobPage);
  await expect(
    bobPage.getByText('This change cannot be recorded as a suggestion', { exact: false }),
  ).toHaveCount(0);
  for (const page of [bobPage, annPage]) {
    await expect.poll(() => blocksOf(page)).toEqual(['ul(Alpha)', 'p:Beta', 'table:9']);
    await expect(card(page, 'Bob Helper made a list')).toBeVisible();
    await expect(card(page, 'Bob Helper inserted a table')).toBeVisible();
    await expect(
      body(page).locator('table.review-block-insertion, .review-block-insertion table'),
    ).toHaveCount(1);
  }
  // The suggester may only withdraw.
  await expect(card(bobPage, 'made a list').getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await expect(card(bobPage, 'made a list').getByRole('button', { name: 'Withdraw' })).toBeVisible();

  // The owner keeps the list and turns down the table.
  await card(annPage, 'Bob Helper made a list').getByRole('button', { name: 'Accept' }).click();
  await card(annPage, 'Bob Helper inserted a table').getByRole('button', { name: 'Reject' }).click();
  await saved(annPage);
  await bothSettled([annPage, bobPage], ['ul(Alpha)', 'p:Beta']);
});

async function menu(page: Page, name: string, item: string) {
  await page.getByRole('group', { name: 'Editor menus' }).getByRole('button', { name, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** The table's rows as their cells' texts. */
function rowsOf(page: Page) {
  return body(page).evaluate((part) =>
    [...part.querySelectorAll('table tr')].map((row) =>
      [...row.querySelectorAll('td, th')].map((cell) => cell.textContent).join('|'),
    ),
  );
}

test('a write-tracked co-author adds a row, types in it and removes a column as suggestions; the owner rejects the row and accepts the column’s removal', async ({
  browser,
}) => {
  const { annPage, bobPage } = await annAndBobOpen(browser);
  await firstParagraph(annPage).click();
  await insertTableOfSize(annPage, 3, 3);
  await annPage.keyboard.type('A');
  await annPage.keyboard.press('Tab');
  await annPage.keyboard.type('B');
  await saved(annPage);
  await expect.poll(() => rowsOf(bobPage)).toEqual(['A|B|', '||', '||']);

  // Below the header row: a new row, text in its first cell; then the third column goes.
  await body(bobPage).locator('th', { hasText: 'A' }).click();
  await menu(bobPage, 'Table', 'Insert row below');
  await saved(bobPage);
  await expect.poll(() => rowsOf(bobPage)).toEqual(['A|B|', '||', '||', '||']);
  await body(bobPage).locator('tr').nth(1).locator('td').first().click();
  await bobPage.keyboard.type('new');
  await body(bobPage).locator('th').nth(2).click();
  await menu(bobPage, 'Table', 'Delete column');
  await saved(bobPage);
  for (const page of [bobPage, annPage]) {
    // Nothing is removed while it is a suggestion.
    await expect.poll(() => rowsOf(page)).toEqual(['A|B|', 'new||', '||', '||']);
    await expect(card(page, 'Bob Helper inserted a table row')).toBeVisible();
    await expect(card(page, 'Bob Helper inserted text')).toBeVisible();
    await expect(card(page, 'Bob Helper deleted a table column')).toHaveCount(1);
  }

  // The owner turns down the row (its text goes with it) and accepts the column's removal.
  await card(annPage, 'Bob Helper inserted a table row').getByRole('button', { name: 'Reject' }).click();
  await saved(annPage);
  await expect.poll(() => rowsOf(annPage)).toEqual(['A|B|', '||', '||']);
  await card(annPage, 'Bob Helper deleted a table column').getByRole('button', { name: 'Accept' }).click();
  await saved(annPage);
  for (const page of [annPage, bobPage]) {
    await expect.poll(() => rowsOf(page)).toEqual(['A|B', '|', '|']);
    await expect(page.locator('.review-card-change')).toHaveCount(0);
  }
});

/** Pastes HTML where the caret is, as the browser does on Ctrl+V. */
async function pasteHtml(page: Page, html: string, text: string) {
  await page.evaluate(
    ([html, text]) => {
      const data = new DataTransfer();
      data.setData('text/html', html);
      data.setData('text/plain', text);
      document.activeElement?.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    [html, text],
  );
}

test('a write-tracked co-author pastes paragraphs, a list and a table over a word; the owner rejects all and has the paragraph back', async ({
  browser,
}) => {
  const { annPage, bobPage } = await annAndBobOpen(browser);
  await annWrites(annPage, bobPage, ['Alpha'], ['p:Alpha']);

  // Over “pha”, selected with the keys (waited for: ProseMirror reads it a little after the key).
  await body(bobPage).locator('p', { hasText: 'Alpha' }).click();
  await bobPage.keyboard.press('End');
  await watchSelection(bobPage);
  for (let count = 0; count < 3; count++) await bobPage.keyboard.press('Shift+ArrowLeft');
  await selectionSeen(bobPage, 'pha');
  await pasteHtml(
    bobPage,
    '<p>One</p><ul><li><p>Two</p></li></ul><table><tr><th><p>H</p></th><td><p>D</p></td></tr></table><p>Three</p>',
    'One\nTwo\nH D\nThree',
  );
  await saved(bobPage);
  for (const page of [bobPage, annPage]) {
    await expect.poll(() => blocksOf(page)).toEqual(['p:AlphaOne', 'ul(Two)', 'table:2', 'p:Three']);
    await expect(body(page).locator('.deletion')).toHaveText('pha');
    await expect(card(page, 'Bob Helper inserted a list')).toBeVisible();
    await expect(card(page, 'Bob Helper inserted a table')).toBeVisible();
  }

  await annPage.getByRole('button', { name: 'Reject all changes' }).click();
  await saved(annPage);
  await bothSettled([annPage, bobPage], ['p:Alpha']);
});

test('a write-tracked co-author indents a list item as a suggestion; the owner accepts it (German)', async ({
  browser,
}) => {
  const { annPage, bobPage } = await annAndBobOpen(browser, { ann: 'Autorin', bob: 'Mitautor' }, 'de');
  // The owner writes a list of two items (the input rule makes it).
  await annWrites(annPage, bobPage, ['- Alpha', 'Beta'], ['ul(Alpha|Beta)']);

  // Tab in the second item: indented as Bob's suggestion, for both at once.
  await body(bobPage).locator('li p', { hasText: 'Beta' }).click();
  await bobPage.keyboard.press('Tab');
  await saved(bobPage);
  await expect(bobPage.getByText(/Diese Änderung kann nicht als Vorschlag/)).toHaveCount(0);
  for (const page of [bobPage, annPage]) {
    await expect.poll(() => blocksOf(page)).toEqual(['ul(AlphaBeta)', 'ul(Beta)']);
    await expect(card(page, 'Bob Mitautor hat Listeneinträge eingerückt')).toBeVisible();
    // The new nested list carries the record, in Bob's colour.
    await expect(body(page).locator('.review-block-block-change')).toHaveText('Beta');
  }
  // Only the owner decides; the suggester may withdraw.
  await expect(card(bobPage, 'eingerückt').getByRole('button', { name: 'Annehmen' })).toHaveCount(0);

  await card(annPage, 'Bob Mitautor hat Listeneinträge eingerückt')
    .getByRole('button', { name: 'Annehmen' })
    .click();
  await saved(annPage);
  await bothSettled([annPage, bobPage], ['ul(AlphaBeta)', 'ul(Beta)']);
});
