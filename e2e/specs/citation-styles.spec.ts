import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { apiCall, expect, loginAs, type TestUser, test, writeDocumentContent } from '../fixtures';

/**
 * Issue 53: a numeric style's references stand beside their labels ("[1]  A. Lovelace, ...") in
 * the editor and in the PDF printed from it; a note style numbers its citations and footnotes in
 * one sequence and keeps a text citation's authors in the sentence.
 */

const run = promisify(execFile);

test.describe.configure({ timeout: 60_000 });

/** The export tests' paper (20 citations, a footnote) in a citation style, open in the editor. */
async function openPaper(page: Page, user: TestUser, style: string) {
  await loginAs(page, user, '/');
  const { id } = (await (await apiCall(page, documentsApi.create, { path: '/' })).json()) as { id: number };
  const content = fixturePaper().input.content as { attrs: Record<string, unknown> };
  await writeDocumentContent(id, { ...content, attrs: { ...content.attrs, citationstyle: style } });
  await page.goto(`/document/${id}`);
  await expect(page.locator('.doc-title')).toHaveText('Structures of Example Problems');
}

test('IEEE: each reference beside its label in the editor and the PDF', async ({ page, user }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openPaper(page, user, 'ieee');
  const entries = page.locator('.doc-bibliography-entries .csl-entry');
  await expect(entries).toHaveCount(20);
  const first = entries.first();
  await expect(first.locator('.csl-left-margin')).toHaveText('[1]');
  await first.scrollIntoViewIfNeeded();
  const label = await first.locator('.csl-left-margin').boundingBox();
  const text = await first.locator('.csl-right-inline').boundingBox();
  // On one line: the same top, the text right of the label's column.
  expect(Math.abs((label?.y ?? 0) - (text?.y ?? 100))).toBeLessThan(2);
  expect(text?.x ?? 0).toBeGreaterThanOrEqual((label?.x ?? 0) + (label?.width ?? 0) - 1);
  await page.screenshot({ path: test.info().outputPath('ieee-editor.png') });
  // On a phone the column stays beside the text.
  await page.setViewportSize({ width: 390, height: 844 });
  await first.scrollIntoViewIfNeeded();
  const narrowLabel = await first.locator('.csl-left-margin').boundingBox();
  const narrowText = await first.locator('.csl-right-inline').boundingBox();
  expect(Math.abs((narrowLabel?.y ?? 0) - (narrowText?.y ?? 100))).toBeLessThan(2);
  await page.screenshot({ path: test.info().outputPath('ieee-editor-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'File', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'PDF', exact: true }).click();
  const file = await (await downloading).path();
  const lines = (await run('pdftotext', ['-layout', file, '-'])).stdout.split('\n');
  // Every label starts a line that goes on with its reference's text.
  for (let n = 1; n <= 20; n++)
    expect(
      lines.some((line) => new RegExp(`^\\s*\\[${n}\\]\\s+\\S+\\.? ?\\S`).test(line)),
      `[${n}]`,
    ).toBe(true);
  const pages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [file])).stdout)?.[1]);
  await run('pdftoppm', ['-png', '-r', '60', '-f', String(pages), file, test.info().outputPath('ieee-pdf')]);
});

test('Chicago notes: notes numbered in one sequence, text citations keep their authors', async ({
  page,
  user,
}) => {
  await openPaper(page, user, 'chicago-note-bibliography');
  const listed = page.locator('.doc-citation-notes li');
  // The paper's footnote and its 20 citations: 21 notes, 1 to 21.
  await expect(listed).toHaveCount(21);
  const numbers = await listed.evaluateAll((items) => items.map((item) => (item as HTMLLIElement).value));
  expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  await expect(listed.filter({ hasText: 'A footnote with remarks on section 1.' })).toHaveCount(1);
  // A text citation names its author in the sentence, the citation being its note.
  const textCitations = page.locator('.doc-citation-note').filter({ hasText: /\w/ });
  await expect(textCitations.first()).toHaveText(/^[A-Z][a-z]+/);
});
