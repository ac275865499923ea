import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { chooseOption, expect, loginAs, selectValue, setLanguage, test } from '../fixtures';

const fixture = (name: string) =>
  readFileSync(new URL(`../../common/src/bibliography/fixtures/${name}`, import.meta.url));

function table(page: Page, name = 'Bibliography') {
  return page.getByRole('grid', { name });
}

async function openImport(page: Page, dialogName = 'Import references') {
  await expect(page.getByRole('button', { name: /^Import/ })).toBeEnabled();
  await page.keyboard.press('Alt+u');
  return page.getByRole('dialog', { name: dialogName });
}

/** A library big enough to be read in several parts, with @string macros that every part needs. */
function generatedLibrary(count: number): string {
  let bib = '@string{jcs = {Journal of Computational Science}}\n';
  for (let i = 0; i < count; i++) {
    bib += `@article{gen${i},
  author = {Müller, Anna and van der Berg, Jan and {Research Group ${i % 50}}},
  title = {On the {Structure} of Problem ${i}: a study of $O(n^2)$ methods},
  journal = jcs, year = {${1990 + (i % 35)}}, volume = {${i % 40}}, pages = {${i}--${i + 12}},
  abstract = {${'An abstract that makes the file realistically long. '.repeat(3)}}
}\n`;
  }
  return bib;
}

test.describe('bibliography import', () => {
  // Each scenario takes seconds alone; a minute leaves room for a busy, shared machine.
  test.describe.configure({ timeout: 60_000 });

  test('reads a RIS file with its report, and names a format it cannot read', async ({ page, user }) => {
    await loginAs(page, user, '/bibliography/');
    let dialog = await openImport(page);
    await expect(dialog).toContainText('RIS (.ris), EndNote (.enw), PubMed (.nbib)');
    await dialog.getByTestId('bib-file-input').setInputFiles({
      name: 'export.ris',
      mimeType: 'application/x-research-info-systems',
      buffer: fixture('real-world.ris'),
    });
    await expect(dialog.locator('.bib-report-summary')).toHaveText('Imported 5 entries. (read as RIS)');
    await expect(dialog.locator('.bib-report-warning').filter({ hasText: 'Lovelace1843' })).toContainText(
      'Tag not imported. (ED)',
    );
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(table(page).locator('tbody tr')).toHaveCount(5);
    await expect(table(page)).toContainText('World Health Organization');
    await expect(table(page)).toContainText('Hochreiter, Schmidhuber');
    await expect(table(page)).toContainText('Journal article');

    // An imported entry without a language keeps none when edited: no guess from the interface.
    await page.locator('.bib-title').filter({ hasText: 'Long Short-Term Memory' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit source' });
    await expect(editor.locator('[data-field="langid"] .select-value')).toHaveText('(none)');
    await editor.getByRole('button', { name: 'Submit' }).click();
    await expect(editor).toBeHidden();
    await expect(page.getByText('The bibliography has been updated.').first()).toBeVisible();

    // EndNote XML is recognised, not misread as BibTeX.
    dialog = await openImport(page);
    await dialog
      .getByLabel(/paste references here/)
      .fill(
        '<?xml version="1.0"?><xml><records><record><ref-type name="Book">6</ref-type></record></records></xml>',
      );
    await dialog.getByRole('button', { name: 'Import pasted text' }).click();
    await expect(dialog.locator('.bib-report-summary')).toHaveText('Nothing was imported.');
    await expect(dialog.locator('.bib-report-error')).toContainText(
      'This file is EndNote XML, which cannot be imported. Export it from your reference manager as BibTeX, RIS or CSL-JSON.',
    );
  });

  test('reads BibTeX as biber does, and says why a text gives nothing', async ({ page, user }) => {
    await loginAs(page, user, '/bibliography/');
    let dialog = await openImport(page);
    await dialog.getByLabel(/paste references here/).fill('Just some notes, no references.');
    await dialog.getByRole('button', { name: 'Import pasted text' }).click();
    await expect(dialog.locator('.bib-report-summary')).toHaveText(
      'Nothing was imported. (read as BibTeX/BibLaTeX)',
    );
    await expect(dialog.locator('.bib-report-error')).toHaveText(
      'Error: No references were found in this file. A BibTeX entry starts with @ and its type, such as @article{key, …}; RIS, EndNote, PubMed and CSL-JSON files are recognised by their content.',
    );
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    dialog = await openImport(page);
    await dialog
      .getByLabel(/paste references here/)
      .fill(
        '@COMMENT(BibTeX writes (nested) comments so)\n@book{, author = {Knuth, Donald E.}, title = {The {\\TeX book}, pages 1--2},\n  journal = {\\jphysA}, year = 1984}',
      );
    await dialog.getByRole('button', { name: 'Import pasted text' }).click();
    await expect(dialog.locator('.bib-report-summary')).toHaveText(
      'Imported 1 entry. (read as BibTeX/BibLaTeX)',
    );
    await expect(dialog.locator('.bib-report-warning')).toHaveText([
      'Warning: knuth1984texbook Unknown TeX command \\jphysA: its text was kept. (Journal)',
      'Warning: knuth1984texbook The entry had no key and was given this one.',
    ]);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(table(page)).toContainText('The TeXbook, pages 1–2');
  });

  test('says why a text gives nothing, in German', async ({ page, user }) => {
    await setLanguage(page, 'de');
    await loginAs(page, user, '/bibliography/');
    const dialog = await openImport(page, 'Literatur importieren');
    await dialog.getByLabel(/Literaturangaben hier einfügen/).fill('Nur Notizen, keine Literatur.');
    await dialog.getByRole('button', { name: 'Eingefügten Text importieren' }).click();
    await expect(dialog.locator('.bib-report-error')).toContainText(
      'In dieser Datei wurden keine Literaturangaben gefunden.',
    );
  });

  test('shows how far a large file has been read and saved', async ({ page, user }) => {
    await loginAs(page, user, '/bibliography/');
    const dialog = await openImport(page);
    // Record every progress text: the steps pass too quickly to be caught one by one.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressTexts: string[] }).progressTexts = seen;
      new MutationObserver(() => {
        for (const status of document.querySelectorAll('[role="dialog"] [role="status"] p')) {
          const text = status.textContent ?? '';
          if (seen[seen.length - 1] !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await dialog.getByTestId('bib-file-input').setInputFiles({
      name: 'large.bib',
      mimeType: 'application/x-bibtex',
      buffer: Buffer.from(generatedLibrary(2500), 'utf8'),
    });
    await expect(dialog.locator('.bib-report-summary')).toHaveText(
      'Imported 2500 entries. (read as BibTeX/BibLaTeX)',
      { timeout: 50_000 },
    );
    const texts = await page.evaluate(() => (window as unknown as { progressTexts: string[] }).progressTexts);
    const percents = texts.flatMap((text) => /Reading the file… (\d+) %/.exec(text)?.[1] ?? []).map(Number);
    expect(percents.length).toBeGreaterThan(1);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    // The last step (100 %) may give way to the saving text before it is drawn.
    expect(percents.at(-1)).toBeGreaterThanOrEqual(50);
    expect(texts.some((text) => /^Saving \d+ of 2500 entries…$/.test(text))).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(table(page)).toContainText('On the Structure of Problem');
  });

  test('offers languages and thesis kinds by name, in German', async ({ page, user }) => {
    await setLanguage(page, 'de');
    await loginAs(page, user, '/bibliography/');
    await page.getByRole('button', { name: 'Neue Quelle erfassen' }).click();
    const editor = page.getByRole('dialog', { name: 'Neue Quelle erfassen' });
    await chooseOption(editor, 'Quellentyp', 'Abschlussarbeit');
    const language = editor.locator('[data-field="langid"]');
    await expect(language.locator('.select-value')).toHaveText('Deutsch');
    await language.getByRole('button').click();
    await expect(page.getByRole('option', { name: 'Französisch', exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('listbox')).toHaveCount(0);
    const kind = editor.locator('[data-field="type"]');
    await kind.getByRole('button').click();
    await page.getByRole('option', { name: 'Doktorarbeit', exact: true }).click();
    await expect(kind.locator('.select-value')).toHaveText('Doktorarbeit');
    // EDTF dates are read back in words while typing.
    const date = editor.locator('[data-field="date"]');
    await date.locator('input').fill('1997-11');
    await expect(date.locator('.bib-field-hint')).toHaveText('November 1997');
    await date.locator('input').fill('1850~');
    await expect(date.locator('.bib-field-hint')).toHaveText('um 1850');
    await expect(date.locator('input')).toHaveAccessibleDescription('um 1850');
    // Types that came with the converter's update are named too.
    await chooseOption(editor, 'Quellentyp', 'Software');
    await expect(selectValue(editor, 'Quellentyp')).toHaveText('Software');
  });

  test('says it shows a cached version while offline', async ({ page, context, user }) => {
    await loginAs(page, user, '/bibliography/');
    await expect(table(page)).toContainText('No sources registered');
    await expect(page.getByText('You are viewing a cached version of this page.')).toHaveCount(0);
    await context.setOffline(true);
    await expect(
      page.getByRole('status').filter({ hasText: 'You are viewing a cached version of this page.' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Register new source' })).toBeDisabled();
    await context.setOffline(false);
    await expect(page.getByText('You are viewing a cached version of this page.')).toHaveCount(0);
  });
});
