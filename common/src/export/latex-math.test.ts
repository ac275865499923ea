import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { fixturePaper } from './fixture-paper';
import { exportLatex } from './latex';
import { checkLatexMath } from './latex-math';
import { prepareDocument } from './model';

const GOOD = [
  'E = mc^2',
  '\\frac{a}{b} + \\sqrt{x^2 + y^2}',
  'A = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}',
  'f(x) = \\begin{cases} 1 & \\text{if } x > 0 \\\\ 0 & \\text{otherwise} \\end{cases}',
  '\\left\\{ x \\mid x \\in \\mathbb{R} \\right\\}',
  '50\\% \\text{ of } \\$10 \\# 3',
  '\\begin{aligned} a &= b \\\\\n c &= d \\end{aligned}',
  '\\setminus \\iff \\overline{x} \\text{x}',
];

const BAD: [string, string][] = [
  ['}\\input{/etc/passwd}', 'unbalanced_braces'],
  ['x \\input{/etc/passwd}', 'forbidden_command'],
  ['\\include{secret}', 'forbidden_command'],
  ['\\immediate\\write18{rm -rf ~}', 'forbidden_command'],
  ['\\openin5=/etc/passwd', 'forbidden_command'],
  ['\\read5 to \\x', 'forbidden_command'],
  ['\\catcode`\\@=11', 'forbidden_command'],
  ['\\def\\x{y}', 'forbidden_command'],
  ['\\let\\x\\y', 'forbidden_command'],
  ['\\csname input\\endcsname{/etc/passwd}', 'forbidden_command'],
  ['\\newcommand{\\x}{y}', 'forbidden_command'],
  ['\\renewcommand{\\x}{y}', 'forbidden_command'],
  ['\\usepackage{shellesc}', 'forbidden_command'],
  ['\\directlua{os.execute("id")}', 'forbidden_command'],
  ['\\scantokens{\\input x}', 'forbidden_command'],
  ['\\everymath{x}', 'forbidden_command'],
  ['\\expandafter\\x', 'forbidden_command'],
  ['x\\)\\input{/etc/passwd}\\(', 'math_exit'],
  ['x$ \\text{out} $', 'math_exit'],
  ['x \\', 'math_exit'],
  ['\\end{equation}\\begin{equation}', 'environment'],
  ['\\begin{pmatrix} 1', 'environment'],
  ['\\begin{verbatim}x\\end{verbatim}', 'environment'],
  ['\\begin{pmatrix} 1 \\end{bmatrix}', 'environment'],
  ['x % the rest of the line', 'comment'],
  ['#1', 'parameter'],
  ['^^5cinput{/etc/passwd}', 'caret_notation'],
  ['a\n\nb', 'blank_line'],
  ['a\u000cb', 'control_character'],
  ['x\r\\)\\input{/etc/passwd}', 'control_character'],
  ['{x', 'unbalanced_braces'],
];

describe('LaTeX math check (issue 50)', () => {
  it.each(GOOD)('takes ordinary math: %s', (source) => {
    expect(checkLatexMath(source)).toEqual({ ok: true });
  });

  it('takes every equation of the fixture paper', () => {
    for (const source of fixturePaper().equations)
      expect(checkLatexMath(source), source).toEqual({ ok: true });
  });

  it.each(BAD)('refuses %j as %s', (source, refusal) => {
    expect(checkLatexMath(source)).toMatchObject({ ok: false, refusal });
  });

  it('exports a refused equation as visible text with the reason, and a good one as math', () => {
    const base = createDocument(schema, standardArticle, { title: 'Math', language: 'en-US' });
    const doc = withBody(base, [
      schema.nodes.paragraph.create(null, [
        schema.text('Good '),
        schema.nodes.equation.create({ equation: 'E = mc^2' }),
        schema.text(' bad '),
        schema.nodes.equation.create({ equation: '}\\input{/etc/passwd}' }),
        schema.text(' end.'),
      ]),
      schema.nodes.figure.create({
        id: 'E1',
        category: 'equation',
        equation: 'x\\end{equation}\\immediate\\write18{id}\\begin{equation}',
      }),
    ]);
    const prepared = prepareDocument(
      { content: doc.toJSON(), threads: [], images: {}, csl: null },
      undefined,
      {
        accepted: true,
      },
    );
    const tex = strFromU8(unzipSync(exportLatex(prepared))['document.tex']);
    expect(tex).toContain('Good \\(E = mc^2\\) bad %\n');
    expect(tex).toContain(
      '% Scriptorium: equation not written as math (unbalanced_braces }); its source follows as text.\n\\texttt{\\}\\textbackslash{}input\\{/etc/passwd\\}} end.',
    );
    expect(tex).toContain(
      '% Scriptorium: equation not written as math (environment \\end{equation}); its source follows as text.\n\\begin{center}\\texttt{x\\textbackslash{}end\\{equation\\}\\textbackslash{}immediate\\textbackslash{}write18\\{id\\}\\textbackslash{}begin\\{equation\\}}\\end{center}',
    );
    // No command of the sources reaches the file as a command.
    expect(tex).not.toMatch(/(?<!textbackslash\{\})\\(input|write18|immediate)/);
  });
});
