import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { apiCall, chooseOption, expect, loginAs, selectValue, test, writeDocumentContent } from '../fixtures';
import { useOwnServer } from '../own-server';

/**
 * Issue 53: the document's heading numbering shows in the editor (each heading's number before
 * it), and a cross-reference's text follows it when the setting changes.
 */

test('headings numbered in the editor; a cross-reference follows the numbering chosen in the settings', async ({
  page,
  user,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAs(page, user, '/');
  const { id } = (await (await apiCall(page, documentsApi.create, { path: '/' })).json()) as { id: number };
  // The export tests' paper: five sections (a heading 2 in the second), "See ... Section 2".
  await writeDocumentContent(id, fixturePaper().input.content);
  await page.goto(`/document/${id}`);
  await expect(page.locator('.doc-title')).toHaveText('Structures of Example Problems');

  const headings = page.locator('[data-part-id="body"] h1, [data-part-id="body"] h2');
  await expect(headings.first()).toHaveAttribute('data-number', '1');
  await expect(headings.nth(2)).toHaveAttribute('data-number', '2.1');
  const shown = await headings.nth(2).evaluate((h) => getComputedStyle(h, '::before').content);
  expect(shown).toContain('2.1');
  const reference = page.locator('.doc-cross-reference[data-cross-reference="H1"]');
  await expect(reference).toHaveText('Section 2');
  await headings.first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('numbered-desktop.png') });

  // IEEE's numbering: "II." before the heading, the reference "Section II".
  await page.getByRole('button', { name: 'File', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Document settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Document settings' });
  await chooseOption(settings, 'Heading numbering', 'IEEE: I. / A. / 1)');
  await page.screenshot({ path: test.info().outputPath('settings-dialog.png') });
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect(headings.nth(1)).toHaveAttribute('data-number', 'II.');
  await expect(headings.nth(2)).toHaveAttribute('data-number', 'A.');
  await expect(reference).toHaveText('Section II');

  // None: no numbers, the reference names the heading.
  await page.getByRole('button', { name: 'File', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Document settings' }).click();
  await chooseOption(settings, 'Heading numbering', 'None');
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect(headings.first()).not.toHaveAttribute('data-number', /./);
  await expect(reference).toHaveText('Section \u201cSection 2 on structures\u201d');

  await page.setViewportSize({ width: 390, height: 844 });
  await headings.first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('unnumbered-phone.png') });
});

test.describe('with PLUGINS=templates', () => {
  const own = useOwnServer(47, { PLUGINS: 'templates' });

  test('the overview lists the built-in journal templates; one copied is the user’s; New document makes an IEEE paper', async ({
    browser,
  }) => {
    const { page } = await own.userPage(browser, {}, '/templates/');
    const builtin = page.getByRole('region', { name: 'Built-in templates' });
    await expect(builtin.getByRole('listitem')).toHaveCount(7);
    await expect(builtin.getByText('IEEE conference paper (IEEEtran)')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('templates-overview.png'), fullPage: true });
    await builtin
      .getByRole('button', { name: 'Copy to customise: IEEE conference paper (IEEEtran)' })
      .click();
    await expect(page.getByRole('link', { name: 'IEEE conference paper (IEEEtran)' })).toBeVisible();
    await page.getByRole('link', { name: 'IEEE conference paper (IEEEtran)' }).click();
    await expect(selectValue(page, 'Heading numbering')).toHaveText('IEEE: I. / A. / 1)');
    await expect(selectValue(page, 'LaTeX class')).toHaveText('IEEE conference (IEEEtran)');
    await page.setViewportSize({ width: 390, height: 844 });
    await selectValue(page, 'LaTeX class').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('template-editor-phone.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.goto('/documents/');
    await page.getByRole('button', { name: 'New document' }).click();
    await page.getByRole('menuitem', { name: 'Thesis (chapters, contents, list of figures)' }).click();
    await expect(page).toHaveURL(/\/document\/\d+/);
    await expect(page.locator('nav.doc-toc_part')).toBeVisible();
  });
});
