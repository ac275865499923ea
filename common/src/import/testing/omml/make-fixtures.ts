/**
 * Regenerates the OMML corpus of `omml.test.ts` (run with `npx tsx` from this folder's checkout;
 * needs pandoc and LibreOffice):
 * - pandoc.docx: pandoc writes corpus.tex's formulas as OMML;
 * - libreoffice.docx: pandoc writes them to ODT (MathML), LibreOffice converts that to DOCX;
 * - word-like.docx: word-like.xml's equations (Word's own markup, written by hand) in a DOCX;
 * - readings.json: what pandoc reads from each file (`pandoc -f docx -t json`, its Math nodes), the
 *   reference our reader is compared with.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

const here = dirname(fileURLToPath(import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'omml-corpus-'));
const M = 'http://schemas.openxmlformats.org/officeDocument/2006/math';
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The TeX of every Math node pandoc reads from a DOCX, in document order. */
function pandocReading(file: string): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const value = node as { t?: string; c?: unknown };
      if (value.t === 'Math' && Array.isArray(value.c)) found.push(String(value.c[1]));
      else Object.values(value).forEach(walk);
    }
  };
  walk(JSON.parse(run('pandoc', ['-f', 'docx', '-t', 'json', file])).blocks);
  return found;
}

/** LibreOffice declares the math namespace on each m:oMathPara, where pandoc 2.17 does not see it. */
function withRootMathNamespace(file: string, out: string): void {
  const files = unzipSync(new Uint8Array(readFileSync(file)));
  const xml = strFromU8(files['word/document.xml'])
    .replace(/ xmlns:m="[^"]*"/g, '')
    .replace('<w:document ', `<w:document xmlns:m="${M}" `);
  files['word/document.xml'] = strToU8(xml);
  writeFileSync(out, zipSync(files));
}

function wordLikeDocx(out: string): void {
  const source = readFileSync(join(here, 'word-like.xml'), 'utf8');
  const formulas = source.match(/<m:oMath>[\s\S]*?<\/m:oMath>/g) ?? [];
  const body = formulas.map((math) => `<w:p>${math}</w:p>`).join('');
  const files = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" xmlns:m="${M}"><w:body>${body}<w:sectPr/></w:body></w:document>`,
    ),
  };
  writeFileSync(out, zipSync(files, { mtime: new Date('2024-01-01T00:00:00Z') }));
}

try {
  run('pandoc', ['-f', 'latex', '-t', 'docx', join(here, 'corpus.tex'), '-o', join(here, 'pandoc.docx')]);
  run('pandoc', ['-f', 'latex', '-t', 'odt', join(here, 'corpus.tex'), '-o', 'corpus.odt']);
  run('soffice', [
    `-env:UserInstallation=file://${join(work, 'profile')}`,
    '--headless',
    '--convert-to',
    'docx',
    '--outdir',
    work,
    'corpus.odt',
  ]);
  writeFileSync(join(here, 'libreoffice.docx'), readFileSync(join(work, 'corpus.docx')));
  withRootMathNamespace(join(work, 'corpus.docx'), join(work, 'libreoffice-for-pandoc.docx'));
  wordLikeDocx(join(here, 'word-like.docx'));
  const readings = {
    pandoc: run('pandoc', ['--version']).split('\n')[0],
    'pandoc.docx': pandocReading(join(here, 'pandoc.docx')),
    'libreoffice.docx': pandocReading(join(work, 'libreoffice-for-pandoc.docx')),
    'word-like.docx': pandocReading(join(here, 'word-like.docx')),
  };
  writeFileSync(join(here, 'readings.json'), `${JSON.stringify(readings, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
