import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { violations } from '../axe';
import { expect, loginAs, setLanguage, test } from '../fixtures';

/**
 * Linked libraries (bibliography sources, issue 57): a BibTeX file served by the spec's own
 * server is linked, synced into its category, changed and synced again; the report says what
 * came, changed and went, and the entries are in the table. Keyboard only, in two languages.
 */

const FIRST = `@article{knuth1984, author = {Knuth, Donald E.}, title = {Literate Programming}, journal = {The Computer Journal}, year = {1984}}
@book{lamport1994, author = {Lamport, Leslie}, title = {LaTeX: A Document Preparation System}, publisher = {Addison-Wesley}, year = {1994}}
`;
const SECOND = `@article{knuth1984, author = {Knuth, Donald E.}, title = {Literate Programming Revisited}, journal = {The Computer Journal}, year = {1984}}
@article{dijkstra1968, author = {Dijkstra, Edsger W.}, title = {Go To Statement Considered Harmful}, journal = {Communications of the ACM}, year = {1968}}
`;

const files = new Map<string, string>();
let remote: http.Server;
let port = 0;

test.beforeAll(async () => {
  remote = http.createServer((request, response) => {
    const body = files.get(request.url ?? '');
    if (body === undefined) {
      response.writeHead(404);
      return response.end();
    }
    response.writeHead(200, { 'content-type': 'application/x-bibtex' });
    response.end(body);
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  port = (remote.address() as AddressInfo).port;
});
test.afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));

interface Texts {
  menu: string;
  name: string;
  url: string;
  add: string;
  first: string;
  second: string;
  syncOf: (title: string) => string;
  gone: string;
  private: string;
}

const TEXTS: Record<'en' | 'de', Texts> = {
  en: {
    menu: 'Linked libraries',
    name: 'Name (also the name of its category)',
    url: 'Web address',
    add: 'Link and sync',
    first: '2 added, 0 updated, 0 gone.',
    second: '1 added, 1 updated, 1 gone.',
    syncOf: (title) => `Sync ${title}`,
    gone: 'Gone (kept)',
    private: 'The address leads into a private or local network, which the server may not reach.',
  },
  de: {
    menu: 'Verknüpfte Bibliotheken',
    name: 'Name (zugleich Name ihrer Kategorie)',
    url: 'Webadresse',
    add: 'Verknüpfen und abgleichen',
    first: '2 hinzugefügt, 0 aktualisiert, 0 entfallen.',
    second: '1 hinzugefügt, 1 aktualisiert, 1 entfallen.',
    syncOf: (title) => `${title} abgleichen`,
    gone: 'Entfallen (behalten)',
    private: 'Die Adresse führt in ein privates oder lokales Netz, das der Server nicht erreichen darf.',
  },
};

async function linkSyncAndSee(page: Page, texts: Texts, language: 'en' | 'de') {
  const path = `/${language}-${Date.now()}.bib`;
  files.set(path, FIRST);
  const title = language === 'en' ? 'Group references' : 'Gruppenliteratur';
  // The menu's shortcut opens the dialog: the whole flow runs from the keyboard.
  await expect(page.getByRole('button', { name: texts.menu })).toBeVisible();
  await page.keyboard.press('Alt+L');
  const dialog = page.getByRole('dialog', { name: texts.menu });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: texts.name }).fill(title);
  await dialog.getByRole('textbox', { name: texts.url }).fill(`http://127.0.0.1:${port}${path}`);
  await dialog.getByRole('textbox', { name: texts.url }).press('Enter');
  const item = dialog.getByRole('listitem', { name: title });
  await expect(item.getByText(texts.first)).toBeVisible();
  await expect(page.locator('.bib-table').getByText('Literate Programming', { exact: true })).toBeVisible();

  files.set(path, SECOND);
  await item.getByRole('button', { name: texts.syncOf(title) }).press('Enter');
  await expect(item.getByText(texts.second)).toBeVisible();
  await expect(item.getByText(texts.gone)).toBeVisible();
  await expect(item.getByText('lamport1994')).toBeVisible();
  await expect(page.locator('.bib-table').getByText('Literate Programming Revisited')).toBeVisible();
  await expect(page.locator('.bib-table').getByText('Go To Statement Considered Harmful')).toBeVisible();
  return { dialog, title };
}

test.describe('linked libraries on the bibliography page', () => {
  test('links a BibTeX file, syncs it and shows the report (English, desktop and phone)', async ({
    page,
    user,
  }) => {
    await loginAs(page, user, '/bibliography/');
    const { dialog } = await linkSyncAndSee(page, TEXTS.en, 'en');
    // An address the server may not reach: a clear error in the report, no entries.
    await dialog.getByRole('textbox', { name: TEXTS.en.name }).fill('Intranet');
    await dialog.getByRole('textbox', { name: TEXTS.en.url }).fill('http://10.1.2.3/refs.bib');
    await dialog.getByRole('button', { name: TEXTS.en.add }).click();
    await expect(
      dialog.getByRole('listitem', { name: 'Intranet' }).getByText(TEXTS.en.private),
    ).toBeVisible();
    // A Zotero library: its fields, and clear errors before anything is sent.
    await dialog.getByRole('radio', { name: /File at a web address/ }).press('ArrowDown');
    await expect(dialog.getByRole('radio', { name: 'Zotero library' })).toBeChecked();
    await dialog.getByRole('textbox', { name: /Library ID/ }).fill('my group');
    await dialog.getByRole('button', { name: TEXTS.en.add }).click();
    await expect(dialog.getByText('Enter a name.')).toBeVisible();
    await expect(dialog.getByText("Enter the library's ID: digits only.")).toBeVisible();
    // The dialog with its reports and errors passes axe, in light and in dark.
    expect(await violations(page), 'light').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(page), 'dark').toEqual([]);
    if (process.env.SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sources-zotero.png` });
      await dialog.getByRole('radio', { name: 'Zotero library' }).press('ArrowUp');
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sources-desktop.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sources-phone.png` });
    }
  });

  test('links and syncs in German', async ({ page, user }) => {
    await loginAs(page, user, '/');
    await setLanguage(page, 'de');
    await page.goto('/bibliography/');
    await linkSyncAndSee(page, TEXTS.de, 'de');
  });
});
