import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importDocument } from './index';
import { mathText } from './latex-symbols';

/**
 * Issue 54: Word equations read as pandoc reads them. The corpus (testing/omml, remade by its
 * make-fixtures.ts) is real files: pandoc's and LibreOffice's OMML of corpus.tex, and Word's own
 * markup for what neither writes. readings.json is pandoc's reading of each file.
 */

const folder = join(__dirname, 'testing', 'omml');
const readings = JSON.parse(readFileSync(join(folder, 'readings.json'), 'utf8')) as Record<
  string,
  string[] | string
>;

type Json = { type: string; attrs?: Record<string, unknown>; content?: Json[] };

function equations(file: string): string[] {
  const doc = importDocument(new Uint8Array(readFileSync(join(folder, file))), file).content as Json;
  const found: string[] = [];
  const walk = (node: Json) => {
    if (node.type === 'equation' || (node.type === 'figure' && node.attrs?.category === 'equation'))
      found.push(String(node.attrs?.equation ?? ''));
    for (const inner of node.content ?? []) walk(inner);
  };
  walk(doc);
  return found;
}

/** Spellings of one symbol. */
const SAME: [RegExp, string][] = [
  [/\\to(?![a-zA-Z])/g, '\\rightarrow'],
  [/\\le(?![a-zA-Z])/g, '\\leq'],
  [/\\ge(?![a-zA-Z])/g, '\\geq'],
  [/\\lbrack(?![a-zA-Z])/g, '['],
  [/\\rbrack(?![a-zA-Z])/g, ']'],
  [/\\ne(?![a-zA-Z])/g, '\\neq'],
  // One style, and the command LaTeX needs to set it for Greek and italic letters.
  [/\\boldsymbol(?![a-zA-Z])/g, '\\mathbf'],
];

/** A matrix environment with delimiters is the matrix in them. */
const MATRIX_DELIMITERS: Record<string, [string, string]> = {
  p: ['(', ')'],
  b: ['[', ']'],
  B: ['\\{', '\\}'],
  v: ['|', '|'],
  V: ['\\|', '\\|'],
};

/**
 * TeX compared without what does not change the formula: spaces, braces around one token, the
 * spelling of a symbol (Unicode or control word), delimiter sizing (\left, \right, \middle),
 * empty scripts and limits, the row end before \end.
 */
export function normalise(tex: string): string {
  let out = tex.replace(/(^|[^\\])\\ /g, '$1 ').replace(/[^ -~\s]/gu, (char) => mathText(char));
  for (const [pattern, replacement] of SAME) out = out.replace(pattern, replacement);
  out = out
    .replace(/\s+/g, '')
    .replace(/\\(left|right|middle)(?![a-zA-Z])\.?/g, '')
    .replace(/\\\\\\end/g, '\\end')
    .replace(/[_^]\{\}/g, '')
    .replace(/\{\}(?=[_^])/g, '')
    .replace(
      /\\begin\{([pbBvV])matrix\}/g,
      (_, kind: string) => `${MATRIX_DELIMITERS[kind][0]}\\begin{matrix}`,
    )
    .replace(/\\end\{([pbBvV])matrix\}/g, (_, kind: string) => `\\end{matrix}${MATRIX_DELIMITERS[kind][1]}`);
  for (let before = ''; before !== out; ) {
    before = out;
    out = out
      .replace(/\\(over|under)set\{\}\{([^{}]*)\}/g, '$2')
      .replace(/\{(\\[a-zA-Z]+\{[^{}]*\})\}/g, '$1')
      .replace(/\{(\\[a-zA-Z]+|\\.|[^{}\\])\}/g, '$1');
  }
  return out;
}

export function agreement(): { total: number; same: number; differ: string[] } {
  let total = 0;
  let same = 0;
  const differ: string[] = [];
  for (const file of ['pandoc.docx', 'libreoffice.docx', 'word-like.docx']) {
    const theirs = readings[file] as string[];
    const ours = equations(file);
    theirs.forEach((tex, index) => {
      total++;
      if (normalise(tex) === normalise(ours[index] ?? '')) same++;
      else differ.push(`${file}#${index}: pandoc ${JSON.stringify(tex)} ours ${JSON.stringify(ours[index])}`);
    });
  }
  return { total, same, differ };
}

/**
 * Where we read a formula otherwise than pandoc 2.17, on purpose: pandoc's reading loses what the
 * file says (the source TeX of pandoc's and LibreOffice's files is corpus.tex).
 */
const DIFFERENT_ON_PURPOSE: Record<string, string> = {
  'pandoc.docx#13': 'an underline (written as a limit "_") is \\underline, not \\underset{\\_}',
  'pandoc.docx#17': 'a bar-less fraction in parentheses is \\binom (pandoc makes it a fraction)',
  'pandoc.docx#28': 'an upright word (\\operatorname{tr}) stays upright',
  'libreoffice.docx#12': "LibreOffice's accent written as a limit (‾) is \\bar",
  'libreoffice.docx#13': "LibreOffice's overline as a limit (¯) is \\overline; an empty limit is nothing",
  'libreoffice.docx#18': 'a linear fraction (m:type lin) stays a/b, as Word shows it',
  'libreoffice.docx#33': 'a linear fraction stays 1/2',
  'word-like.docx#2': 'an arrow over a group (m:groupChr, pos top) is \\overrightarrow',
  'word-like.docx#4': 'm:groupChr without properties is an underbrace (OMML defaults: ⏟, bottom)',
  'word-like.docx#5': 'an arrow under a group is \\underleftarrow (pandoc puts the group over it)',
  'word-like.docx#11': 'the two-headed accent arrow is \\overleftrightarrow over its base',
  'word-like.docx#12': 'm:bar without m:pos is a bar under its base (pandoc drops it)',
  'word-like.docx#18': 'a function name LaTeX does not know is an \\operatorname',
  'word-like.docx#29': 'a linear fraction stays linear',
  'word-like.docx#30': 'a bar-less fraction in parentheses is \\binom',
};

describe('OMML read as pandoc reads it', () => {
  const result = agreement();

  it('agrees with pandoc on every formula of the corpus but those it reads more faithfully', () => {
    console.log(`OMML agreement with pandoc: ${result.same} of ${result.total}`);
    expect(result.total).toBe(136);
    expect(result.differ.map((line) => line.split(':')[0])).toEqual(Object.keys(DIFFERENT_ON_PURPOSE));
  });

  it("reads Word's markup of the issue: angle brackets, a group character on top, bold and script", () => {
    const word = equations('word-like.docx');
    expect(word[0]).toBe('\\left\\langle a \\middle| b\\right\\rangle');
    expect(word[2]).toBe('\\overrightarrow{AB}');
    expect(word[3]).toBe('\\overbrace{x+y}');
    expect(word[6]).toBe('\\mathbf{v}=\\boldsymbol{u}');
    expect(word[7]).toBe('\\mathcal{F}\\mathfrak{A}\\mathbb{N}');
    expect(word[9]).toBe('\\mathbf{x}+\\mathcal{A}+\\mathbb{R}');
    expect(word[13]).toBe('==\\boxed{E}');
    expect(word[14]).toBe('\\begin{matrix}x=1 \\\\ y=2\\end{matrix}');
    expect(word[16]).toBe('\\lim_{n\\to \\infty} a_n');
    expect(word[22]).toBe('{}_1^2F');
    expect(word[28]).toBe('\\sqrt{2}\\sqrt[n]{a}');
    expect(word[34]).toBe('\\phantom{x}y');
  });

  it("reads LibreOffice's styled letters and accents: bold vectors keep their bold", () => {
    const office = equations('libreoffice.docx');
    expect(office[3]).toBe('\\overrightarrow{v}=\\mathbf{v}');
    expect(office[7]).toBe('\\boldsymbol{\\alpha}+\\boldsymbol{\\beta}');
    expect(office[11]).toBe('\\widehat{x}+\\widetilde{y}+\\dot{z}+\\ddot{w}');
  });

  it("keeps pandoc's thin spaces (\\,) and reads matrices in delimiters as their environments", () => {
    const pandoc = equations('pandoc.docx');
    expect(pandoc[19]).toBe('\\int_0^1 f\\left(x\\right)\\,dx');
    expect(pandoc[29]).toBe('\\begin{pmatrix}a & b \\\\ c & d\\end{pmatrix}');
    expect(pandoc[31]).toBe('\\det \\begin{vmatrix}x & y \\\\ z & w\\end{vmatrix}');
  });
});
