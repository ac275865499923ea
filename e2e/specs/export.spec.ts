import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { strFromU8, unzipSync } from 'fflate';
import {
  apiCall,
  chooseOption,
  expect,
  loginAs,
  type TestUser,
  test,
  writeDocumentContent,
} from '../fixtures';

/**
 * Issue 19: File > Export in the editor makes the file in the browser and downloads it. The DOCX
 * is opened here as Word would: a zip whose document.xml holds the heading and the equation as
 * Office math; the ODT as LibreOffice would: the MIME type first, the formula an embedded object.
 * The PDF comes from the server, typeset from the document (issue 53: Paged.js in Chromium), and
 * is read with poppler's pdftotext and pdfinfo.
 */

const run = promisify(execFile);

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
    /<math [^>]*><semantics><mrow><msup><mi>x<\/mi><mn>2<\/mn><\/msup><\/mrow><annotation encoding="application\/x-tex">x\^2<\/annotation>/,
  );
});

/** The export tests' paper (every element: fixture-paper.ts), in `language`, open in the editor. */
async function openFixturePaper(page: Page, user: TestUser, language: string) {
  await loginAs(page, user, '/');
  const { id } = (await (await apiCall(page, documentsApi.create, { path: '/' })).json()) as { id: number };
  const content = fixturePaper().input.content as { attrs: Record<string, unknown> };
  await writeDocumentContent(id, { ...content, attrs: { ...content.attrs, language } });
  await page.goto(`/document/${id}`);
  await expect(page.locator('.doc-title')).toHaveText('Structures of Example Problems');
}

test('File > Export > PDF typesets a German paper: title block, citations, numbers, notes on their page', async ({
  page,
  user,
}) => {
  await openFixturePaper(page, user, 'de-DE');

  await page.getByRole('button', { name: 'File', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Export' }).click();
  // The server typesets the paper (Paged.js in a Chromium it may have to start first): a PDF of
  // three pages takes about 18 s on a loaded two-core machine, past the default wait for an event.
  const downloading = page.waitForEvent('download', { timeout: 45_000 });
  await page.getByRole('menuitem', { name: 'PDF', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Structures of Example Problems.pdf');
  const file = await download.path();

  const info = (await run('pdfinfo', [file])).stdout;
  expect(info).toMatch(/Page size:.* pts \(A4\)/);
  expect(info).toMatch(/^Title:\s+Structures of Example Problems$/m);
  expect(info).toMatch(/^Tagged:\s+yes$/m);
  expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBeGreaterThanOrEqual(2);
  // Lines as laid out on the page, joined: the phrases below may break across lines.
  const text = (await run('pdftotext', [file, '-'])).stdout.replace(/\s+/g, ' ');
  // An article's title block: none of the editor's part labels, the keywords under their label.
  expect(text).not.toContain('AUTOREN');
  expect(text).not.toContain('SCHLAGWÖRTER');
  expect(text).toContain('Schlagwörter: structures, examples');
  // Citations in German, figures numbered in German.
  expect(text).toContain('(Lovelace, 1990, S. 5)');
  expect(text).toContain('Abbildung 1: A striped image number 1');
  // The footnote at the foot of the first page, which calls it; the page's number below it.
  const first = (await run('pdftotext', ['-layout', '-f', '1', '-l', '1', file, '-'])).stdout.trim();
  expect(first.replace(/\s+/g, ' ')).toContain('1. A footnote with remarks on section 1.');
  expect(first.split('\n').at(-1)?.trim()).toBe('1');
  // A figure whose image this reader may not see says so.
  expect(text).toContain('Bild nicht verfügbar');
  // Accepted suggestions: the deleted words are gone, the inserted ones read as text.
  expect(text).toContain('Suggested: inserted words and . See Abbildung 1, Tabelle 1 and Abschnitt 2.');
});

test('File > Print: the browser prints the editor with the footnotes as notes at the end', async ({
  page,
  user,
}) => {
  await openFixturePaper(page, user, 'en-US');
  await expect(page.locator('.doc-citation').first()).toHaveText('(Lovelace, 1990, p. 5)');
  // What the print dialog would make: Chromium's own printing, which fires beforeprint and afterprint.
  const file = test.info().outputPath('printed.pdf');
  await page.pdf({ path: file });
  const text = (await run('pdftotext', [file, '-'])).stdout.replace(/\s+/g, ' ');
  expect(text).toContain('Section 1 on structures');
  expect(text).toContain('Notes 1. A footnote with remarks on section 1.');
  // The editor's chrome (its Insert menu) is not printed (a suggestion card's quote "Inserted: …" may
  // be), and the notes leave the screen after printing.
  expect(text).not.toMatch(/\bInsert\b/);
  await expect(page.locator('.printed-notes')).toHaveCount(0);
});
