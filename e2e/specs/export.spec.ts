import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { strFromU8, unzipSync } from 'fflate';
import { apiCall, chooseOption, expect, loginAs, type TestUser, test } from '../fixtures';

/**
 * Issue 19: File > Export in the editor makes the file in the browser and downloads it. The DOCX
 * is opened here as Word would: a zip whose document.xml holds the heading and the equation as
 * Office math; the ODT as LibreOffice would: the MIME type first, the formula an embedded object.
 */

test.describe.configure({ timeout: 60_000 });

const body = (page: Page) => page.locator('.doc-richtext_part[data-part-id="body"]');

/** Writes a titled document with a heading and an equation, exports it by the menu: the zip's files. */
async function exportPaper(page: Page, user: TestUser, menuItem: string, fileName: string) {
  await loginAs(page, user, '/');
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/document/${id}`);
  await page.locator('.doc-title').click();
  await page.keyboard.type('Growth of ink');
  await body(page).locator('p').first().click();
  await page.keyboard.type('Results in brief');
  await chooseOption(page, 'Text style', 'Heading 1');
  await expect(body(page).locator('h1')).toHaveText('Results in brief');
  await body(page).locator('h1').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Energy $x^2$ grows.');
  await expect(body(page).locator('.doc-equation math msup')).toHaveCount(1);

  await page.getByRole('button', { name: 'File', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: menuItem }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(fileName);
  return unzipSync(new Uint8Array(await readFile(await download.path())));
}

test('File > Export > Word document downloads a DOCX with the heading and the math', async ({
  page,
  user,
}) => {
  const files = await exportPaper(page, user, 'Word document (.docx)', 'Growth of ink.docx');
  expect(strFromU8(files['[Content_Types].xml'])).toContain('wordprocessingml.document.main+xml');
  const document = strFromU8(files['word/document.xml']);
  expect(document).toContain('<w:pStyle w:val="Heading1"/>');
  expect(document).toContain('Results in brief');
  expect(document).toMatch(
    /<m:oMath><m:sSup>.*<m:t xml:space="preserve">x<\/m:t>.*<m:t xml:space="preserve">2<\/m:t>.*<\/m:sSup><\/m:oMath>/,
  );
});

test('File > Export > OpenDocument text downloads an ODT with the heading and the formula', async ({
  page,
  user,
}) => {
  const files = await exportPaper(page, user, 'OpenDocument text (.odt)', 'Growth of ink.odt');
  expect(Object.keys(files)[0]).toBe('mimetype');
  expect(strFromU8(files.mimetype)).toBe('application/vnd.oasis.opendocument.text');
  expect(strFromU8(files['META-INF/manifest.xml'])).toContain('manifest:full-path="Object 1/"');
  const content = strFromU8(files['content.xml']);
  expect(content).toMatch(
    /<text:h text:style-name="Heading_20_1" text:outline-level="1">.*Results in brief.*<\/text:h>/,
  );
  expect(content).toContain('<draw:object xlink:href="./Object 1"');
  expect(strFromU8(files['Object 1/content.xml'])).toMatch(
    /<math [^>]*><msup><mi>x<\/mi><mn>2<\/mn><\/msup>/,
  );
});
