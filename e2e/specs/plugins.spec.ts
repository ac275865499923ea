import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { booksApi, templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import { epubcheckReport } from '@scriptorium/common/testing/office-tools';
import { strFromU8, unzipSync } from 'fflate';
import { openSettled, violations } from '../axe';
import {
  apiCall,
  attributesOf,
  becomeContacts,
  chooseOption,
  expect,
  loginAs,
  sendCall,
  test,
} from '../fixtures';
import { useOwnServer } from '../own-server';

// Issue 21: the Templates and Books plugins in a real browser. They are on only on a server of
// their own (PLUGINS=templates,books); the shared e2e server runs with them off.

test('with the plugins off there is no Templates or Books header item and their addresses are 404', async ({
  page,
  user,
}) => {
  await loginAs(page, user, '/documents/');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Documents' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Templates' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Books' })).toHaveCount(0);
  await page.goto('/templates/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Error 404');
  await page.goto('/books/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Error 404');
  expect((await sendCall(page, templatesApi.list)).status()).toBe(404);
  expect((await sendCall(page, booksApi.list)).status()).toBe(404);
});

test.describe('with PLUGINS=templates,books', () => {
  test.describe.configure({ mode: 'serial' });
  const own = useOwnServer(43, { PLUGINS: 'templates,books' });
  const { userPage } = own;

  test('a template with a custom part, reordered by keyboard, becomes a document that follows it', async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    const { page } = await userPage(browser, {}, '/documents/');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Templates' })).toBeVisible();
    await page.keyboard.press('Alt+t');
    await expect(page).toHaveURL(/\/templates\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Document templates');
    await expect(page.getByText('No templates yet')).toBeVisible();

    await page.getByRole('button', { name: 'New template' }).click();
    await expect(page).toHaveURL(/\/templates\/\d+\/$/);
    await page.getByLabel('Name of the template').fill('Volume chapter');

    // A custom rich-text part "Summary" that allows paragraphs and italics only.
    await chooseOption(page, 'Kind of the new part', 'Rich text');
    await page.getByRole('button', { name: 'Add part' }).click();
    const parts = page.getByRole('list', { name: 'Parts' }).getByTestId('reorder-item');
    await expect(parts).toHaveCount(6);
    const custom = parts.nth(5);
    await custom.locator('summary').click();
    await custom.getByLabel('Title of the part').fill('Summary');
    await custom.getByLabel('Initial content').fill('This chapter argues');
    await custom.getByLabel('Help text for authors').fill('Two sentences at most.');
    for (const element of ['Bulleted list', 'Numbered list', 'Footnote', 'Line break', 'Citation']) {
      await custom.getByRole('checkbox', { name: element, exact: true }).uncheck();
    }
    for (const mark of ['Bold', 'Underline', 'Superscript', 'Subscript', 'Code', 'Small capitals', 'Link']) {
      await custom.getByRole('checkbox', { name: mark, exact: true }).uncheck();
    }
    // Keyboard reordering: Alt+ArrowUp on the part's own controls, twice, puts it before Keywords.
    await custom.getByRole('button', { name: 'Move Summary up' }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(parts.nth(4)).toContainText('Summary');
    await parts.nth(4).getByRole('button', { name: 'Move Summary up' }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(parts.nth(3)).toContainText('Summary');
    await expect(parts.nth(4)).toContainText('Keywords');
    // A table of contents and a separator after the body.
    await chooseOption(page, 'Kind of the new part', 'Table of contents');
    await page.getByRole('button', { name: 'Add part' }).click();
    await chooseOption(page, 'Kind of the new part', 'Separator');
    await page.getByRole('button', { name: 'Add part' }).click();
    await expect(parts).toHaveCount(8);

    // The live preview follows: the empty document with Summary before Keywords and its initial text.
    const preview = page.getByTestId('template-preview');
    await expect(preview.locator('[data-part-id="part-6"]')).toHaveText('This chapter argues');
    expect(await attributesOf(preview.locator('.doc-part'), 'data-title')).toEqual([
      'Subtitle',
      'Authors',
      'Abstract',
      'Summary',
      'Keywords',
      'Body',
      'Table of contents',
      'Separator',
    ]);
    await expect(preview.locator('nav.doc-toc_part .doc-toc-title')).toHaveText('Table of contents');
    await expect(preview.locator('.doc-separator_part hr')).toHaveCount(1);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('The template has been saved.')).toBeVisible();

    // The overview lists it; New document offers it.
    await page.goto('/templates/');
    await expect(page.getByRole('link', { name: 'Volume chapter' })).toBeVisible();
    await page.goto('/documents/');
    await page.getByRole('button', { name: 'New document' }).click();
    await expect(page.getByRole('menuitem', { name: 'Standard article' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Volume chapter' }).click();
    await expect(page).toHaveURL(/\/document\/\d+/);

    const summary = page.locator('.doc-richtext_part[data-part-id="part-6"]');
    await expect(summary).toHaveText('This chapter argues');
    await summary.locator('p').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' that ink matters.');
    // Bold is not allowed in this part: the shortcut does nothing, italics work.
    await page.keyboard.press('ControlOrMeta+b');
    await page.keyboard.type(' Plain');
    await page.keyboard.press('ControlOrMeta+i');
    await page.keyboard.type(' slanted');
    await expect(summary.locator('strong')).toHaveCount(0);
    await expect(summary.locator('em')).toHaveText(' slanted');
    // The part's help text is shown above it and describes it.
    const help = page.locator('.doc-part-help');
    await expect(help).toHaveText('Two sentences at most.');
    await expect(summary).toHaveAttribute('aria-describedby', (await help.getAttribute('id')) ?? '');
    // The table of contents follows the body's headings as they are written.
    const toc = page.getByRole('navigation', { name: 'Table of contents' });
    await expect(toc.locator('li')).toHaveCount(0);
    await page.locator('.doc-richtext_part[data-part-id="body"] p').first().click();
    await page.keyboard.type('# Method');
    await expect(toc.locator('li')).toHaveText(['Method']);
    await page.keyboard.type('s');
    await expect(toc.locator('li')).toHaveText(['Methods']);
    await expect(page.locator('.doc-separator_part hr')).toHaveCount(1);
    await expect(page.locator('.editor-save-state')).toHaveAttribute('data-saved', 'true');

    // The template is deleted; the document keeps its parts.
    const templates = (await (await apiCall(page, templatesApi.list)).json()) as {
      templates: { id: number }[];
    };
    await apiCall(page, templatesApi.delete, { ids: templates.templates.map((t) => t.id) });
    await page.reload();
    await expect(page.locator('.doc-richtext_part[data-part-id="part-6"]')).toHaveText(
      'This chapter argues that ink matters. Plain slanted',
    );
    await expect(page.locator('.doc-part-help')).toHaveText('Two sentences at most.');
    await expect(page.getByRole('navigation', { name: 'Table of contents' }).locator('li')).toHaveText([
      'Methods',
    ]);
  });

  test('a book of three documents, reordered by drag and drop, shared read-only with a contact who sees it', async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    const { page: annPage } = await userPage(
      browser,
      { firstName: 'Ann', lastName: 'Editor' },
      '/documents/',
    );
    const { page: bobPage, user: bob } = await userPage(browser, { firstName: 'Bob', lastName: 'Reader' });
    await becomeContacts(annPage, bobPage, bob);
    const ids: number[] = [];
    for (const title of ['Introduction', 'Methods', 'Results']) {
      const created = (await (await apiCall(annPage, documentsApi.create, { title })).json()) as {
        id: number;
      };
      ids.push(created.id);
    }
    // Bob may read the chapters too.
    const bobId = await contactId(annPage, 'Bob Reader');
    for (const id of ids) {
      await apiCall(annPage, documentsApi.accessSave, {
        id,
        access: [{ holder_type: 'user', holder_id: bobId, rights: 'read' }],
      });
    }

    await annPage.goto('/documents/');
    // The shortcut is bound once the header, with the plugin's item, is drawn.
    await expect(
      annPage.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Books' }),
    ).toBeVisible();
    await annPage.keyboard.press('Alt+o');
    await expect(annPage).toHaveURL(/\/books\/$/);
    await annPage.getByRole('button', { name: 'New book' }).click();
    await expect(annPage).toHaveURL(/\/books\/\d+\/$/);
    await annPage.getByLabel('Title', { exact: true }).fill('Ink and paper');
    await annPage.getByLabel('Publisher').fill('Quill Press');
    await annPage.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(annPage.getByText('The book has been saved.')).toBeVisible();

    const chapters = annPage.getByRole('list', { name: 'Chapters' }).getByTestId('reorder-item');
    for (const title of ['Introduction', 'Methods', 'Results']) {
      await chooseOption(annPage, 'Document', title);
      await annPage.getByRole('button', { name: 'Add chapter' }).click();
      await expect(chapters.last()).toContainText(title);
    }
    // Drag Results onto the first place.
    await chapters.nth(2).locator('.reorder-handle').dragTo(chapters.nth(0));
    await expect(chapters.nth(0)).toContainText('Results');
    await expect(chapters.nth(1)).toContainText('Introduction');
    await expect(chapters.nth(2)).toContainText('Methods');

    // The order is the server's: a reload shows it.
    await annPage.reload();
    await expect(chapters.nth(0)).toContainText('Chapter 1');
    await expect(chapters.nth(0)).toContainText('Results');
    await expect(chapters.nth(2)).toContainText('Methods');

    // Share read-only with Bob from the overview.
    await annPage.goto('/books/');
    await annPage.getByRole('button', { name: 'Share Ink and paper' }).click();
    const dialog = annPage.getByRole('dialog', { name: 'Share “Ink and paper”' });
    await chooseOption(dialog, 'Right of Bob Reader', 'Read');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(annPage.getByText('The rights have been saved.')).toBeVisible();

    await bobPage.goto('/books/');
    await expect(bobPage.getByRole('link', { name: 'Ink and paper' })).toBeVisible();
    await expect(bobPage.getByRole('row', { name: /Ink and paper/ })).toContainText('Ann Editor');
    await bobPage.getByRole('link', { name: 'Ink and paper' }).click();
    await expect(bobPage.getByText('Shared by Ann Editor (Read)')).toBeVisible();
    const bobChapters = bobPage.getByRole('list', { name: 'Chapters' }).getByTestId('reorder-item');
    await expect(bobChapters).toHaveCount(3);
    await expect(bobChapters.nth(0)).toContainText('Results');
    // A reader gets no controls: no moving, no adding, no saving.
    await expect(bobPage.getByRole('button', { name: 'Move Results down' })).toHaveCount(0);
    await expect(bobPage.getByRole('button', { name: 'Add chapter' })).toHaveCount(0);
    await expect(bobPage.getByLabel('Publisher')).toHaveValue('Quill Press');
    await expect(bobPage.getByLabel('Publisher')).toBeDisabled();
    // Each chapter opens the document.
    await bobChapters.nth(0).getByRole('link', { name: 'Results' }).click();
    await expect(bobPage).toHaveURL(new RegExp(`/document/${ids[2]}`));
  });

  test('a book of three documents exported as EPUB from the book editor passes epubcheck', async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    const { page } = await userPage(browser, { firstName: 'Eve', lastName: 'Editor' }, '/documents/');
    const titles = ['Letters', 'Diaries', 'Ledgers'];
    for (const title of titles) await apiCall(page, documentsApi.create, { title });
    const { id } = (await (await apiCall(page, booksApi.create, { title: 'Private papers' })).json()) as {
      id: number;
    };
    await page.goto(`/books/${id}/`);
    const chapters = page.getByRole('list', { name: 'Chapters' }).getByTestId('reorder-item');
    for (const title of titles) {
      await chooseOption(page, 'Document', title);
      await page.getByRole('button', { name: 'Add chapter' }).click();
      await expect(chapters.last()).toContainText(title);
    }
    // By keyboard: the format buttons are in the tab order and answer Enter.
    const formats = page.getByRole('group', { name: 'Export formats' });
    await formats.getByRole('button', { name: 'E-book (.epub)' }).focus();
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Private papers.epub');
    await expect(page.getByRole('status').filter({ hasText: 'exported' })).toHaveText(
      'The book has been exported as E-book (.epub).',
    );
    // epubcheck goes by the file's extension.
    const file = test.info().outputPath('book.epub');
    await download.saveAs(file);
    expect(await epubcheckReport(file)).toContain('0 fatals / 0 errors / 0 warnings');
    const nav = strFromU8(unzipSync(new Uint8Array(await readFile(file)))['EPUB/nav.xhtml']);
    expect([...nav.matchAll(/<a href="[^"]+">([^<]+)<\/a>/g)].map((match) => match[1])).toEqual(
      titles.map((title, index) => `Chapter ${index + 1}: ${title}`),
    );
  });

  test('the plugin screens have no axe violations', async ({ browser }) => {
    test.setTimeout(60_000);
    const { page } = await userPage(browser);
    const template = (await (await apiCall(page, templatesApi.create, { title: 'Thesis' })).json()) as {
      id: number;
    };
    const book = (await (await apiCall(page, booksApi.create, { title: 'Collected' })).json()) as {
      id: number;
    };
    for (const path of ['/templates/', `/templates/${template.id}/`, '/books/', `/books/${book.id}/`]) {
      await openSettled(page, path);
      expect(await violations(page), path).toEqual([]);
    }
  });
});

/** The user id of a connected contact, found by display name. */
async function contactId(page: Page, name: string): Promise<number> {
  const list = (await (await apiCall(page, contactsApi.list)).json()) as {
    contacts: { id: number; type: string; name: string }[];
  };
  const found = list.contacts.find((c) => c.type === 'user' && c.name === name);
  if (!found) throw new Error(`${name} is not a contact`);
  return found.id;
}
