import type { Page } from '@playwright/test';
import { expect, loginAs, selectButton, selectValue, setLanguage, test } from '../fixtures';

const LIBRARY = String.raw`
@article{lecun1998,
  author = {LeCun, Yann and Bottou, L{\'e}on and Bengio, Yoshua and Haffner, Patrick},
  title = {Gradient-Based Learning Applied to Document Recognition},
  journal = {Proceedings of the IEEE}, year = {1998}, volume = {86}, number = {11}, pages = {2278--2324}
}`;

async function importAndSelect(page: Page, dialogName: string, close: string) {
  await expect(page.getByRole('button', { name: /^Import/ })).toBeEnabled();
  await page.keyboard.press('Alt+u');
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.locator('textarea').fill(LIBRARY);
  await dialog.locator('button.button-primary').click();
  await expect(dialog.locator('.bib-report-summary')).toBeVisible();
  await dialog.getByRole('button', { name: close }).last().click();
  await page.getByRole('grid').getByRole('checkbox').nth(1).check();
}

test.describe('citation styles', () => {
  // Each scenario takes seconds alone; a minute leaves room for a busy, shared machine.
  test.describe.configure({ timeout: 60_000 });

  test('finds a journal style among thousands, previews in it and keeps it', async ({ page, user }) => {
    await loginAs(page, user, '/bibliography/');
    await importAndSelect(page, 'Import references', 'Close');
    const preview = page.locator('.bib-preview');
    await expect(preview.locator('.bib-preview-citation')).toHaveText('(LeCun et al., 1998)');

    const finder = preview.getByRole('combobox', { name: "Find your journal's style" });
    await finder.fill('neuroradiology american');
    const option = page.getByRole('option', { name: 'American Journal of Neuroradiology' });
    await expect(option).toBeVisible();
    await finder.press('ArrowDown');
    await finder.press('Enter');
    await expect(finder).toHaveValue('');
    const style = selectValue(preview, 'Citation style');
    await expect(style).toHaveText('American Journal of Neuroradiology');
    // A numeric style: the citation is a number, the entry starts with the authors.
    await expect(preview.locator('.bib-preview-citation')).toHaveText(/^\(?1\)?$/);
    await expect(preview.locator('.bib-preview-entry')).toContainText('LeCun Y');

    await finder.fill('no such journal at all');
    await expect(page.getByText('No style found')).toBeVisible();
    await finder.press('Escape');

    // Remembered: after a reload the style is still chosen and listed among the found ones.
    await page.reload();
    await page.getByRole('grid').getByRole('checkbox').nth(1).check();
    await expect(style).toHaveText('American Journal of Neuroradiology');
    await selectButton(preview, 'Citation style').click();
    await expect(
      page.getByRole('listbox').getByRole('group', { name: 'Styles you found' }).getByRole('option'),
    ).toHaveText(['American Journal of Neuroradiology']);
    await page.getByRole('option', { name: 'APA (7th edition)', exact: true }).click();
    await expect(style).toHaveText('APA (7th edition)');
    await expect(preview.locator('.bib-preview-citation')).toHaveText('(LeCun et al., 1998)');
  });

  test('speaks German', async ({ page, user }) => {
    await setLanguage(page, 'de');
    await loginAs(page, user, '/bibliography/');
    await importAndSelect(page, 'Literatur importieren', 'Schließen');
    const finder = page
      .locator('.bib-preview')
      .getByRole('combobox', { name: 'Stil Ihrer Zeitschrift finden' });
    await expect(finder).toHaveAttribute('placeholder', 'Zeitschrift, Verlag oder Stil');
    await finder.fill('xyzzy');
    await expect(page.getByText('Kein Stil gefunden')).toBeVisible();
  });
});
