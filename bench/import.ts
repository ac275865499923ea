// DOCX import (issue 19): the 50-page paper (20,000 words, 100 equations, 200 Zotero citations,
// 20 figures, footnotes, tables) as a DOCX that pandoc makes from Markdown, read by our importer
// (common/src/import, as the server's worker runs it) against pandoc reading the same DOCX to its
// own JSON, measured in the same run (median of BENCH_RUNS). Goal: < 5 s. Then issue 54's paper:
// 100 pages (50,000 words) with 500 Zotero citations and 50 figures, imported (goal <= 3 s) and
// the imported document exported to DOCX again in APA (goal <= 1 s). Prints figures and the
// ratios; asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportDocument } from '@scriptorium/common/export/registry';
import { importDocument } from '@scriptorium/common/import/index';
import { zoteroField } from '@scriptorium/common/import/testing/fixtures';
import { bundledCsl } from '@scriptorium/common/testing/bundled-csl';
import sharp from 'sharp';
import { median } from './lib/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WORDS_PER_PARAGRAPH = 100;

/** `sections` of 10 paragraphs of 100 words, each paragraph with one citation, each section a figure. */
function paperMarkdown(sections: number, paragraphsPerSection = 10): string {
  const lines = ['---', 'title: A Long Paper', '---', ''];
  let equation = 0;
  let citation = 0;
  for (let s = 0; s < sections; s++) {
    lines.push(`# Section ${s + 1}`, '');
    for (let p = 0; p < paragraphsPerSection; p++) {
      const words = Array.from(
        { length: WORDS_PER_PARAGRAPH },
        (_, w) => `word${(s * 131 + p * 31 + w * 7) % 97}`,
      );
      // Every paragraph: one citation; every other: an equation; some: a footnote.
      words.splice(40, 0, zoteroField(`(Doe ${2000 + (citation++ % 20)})`));
      if (p % 2 === 0)
        words.splice(70, 0, `$x_${equation} = \\frac{a^{${equation}}}{\\sqrt{b+${equation++}}}$`);
      if (p % 5 === 0) words.push(`^[A footnote of section ${s + 1}.]`);
      lines.push(`${words.join(' ')}.`, '');
    }
    lines.push(
      `![Figure ${s + 1}](figure.png)`,
      '',
      '| A | B | C |',
      '|---|---|---|',
      '| 1 | 2 | 3 |',
      '| 4 | 5 | 6 |',
      '',
    );
  }
  return lines.join('\n');
}

const dir = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
try {
  writeFileSync(
    path.join(dir, 'figure.png'),
    await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .png()
      .toBuffer(),
  );
  writeFileSync(path.join(dir, 'paper.md'), paperMarkdown(20));
  execFileSync('pandoc', ['paper.md', '-o', 'paper.docx'], { cwd: dir });
  const docx = new Uint8Array(readFileSync(path.join(dir, 'paper.docx')));

  const ours: number[] = [];
  const pandoc: number[] = [];
  let summary = '';
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    const doc = importDocument(docx, 'paper.docx');
    ours.push(performance.now() - start);
    const text = JSON.stringify(doc.content);
    summary = `${(text.match(/"type":"equation"/g) ?? []).length} equations, ${(text.match(/"type":"citation"/g) ?? []).length} citations, ${doc.bibliography.length} entries, ${doc.images.length} images`;
    start = performance.now();
    execFileSync('pandoc', ['paper.docx', '-f', 'docx', '-t', 'json', '-o', 'paper.json'], { cwd: dir });
    pandoc.push(performance.now() - start);
  }
  const oursMs = median(ours);
  const pandocMs = median(pandoc);
  console.log(`DOCX of ${(docx.length / 1024).toFixed(0)} KiB (${summary})`);
  console.log(`import (ours): ${oursMs.toFixed(0)} ms median of ${RUNS} (goal < 5000 ms)`);
  console.log(`pandoc -f docx -t json: ${pandocMs.toFixed(0)} ms median of ${RUNS}`);
  console.log(`ratio ours / pandoc: ${(oursMs / pandocMs).toFixed(2)}`);

  // Issue 54: the 100-page paper, imported and exported again.
  writeFileSync(path.join(dir, 'long.md'), paperMarkdown(50));
  execFileSync('pandoc', ['long.md', '-o', 'long.docx'], { cwd: dir });
  const long = new Uint8Array(readFileSync(path.join(dir, 'long.docx')));
  const csl = bundledCsl('apa');
  const imports: number[] = [];
  const exports: number[] = [];
  let longSummary = '';
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    const doc = importDocument(long, 'long.docx');
    imports.push(performance.now() - start);
    const text = JSON.stringify(doc.content);
    longSummary = `${(text.match(/"type":"citation"/g) ?? []).length} citations, ${doc.images.length} images, ${doc.bibliography.length} entries`;
    start = performance.now();
    await exportDocument('docx', { content: doc.content, threads: [], images: {}, csl });
    exports.push(performance.now() - start);
  }
  console.log(`100-page DOCX of ${(long.length / 1024).toFixed(0)} KiB (${longSummary})`);
  console.log(`import (ours): ${median(imports).toFixed(0)} ms median of ${RUNS} (goal <= 3000 ms)`);
  console.log(`export to DOCX in APA: ${median(exports).toFixed(0)} ms median of ${RUNS} (goal <= 1000 ms)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
