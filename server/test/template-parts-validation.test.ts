import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExportReference } from '@scriptorium/common/export/model';
import { exportDocument } from '@scriptorium/common/export/registry';
import { contentsDefinition, documentWithSections } from '@scriptorium/common/plugins/template-testing';
import { epubcheckReport } from '@scriptorium/common/testing/office-tools';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect } from 'vitest';
import {
  compileLatex,
  libreOfficeConvert,
  run,
  unzipTo,
  useTemporaryFolder,
  withTools,
} from './export-tools';

/**
 * Issue 21 with the real tools: a document with a table-of-contents and a separator part passes
 * epubcheck, compiles with LuaLaTeX, and LibreOffice lays out its DOCX and ODT (also a DOCX in a
 * user's reference styles) with the contents listed.
 */

const dir = useTemporaryFolder('template-parts-');

const contentsDocument = () =>
  documentWithSections(contentsDefinition(), 'Collected essays', [
    [1, 'H1', 'Methodology', 'First words.'],
    [2, 'H2', 'Sampling frame', 'Last words.'],
  ]);

async function exported(format: 'epub' | 'latex' | 'docx' | 'odt', reference?: ExportReference) {
  const file = await exportDocument(format, {
    content: contentsDocument().toJSON(),
    threads: [],
    images: {},
    csl: null,
    ...(reference ? { reference } : {}),
  });
  return file.data;
}

/** LibreOffice lays the file out as a PDF; its text. */
async function pdfText(file: string): Promise<string> {
  const pdf = await libreOfficeConvert(file, 'pdf', path.join(dir(), `pdf-${path.basename(file)}`), dir());
  return (await run('pdftotext', ['-layout', pdf, '-'])).stdout;
}

/** Methodology listed by the contents and again as the heading: twice, the contents first. */
/** The text of a file as LibreOffice lays it out (written to the test folder under `name`). */
async function laidOutText(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(dir(), name);
  await writeFile(file, bytes);
  return pdfText(file);
}

/** Pandoc's own reference document of the format: another author's styles than ours. */
async function pandocReference(format: 'odt' | 'docx'): Promise<Uint8Array> {
  const file = path.join(dir(), `reference.${format}`);
  await run('pandoc', ['-o', file, '--print-default-data-file', `reference.${format}`]);
  return new Uint8Array(await readFile(file));
}

function expectContents(text: string) {
  const contents = text.indexOf('Contents');
  expect(contents).toBeGreaterThan(-1);
  const first = text.indexOf('Methodology');
  expect(first).toBeGreaterThan(contents);
  expect(text.indexOf('Methodology', first + 1)).toBeGreaterThan(first);
  expect(text).toContain('Sampling frame');
}

describe('table-of-contents and separator parts with the real tools', () => {
  withTools(['epubcheck'], 'EPUB: epubcheck finds 0 errors', async () => {
    const file = path.join(dir(), 'contents.epub');
    await writeFile(file, await exported('epub'));
    expect(await epubcheckReport(file)).toContain('0 fatals / 0 errors');
  });

  withTools(['lualatex'], 'LaTeX: compiles with the table of contents', async () => {
    const folder = path.join(dir(), 'latex');
    await unzipTo(await exported('latex'), folder);
    const log = await compileLatex(folder);
    expect(log).not.toMatch(/^! /m);
    expect(await readFile(path.join(folder, 'document.toc'), 'utf8')).toContain('Sampling frame');
  });

  withTools(
    ['soffice', 'pdftotext', 'pandoc'],
    'ODT, also in a reference document’s styles: LibreOffice lays out the contents',
    async () => {
      expectContents(await laidOutText('contents.odt', await exported('odt')));
      const styled = await exported('odt', { odt: await pandocReference('odt') });
      expectContents(await laidOutText('styled.odt', styled));
    },
  );

  withTools(
    ['soffice', 'pdftotext', 'pandoc'],
    'DOCX, also in a reference document’s styles: LibreOffice lays out the contents',
    async () => {
      expectContents(await laidOutText('contents.docx', await exported('docx')));
      const files = unzipSync(await pandocReference('docx'));
      files['word/styles.xml'] = strToU8(
        strFromU8(files['word/styles.xml']).replace(/w:val="4F81BD"/g, 'w:val="7B2D26"'),
      );
      const styled = await exported('docx', { docx: zipSync(files) });
      expect(strFromU8(unzipSync(styled)['word/styles.xml'])).toContain('7B2D26');
      expectContents(await laidOutText('styled.docx', styled));
    },
  );
});
