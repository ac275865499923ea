import type { Page } from '@playwright/test';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { openNewSource } from '../bibliography';
import {
  apiCall,
  chooseOption,
  expect,
  loginAs,
  selectValue,
  sendCall,
  setLanguage,
  test,
} from '../fixtures';

const LIBRARY = String.raw`
@string{pami = {IEEE Transactions on Pattern Analysis and Machine Intelligence}}
@article{lecun1998,
  author = {LeCun, Yann and Bottou, L{\'e}on and Bengio, Yoshua and Haffner, Patrick},
  title = {Gradient-Based Learning Applied to {Document Recognition}},
  journal = pami, year = {1998}, volume = {86}, number = {11}, pages = {2278--2324}
}
@book{knuth1984, author = {Donald E. Knuth}, title = {The {\TeX}book}, publisher = {Addison-Wesley}, year = 1984}
@thesis{broken2019, author = {Broken, Bob}, title = {Never closes {its brace,
@report{who2020, author = {{World Health Organization}}, title = {Situation report 51}, institution = {WHO}, date = {2020-03-11}}
`;

function table(page: Page, name = 'Bibliography') {
  return page.getByRole('grid', { name });
}

async function importText(page: Page, text: string, dialogName = 'Import references') {
  await expect(page.getByRole('button', { name: 'Import' })).toBeEnabled();
  await page.keyboard.press('Alt+u');
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.getByTestId('bib-file-input').setInputFiles({
    name: 'library.bib',
    mimeType: 'application/x-bibtex',
    buffer: Buffer.from(text, 'utf8'),
  });
  return dialog;
}

test.describe('bibliography', () => {
  // Each scenario takes seconds alone; a minute leaves room for a busy, shared machine.
  test.describe.configure({ timeout: 60_000 });

  test('imports with a report, finds, previews, edits, categorises, exports and deletes', async ({
    page,
    user,
  }) => {
    await loginAs(page, user, '/bibliography/');
    await expect(table(page)).toContainText('No sources registered');

    // Import: parsed in a worker, saved with a progress bar, reported per entry.
    const dialog = await importText(page, LIBRARY);
    await expect(dialog.getByText('Imported 3 entries.')).toBeVisible();
    await expect(dialog.locator('.bib-report-error')).toContainText('broken2019');
    await expect(dialog.locator('.bib-report-error')).toContainText('The entry never closes its braces');
    await expect(page.getByText('The bibliography has been updated.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    const rows = table(page).locator('tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(table(page)).toContainText('LeCun, Bottou, Bengio, Haffner');
    await expect(table(page)).toContainText('World Health Organization');
    await expect(table(page)).toContainText('Article');

    // Search as you type.
    await page.keyboard.press('Alt+s');
    await page.keyboard.type('knuth');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('The TeXbook');

    // Preview in APA, then IEEE.
    await table(page).getByRole('checkbox', { name: 'Select The TeXbook' }).check();
    const preview = page.locator('.bib-preview');
    await expect(preview.locator('.bib-preview-entry')).toHaveText(
      'Knuth, D. E. (1984). The TeXbook. Addison-Wesley.',
    );
    await expect(preview.locator('.bib-preview-citation')).toHaveText('(Knuth, 1984)');
    await chooseOption(preview, 'Citation style', 'IEEE');
    await expect(preview.locator('.bib-preview-citation')).toHaveText('[1]');
    await expect(preview.locator('.bib-preview-entry')).toContainText('D. E. Knuth, The TeXbook.');

    // Export the selection as BibTeX.
    const download = page.waitForEvent('download');
    const exported = await (async () => {
      const menu = page.getByRole('button', { name: 'Export' });
      await menu.click();
      await page.getByRole('menuitem', { name: 'Everything as BibTeX (.bib)' }).click();
      const file = await download;
      const stream = await file.createReadStream();
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    })();
    expect(exported).toContain('@book{knuth1984,');
    expect(exported).toContain('@article{lecun1998,');
    // Classic BibTeX for natbib and .bst styles: year and journal, not BibLaTeX's date and journaltitle.
    expect(exported).toContain('year = {1998}');
    // (The exporter braces a title's "and" so that BibTeX cannot read it as a name separator.)
    expect(exported).toContain(
      'journal = {IEEE Transactions on Pattern Analysis {and} Machine Intelligence}',
    );
    expect(exported).not.toContain('journaltitle');
    const biblatexDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'Everything as BibLaTeX (.bib)' }).click();
    const biblatex = await (async () => {
      const stream = await (await biblatexDownload).createReadStream();
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    })();
    expect(biblatex).toContain(
      'journaltitle = {IEEE Transactions on Pattern Analysis {and} Machine Intelligence}',
    );
    expect(biblatex).toContain('date = {1998}');

    // Categories: add one, assign it in the editor, filter by it.
    await page.getByRole('searchbox', { name: 'Search bibliography' }).fill('');
    await expect(rows).toHaveCount(3);
    await page.keyboard.press('Alt+e');
    const categories = page.getByRole('dialog', { name: 'Edit categories' });
    await categories.getByRole('textbox', { name: 'New category' }).first().fill('Classics');
    await categories.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('The categories have been updated')).toBeVisible();

    await table(page).getByRole('button', { name: 'Edit The TeXbook' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit source' });
    await expect(selectValue(editor, 'Source type')).toHaveText('Book');
    // An imported entry without a language keeps none (no guess from the interface language).
    await expect(editor.locator('[data-field="langid"] .select-value')).toHaveText('(none)');
    await editor.getByRole('checkbox', { name: 'Classics' }).check();
    await editor.getByRole('textbox', { name: 'Edition' }).fill('3');
    await editor.getByRole('button', { name: 'Submit' }).click();
    await expect(editor).toBeHidden();
    await expect(rows.filter({ hasText: 'The TeXbook' })).toContainText('Classics');

    // Deleting asks first, then the spec's message.
    await table(page).getByRole('button', { name: 'Delete Situation report 51' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm deletion' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('The bibliography item(s) have been deleted')).toBeVisible();
    await expect(rows).toHaveCount(2);

    // A reload opens from the cache and only asks whether it is current.
    const checks: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(bibliographyApi.list.path)) checks.push(request.postData() ?? '');
    });
    const answers: string[] = [];
    page.on('response', async (response) => {
      if (response.url().endsWith(bibliographyApi.list.path)) answers.push(await response.text());
    });
    await page.reload();
    await expect(rows).toHaveCount(2);
    await expect.poll(() => answers.length).toBe(1);
    expect(checks[0]).toMatch(/last_modified=\d{10,}/);
    expect(JSON.parse(answers[0])).not.toHaveProperty('bib_list');
  });

  test('new-source editor explains required fields and invalid values for several types', async ({
    page,
    user,
  }) => {
    await loginAs(page, user, '/bibliography/');
    const editor = await openNewSource(page, 'Register new source', 'Register new source');
    await chooseOption(editor, 'Source type', 'Article');
    await editor.getByRole('button', { name: 'Submit' }).click();
    await expect(editor.getByRole('alert')).toHaveText('Please complete or correct the marked fields.');
    await expect(editor.locator('[data-field="title"]')).toContainText('This field is required.');
    await expect(editor.locator('[data-field="journaltitle"]')).toContainText('This field is required.');

    await editor.getByLabel('Citation key').fill('doe2021');
    await editor.getByRole('textbox', { name: 'Title' }).fill('A Study of Things');
    await editor.getByRole('textbox', { name: 'Journal' }).fill('Journal of Studies');
    await editor.getByRole('textbox', { name: 'Family name 1' }).fill('Doe');
    await editor.getByRole('textbox', { name: 'Given name 1' }).fill('Jane');
    await editor.getByRole('button', { name: 'Add name' }).click();
    await chooseOption(editor, 'Kind of name 2', 'Organisation');
    await editor.getByRole('textbox', { name: 'Organisation 2' }).fill('CERN');
    await editor.getByRole('textbox', { name: 'Publication date' }).fill('last spring');
    await expect(editor.locator('[data-field="langid"] .select-value')).toHaveText('US English');
    await editor.getByRole('button', { name: 'Submit' }).click();
    await expect(editor.locator('[data-field="date"]')).toContainText('Not a valid date');
    await editor.getByRole('textbox', { name: 'Publication date' }).fill('2021-04/2021-06');
    await editor.getByRole('button', { name: 'Submit' }).click();
    await expect(editor).toBeHidden();
    await expect(table(page)).toContainText('A Study of Things');
    await expect(table(page)).toContainText('Doe, CERN');
    await expect(table(page)).toContainText('2021');

    // A thesis asks for other fields.
    await page.keyboard.press('Alt+n');
    await chooseOption(editor, 'Source type', 'Thesis');
    await editor.getByRole('button', { name: 'Submit' }).click();
    await expect(editor.locator('[data-field="institution"]')).toContainText('This field is required.');
    await expect(editor.locator('[data-field="type"]')).toContainText('This field is required.');
  });

  test('speaks German', async ({ page, user }) => {
    await setLanguage(page, 'de');
    await loginAs(page, user, '/bibliography/');
    await expect(table(page, 'Bibliografie')).toContainText('Keine Quellen erfasst');
    await expect(page.getByRole('button', { name: 'Importieren' })).toBeEnabled();
    const dialog = await importText(page, LIBRARY, 'Literatur importieren');
    await expect(dialog.getByText('3 Einträge importiert.')).toBeVisible();
    await expect(page.getByText('Die Bibliografie wurde aktualisiert.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Schließen' }).first().click();
    await table(page, 'Bibliografie')
      .getByRole('checkbox', { name: /The TeXbook/ })
      .check();
    const preview = page.locator('.bib-preview');
    await chooseOption(preview, 'Zitierstil', 'Chicago (author-date)');
    await expect(preview.locator('.bib-preview-entry')).toHaveText(
      'Knuth, Donald E. 1984. The TeXbook. Addison-Wesley.',
    );
    await expect(table(page, 'Bibliografie')).toContainText('Bericht');
  });

  test('reports another user’s entries as not found', async ({ page, user }) => {
    await loginAs(page, user, '/bibliography/');
    const response = await sendCall(page, bibliographyApi.save, {
      is_new: false,
      bibs: { 999999: { entry_key: 'x', bib_type: 'book', fields: {}, cats: [] } },
    });
    expect(response.status()).toBe(404);
    await apiCall(page, bibliographyApi.list, {});
  });
});
