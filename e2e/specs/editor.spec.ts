import type { Browser, Page } from '@playwright/test';
import type { AccessRight } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { body, firstParagraph, saved, writeSaved } from '../editor';
import {
  apiCall,
  chooseOption,
  createUser,
  expect,
  loginAs,
  selectionSeen,
  setLanguage,
  sharedDocument,
  test,
  watchSelection,
} from '../fixtures';

/** Ann Author's document shared with her contact Bob Coauthor (`right`). */
const annShares = (browser: Browser, right: AccessRight) =>
  sharedDocument(
    browser,
    right,
    { firstName: 'Ann', lastName: 'Author' },
    { firstName: 'Bob', lastName: 'Coauthor' },
  );

/**
 * annShares, and Ann has written `text` into the document (saved) before Bob opens it: each has it
 * open in the editor.
 */
async function annWroteShared(browser: Browser, right: AccessRight, text: string) {
  const shared = await annShares(browser, right);
  await shared.annPage.goto(`/document/${shared.id}`);
  await writeSaved(shared.annPage, text);
  await shared.bobPage.goto(`/document/${shared.id}`);
  return shared;
}

test('two users type into the same paragraph at once and see the same text; carets; reload keeps it', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { annPage, bobPage, id } = await annShares(browser, 'write');
  await annPage.goto(`/document/${id}`);
  await bobPage.goto(`/document/${id}`);
  const annBody = body(annPage).locator('p').first();
  const bobBody = body(bobPage).locator('p').first();
  await expect(annBody).toBeVisible();
  await expect(bobBody).toBeVisible();

  // Ann writes the title; it becomes the document's title for Bob too.
  await annPage.locator('.doc-title').click();
  await annPage.keyboard.type('Ink and paper');
  await expect(bobPage.locator('.doc-title')).toHaveText('Ink and paper');

  await annBody.click();
  await annPage.keyboard.type('Ann starts. ');
  await expect(bobBody).toHaveText('Ann starts. ');
  await bobBody.click();
  await bobPage.keyboard.press('End');

  // Both type at the same time into the same paragraph.
  await Promise.all([
    annPage.keyboard.type('xxxx xxxx xxxx ', { delay: 15 }),
    bobPage.keyboard.type('yyyy yyyy yyyy ', { delay: 15 }),
  ]);
  await saved(annPage);
  await saved(bobPage);
  const annText = await annBody.textContent();
  await expect(bobBody).toHaveText(annText ?? '');
  // Nothing either typed is lost, whatever the interleaving.
  expect(annText?.match(/x/g)?.length).toBe(12);
  expect(annText?.match(/y/g)?.length).toBe(12);
  expect(annText?.startsWith('Ann starts. ')).toBe(true);

  // Each sees the other's caret, named.
  await expect(annPage.locator('.remote-caret')).toHaveAttribute('data-name', 'Bob Coauthor');
  await expect(bobPage.locator('.remote-caret')).toHaveAttribute('data-name', 'Ann Author');
  await expect(
    annPage.getByRole('list', { name: 'People in this document' }).getByRole('listitem'),
  ).toHaveCount(2);

  // Reload keeps everything.
  await bobPage.reload();
  await expect(body(bobPage).locator('p').first()).toHaveText(annText ?? '');
  await expect(bobPage.locator('.doc-title')).toHaveText('Ink and paper');
  await annPage.goto('/documents/');
  await expect(annPage.getByRole('row').filter({ hasText: 'Ink and paper' })).toBeVisible();
});

test('three editors type into one paragraph while a fourth reloads: all converge, nothing lost', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { annPage, bobPage, id } = await annShares(browser, 'write');
  // Ann and Bob in a second tab each: four editors of the document.
  const annTab = await annPage.context().newPage();
  const bobTab = await bobPage.context().newPage();
  const pages = [annPage, bobPage, annTab, bobTab];
  for (const page of pages) await page.goto(`/document/${id}`);
  const paragraph = (page: Page) => body(page).locator('p').first();
  await paragraph(annPage).click();
  await annPage.keyboard.type('Go. ');
  for (const page of pages) await expect(paragraph(page)).toHaveText('Go. ');
  const writers = [annPage, bobPage, annTab];
  for (const page of writers) {
    await paragraph(page).click();
    await page.keyboard.press('End');
  }

  await Promise.all([
    ...writers.map((page, index) =>
      page.keyboard.type(`${'abc'[index].repeat(4)} `.repeat(3), { delay: 15 }),
    ),
    bobTab.reload(),
  ]);
  for (const page of writers) await saved(page);
  const text = (await paragraph(annPage).textContent()) ?? '';
  for (const page of pages) await expect(paragraph(page)).toHaveText(text);
  for (const letter of 'abc') expect(text.match(new RegExp(letter, 'g'))?.length).toBe(12);
  expect(text.startsWith('Go. ')).toBe(true);
});

test("a co-author's new title shows at once on the other's open overview", async ({ browser }) => {
  test.setTimeout(60_000);
  const { annPage, bobPage, id } = await annShares(browser, 'write');
  await bobPage.goto('/');
  const row = bobPage.getByRole('row').filter({ has: bobPage.locator(`a[href="/document/${id}"]`) });
  await expect(row).toContainText('Untitled');
  await annPage.goto(`/document/${id}`);
  await annPage.locator('.doc-title').click();
  await annPage.keyboard.type('Letters from the archive');
  await saved(annPage);
  // Well before the overview's own refresh (20 s): the live connection brought it.
  await expect(row).toContainText('Letters from the archive');
});

test('a reader sees the document without editing tools and cannot change it', async ({ browser }) => {
  const { bobPage } = await annWroteShared(browser, 'read', 'Only Ann writes.');
  await expect(bobPage.getByText('You can read this document but not change it.')).toBeVisible();
  await expect(bobPage.getByRole('toolbar', { name: 'Editing tools' })).toHaveCount(0);
  await expect(body(bobPage)).toHaveText('Only Ann writes.');
  await expect(bobPage.locator('.editor-document')).toHaveAttribute('contenteditable', 'false');
  await expect(bobPage.getByRole('button', { name: 'Insert' })).toHaveCount(0);
});

/**
 * A new document of a user who speaks German, open in the editor, with the document's language
 * set to German in its settings (quotation marks, the spell checker's language), and `paper`.
 */
async function germanDocument(browser: Browser, paper?: string): Promise<Page> {
  const user = await createUser();
  const page = await (await browser.newContext()).newPage();
  await loginAs(page, user, '/');
  await setLanguage(page, 'de');
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/document/${id}`);
  await page.getByRole('button', { name: 'Datei' }).click();
  await page.getByRole('menuitem', { name: 'Dokumenteinstellungen' }).click();
  const settings = page.getByRole('dialog', { name: 'Dokumenteinstellungen' });
  await chooseOption(settings, 'Sprache des Dokuments', 'Deutsch (Deutschland)');
  if (paper) await chooseOption(settings, 'Papierformat', paper);
  await settings.getByRole('button', { name: 'Fertig' }).click();
  await expect(page.locator('.editor-document')).toHaveAttribute('lang', 'de-DE');
  return page;
}

test('in German: document settings, menus, formatting from the keyboard, heading and outline', async ({
  browser,
}) => {
  const page = await germanDocument(browser, 'US Letter');
  await expect(page.locator('.editor-document')).toHaveAttribute('data-paper', 'US Letter');
  const paragraph = body(page).locator('p').first();
  await paragraph.click();
  await page.keyboard.type('Ein "kurzer" Text -- mit ');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type('fett');
  await page.keyboard.press('ControlOrMeta+b');
  await expect(paragraph).toHaveText('Ein \u201ekurzer\u201c Text \u2014 mit fett');
  await expect(paragraph.locator('strong')).toHaveText('fett');
  await expect(page.getByRole('button', { name: 'Fett' })).toHaveAttribute('title', 'Fett (Ctrl+B)');

  // A heading from the input rule, then the outline lists it.
  await page.keyboard.press('Enter');
  await page.keyboard.type('## Methoden');
  await expect(body(page).locator('h2')).toHaveText('Methoden');
  await page.getByRole('button', { name: 'Extras' }).click();
  await page.getByRole('menuitem', { name: 'Gliederung' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Gliederung' }).getByRole('button', { name: 'Methoden' }),
  ).toBeVisible();
  await saved(page);
});

test('in German: footnote, word count, find and replace', async ({ browser }) => {
  const page = await germanDocument(browser);
  const paragraph = body(page).locator('p').first();
  await paragraph.click();
  await page.keyboard.type('Ein kurzer Text');
  await expect(paragraph).toHaveText('Ein kurzer Text');

  // A footnote, edited in its nested editor.
  await page.getByRole('button', { name: 'Einfügen' }).click();
  await page.getByRole('menuitem', { name: 'Fußnote' }).click();
  const note = page.getByRole('textbox', { name: 'Text der Fußnote 1' });
  await expect(note).toBeFocused();
  await page.keyboard.type('Eine "Anmerkung"');
  // The footnote's quotation marks follow the document's language too.
  await expect(note).toHaveText('Eine \u201eAnmerkung\u201c');

  // Word count counts the footnote too: the status line (once typing pauses) and the dialog.
  await expect(page.locator('.editor-footer')).toContainText('5 Wörter');
  await page.getByRole('button', { name: 'Extras' }).click();
  await page.getByRole('menuitem', { name: 'Wörter zählen' }).click();
  const count = page.getByRole('dialog', { name: 'Wörter zählen' });
  await expect(count.locator('[data-count="words"]')).toHaveText('5');
  await count.getByRole('button', { name: 'Schließen' }).click();

  // Find and replace all, undone in one step.
  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  await page.getByRole('menuitem', { name: 'Suchen und ersetzen' }).click();
  await page.getByRole('searchbox', { name: 'Suchen' }).fill('t');
  await page.getByRole('checkbox', { name: 'Groß-/Kleinschreibung beachten' }).check();
  await page.getByRole('textbox', { name: 'Ersetzen durch' }).fill('T');
  await page.getByRole('button', { name: 'Alle ersetzen' }).click();
  await expect(paragraph).toContainText('kurzer TexT');
  await paragraph.click();
  await page.keyboard.press('ControlOrMeta+z');
  await expect(paragraph).toContainText('kurzer Text');
  await saved(page);
});

test('keyboard: headings, lists with Tab, links with Mod+K; offline edits are kept and sent after reconnecting', async ({
  browser,
}) => {
  const user = await createUser();
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, user, '/');
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/document/${id}`);
  const paper = body(page);
  await paper.locator('p').first().click();
  await page.keyboard.type('Results');
  await page.keyboard.press('ControlOrMeta+Alt+2');
  await expect(paper.locator('h2')).toHaveText('Results');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- first');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.type('nested');
  await expect(paper.locator('ul > li > ul > li')).toHaveText('nested');
  await page.keyboard.press('Shift+Tab');
  await expect(paper.locator('ul > li > ul')).toHaveCount(0);
  await expect(paper.locator('ul > li')).toHaveText(['first', 'nested']);

  // A link on the selected word.
  await watchSelection(page);
  await paper
    .locator('li p')
    .first()
    .click({ position: { x: 1, y: 4 } });
  await page.keyboard.press('Shift+End');
  await selectionSeen(page, 'first');
  await page.keyboard.press('ControlOrMeta+k');
  const dialog = page.getByRole('dialog', { name: 'Link' });
  await dialog.getByLabel('Web address').fill('javascript:alert(1)');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Enter an address that starts with https://, http:// or mailto:.',
  );
  await dialog.getByLabel('Web address').fill('https://example.org/ink');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(paper.locator('a[href="https://example.org/ink"]')).toHaveText('first');
  await saved(page);

  // Help: the shortcuts (also from the keyboard) and the FAQ.
  await page.keyboard.press('ControlOrMeta+/');
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(shortcuts.getByRole('row', { name: 'Bold Ctrl+B' })).toBeVisible();
  await expect(shortcuts.getByRole('row', { name: 'Heading 2 Ctrl+Alt+2' })).toBeVisible();
  await shortcuts.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Help' }).click();
  await page.getByRole('menuitem', { name: 'Frequently asked questions' }).click();
  const faq = page.getByRole('dialog', { name: 'Frequently asked questions' });
  await expect(faq.getByText('How do I add footnotes?')).toBeVisible();
  await faq.getByRole('button', { name: 'Close' }).click();
  await paper.locator('li p').first().click();

  // Offline: the text stays, the page says it is unsaved, and everything arrives once back online.
  await context.setOffline(true);
  await expect(
    page
      .getByRole('status', { name: 'Connection to the server' })
      .getByText('Disconnected. Attempting to reconnect...'),
  ).toBeVisible();
  await page.keyboard.press('End');
  await page.keyboard.type(' written offline');
  await expect(page.getByText('Warning! Some data is unsaved')).toBeVisible();
  await context.setOffline(false);
  await saved(page);
  await page.reload();
  await expect(body(page).locator('li').first()).toHaveText('first written offline');
});

test('Select all, then typing, cutting and pasting keep the parts and move the text (German)', async ({
  browser,
}) => {
  const page = await germanDocument(browser);
  const title = page.locator('.editor-document .doc-title');
  const paragraph = body(page).locator('p').first();
  await title.click();
  await page.keyboard.type('Titel');
  await paragraph.click();
  await page.keyboard.type('Erster Satz.');
  await saved(page);
  const parts = await page.locator('.editor-document > *').count();

  // Cut everything: the text goes to the clipboard, every part stays, and the save goes through.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('ControlOrMeta+x');
  await expect(paragraph).toHaveText('');
  await expect(title).toHaveText('');
  await expect(page.locator('.editor-document > *')).toHaveCount(parts);
  await saved(page);
  await paragraph.click();
  await page.keyboard.press('ControlOrMeta+v');
  await expect(body(page)).toContainText('Erster Satz.');

  // Typing over everything puts the letters where the selection began: the title.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Neu');
  await expect(title).toHaveText('Neu');
  await expect(body(page)).toHaveText('');
  await expect(page.locator('.editor-document > *')).toHaveCount(parts);
  await saved(page);
  await page.reload();
  await expect(page.locator('.editor-document .doc-title')).toHaveText('Neu');
});

test('a document that cannot be loaded says so and offers the way back', async ({ page, user }) => {
  await loginAs(page, user, '/document/999999');
  await expect(page.getByText('This document does not exist or has not been shared with you.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to All documents' }).click();
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
});

test('write-tracked writes suggestions the owner sees; a removed right closes the document at once', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { annPage, bobPage, id } = await annWroteShared(browser, 'write-tracked', 'Ann only.');
  await expect(body(bobPage)).toHaveText('Ann only.');
  await expect(bobPage.getByText('Your changes are recorded as suggestions.')).toBeVisible();
  await firstParagraph(bobPage).click();
  await bobPage.keyboard.press('End');
  await bobPage.keyboard.type(' Bob adds.');
  await saved(bobPage);
  // Bob's text reaches Ann as a suggestion (an insertion mark), not as plain text.
  await expect(body(annPage).locator('span.insertion')).toHaveText(' Bob adds.');

  await apiCall(annPage, documentsApi.accessSave, { id, access: [] });
  await expect(bobPage.getByText('You no longer have access to this document.')).toBeVisible();
  await expect(bobPage.getByRole('link', { name: 'Back to the documents' })).toBeVisible();
});
