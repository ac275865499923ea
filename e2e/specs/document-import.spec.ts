import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paperDocx } from '@scriptorium/common/import/testing/fixtures';
import { toolAvailable } from '@scriptorium/common/testing/office-tools';
import { expect, loginAs, test } from '../fixtures';

/**
 * Issue 19: New document > Import on the documents overview, with a DOCX that pandoc makes at
 * test time (a file we did not write): the new document opens with its heading, equation and
 * footnote in the editor. A file over 50 MB is refused before any upload.
 */

const body = (page: import('@playwright/test').Page) =>
  page.locator('.doc-richtext_part[data-part-id="body"]');

test.describe('document import', () => {
  test.describe.configure({ timeout: 60_000 });

  test('imports a DOCX from the overview by keyboard and opens it', async ({ page, user }) => {
    test.skip(!toolAvailable('pandoc'), 'pandoc is not installed');
    await loginAs(page, user, '/');
    const importButton = page.getByRole('button', { name: 'Import', exact: true });
    await importButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Import a document' });
    await dialog.getByLabel('File (.docx, .odt or a Scriptorium .zip)').setInputFiles({
      name: 'paper.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: Buffer.from(paperDocx()),
    });
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/documents/import/')) uploads.push(request.method());
    });
    await dialog.getByRole('button', { name: 'Import', exact: true }).press('Enter');
    await expect(page).toHaveURL(/\/document\//);
    expect(uploads).toEqual(['POST']);
    await expect(page.locator('.doc-title')).toHaveText('A Paper on Things');
    await expect(body(page).getByRole('heading', { name: 'Introduction' })).toBeVisible();
    await expect(body(page).locator('.doc-equation math msup').first()).toBeVisible();
    await expect(body(page).locator('figure[data-category="equation"]')).toHaveCount(1);
    await expect(body(page).locator('.doc-footnote-marker')).toHaveCount(1);
  });

  test('refuses a file over 50 MB before uploading it', async ({ page, user }) => {
    await loginAs(page, user, '/');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a document' });
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/documents/import/')) uploads.push(request.url());
    });
    // Playwright hands over files above 50 MB only from disk.
    const huge = path.join(mkdtempSync(path.join(tmpdir(), 'import-spec-')), 'huge.docx');
    writeFileSync(huge, Buffer.alloc(50 * 1024 * 1024 + 1));
    await dialog.getByLabel('File (.docx, .odt or a Scriptorium .zip)').setInputFiles(huge);
    await expect(dialog.getByRole('alert')).toHaveText(
      'This file is larger than 50 MB and cannot be imported.',
    );
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'This file is larger than 50 MB and cannot be imported.',
    );
    expect(uploads).toEqual([]);
  });
});
