import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { apiCall, chooseOption, expect, loginAs, test, writeDocumentContent } from '../fixtures';

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
