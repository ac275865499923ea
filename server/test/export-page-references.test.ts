import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportLatex } from '@scriptorium/common/export/latex';
import { prepareDocument } from '@scriptorium/common/export/model';
import { pageReferencePaper } from '@scriptorium/common/testing/page-reference-paper';
import { afterAll, describe, expect } from 'vitest';
import { Printer } from '../src/modules/documents/export/printer';
import { exportTypesetPdf } from '../src/modules/documents/export/typeset';
import { compileLatex, run, unzipTo, useTemporaryFolder, withTools } from './export-tools';

/**
 * Cross-references with page numbers (issue 53) where the pages are made: the typeset PDF
 * (Paged.js's target-counter) and the LaTeX export (\pageref) name the page each target really
 * lands on, read back from the PDF with pdftotext.
 */

const printer = new Printer({ pdfPrints: 1, pdfTimeLimitMs: 300_000, pdfMaxPages: 1_000 });
afterAll(() => printer.close());

/** The text of each page of a PDF file, whitespace folded. */
async function pages(file: string): Promise<string[]> {
  const { stdout } = await run('pdftotext', [file, '-']);
  return stdout.split('\f').map((page) => page.replace(/\s+/g, ' ').trim());
}

/** The page (from 1) whose text contains `needle`. */
function pageOf(all: string[], needle: string | RegExp): number {
  const index = all.findIndex((page) =>
    typeof needle === 'string' ? page.includes(needle) : needle.test(page),
  );
  expect(index, String(needle)).toBeGreaterThanOrEqual(0);
  return index + 1;
}

describe('page cross-references', () => {
  const dir = useTemporaryFolder('export-pagerefs-');

  function expectPages(all: string[], figureCaption: string) {
    const figure = pageOf(all, figureCaption);
    const table = pageOf(all, 'Table 1: Marker table');
    const heading = pageOf(all, /\b2\.? Later results/);
    // The targets lie on pages after the first, not all on one.
    expect(Math.min(figure, table, heading)).toBeGreaterThan(1);
    expect(new Set([figure, table, heading]).size).toBeGreaterThan(1);
    expect(all[0]).toContain(
      `See page ${figure}, Table 1 on page ${table}, Section 2 on page ${heading} and page 1. Plainly Figure 1.`,
    );
  }

  withTools(['chromium', 'pdftotext'], 'the typeset PDF names the page each target lands on', async () => {
    const { input } = pageReferencePaper();
    const file = path.join(dir(), 'typeset.pdf');
    await writeFile(file, await exportTypesetPdf(prepareDocument(input), printer));
    expectPages(await pages(file), 'Figure 1: Marker figure');
  });

  withTools(
    ['lualatex', 'pdftotext'],
    'LaTeX: \\pageref compiles with 0 undefined references and names the same pages',
    async () => {
      const { input } = pageReferencePaper();
      const folder = path.join(dir(), 'latex');
      await unzipTo(exportLatex(prepareDocument(input)), folder);
      const log = await compileLatex(folder);
      expect(log).not.toMatch(/^! /m);
      expect(log).not.toContain('There were undefined references');
      expect(log).not.toMatch(/Reference `[^']*' on page \d+ undefined/);
      expectPages(await pages(path.join(folder, 'document.pdf')), 'Figure 1: Marker figure');
    },
    400_000,
  );
});
