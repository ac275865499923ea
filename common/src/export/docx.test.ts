import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { descendants, parseXml, type XmlElement } from '../import/xml';
import { exportDocx } from './docx';
import { fixturePaper } from './fixture-paper';
import { prepareDocument } from './model';
import { latexToOmml } from './omml';

/** DOCX: every operator of an equation reaches Office math as text Word shows; header rows repeat. */

/** Each equation with the operators its OMML text runs must hold. */
const EQUATIONS: [string, string[]][] = [
  ['E = mc^2', ['=']],
  ['a + b - c \\cdot d', ['+', '−', '⋅']],
  ['x \\le y', ['≤']],
  ['\\sum_{i=1}^n i = \\frac{n(n+1)}{2}', ['=', '(', '+', ')']],
];

/** A document whose body is `body` (the standard article's other parts left empty). */
function documentWith(body: PMNode[]): PMNode {
  const base = createDocument(schema, standardArticle, { title: 'Equations', language: 'en-US' });
  return withBody(base, body);
}

function documentXml(doc: PMNode): XmlElement {
  const files = unzipSync(
    exportDocx(prepareDocument({ content: doc.toJSON(), threads: [], images: {}, csl: null })),
  );
  return parseXml(strFromU8(files['word/document.xml']));
}

/** The text of the m:t runs of an m:oMath, and any text outside them (which Word drops). */
function mathText(math: XmlElement): { runs: string; stray: string } {
  let stray = '';
  const walk = (node: XmlElement) => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && (c as XmlElement).nodeName !== 'm:t') walk(c as XmlElement);
      else if (c.nodeType === 3) stray += c.nodeValue ?? '';
    }
  };
  walk(math);
  return {
    runs: descendants(math, 'm:t')
      .map((t) => t.textContent)
      .join(''),
    stray: stray.trim(),
  };
}

describe('DOCX equations', () => {
  const s = schema.nodes;
  const doc = documentWith([
    s.paragraph.create(
      null,
      EQUATIONS.flatMap(([latex]) => [schema.text(' and '), s.equation.create({ equation: latex })]),
    ),
    ...EQUATIONS.map(([latex], index) =>
      s.figure.create({ id: `E${index}`, category: 'equation', equation: latex }),
    ),
  ]);
  const maths = descendants(documentXml(doc), 'm:oMath');

  it('keeps every operator in the text runs of inline and display equations', () => {
    expect(maths).toHaveLength(EQUATIONS.length * 2);
    EQUATIONS.forEach(([latex, operators], index) => {
      for (const math of [maths[index], maths[EQUATIONS.length + index]]) {
        const { runs, stray } = mathText(math);
        expect(stray, latex).toBe('');
        for (const operator of operators) expect(runs, latex).toContain(operator);
      }
    });
  });

  it('makes the sum an n-ary operator whose body is the summand, the "=" after it', () => {
    for (const math of [maths[3], maths[7]]) {
      const nary = descendants(math, 'm:nary');
      expect(nary).toHaveLength(1);
      expect(descendants(nary[0], 'm:chr')[0].getAttribute('m:val')).toBe('∑');
      const body = nary[0].lastChild as XmlElement;
      expect(body.nodeName).toBe('m:e');
      expect(mathText(body)).toEqual({ runs: 'i', stray: '' });
      expect(mathText(math).runs).toBe('i=1ni=n(n+1)2');
    }
  });

  it('ends the body of a large operator at the next relation', () => {
    const omml = latexToOmml('\\int_0^1 x\\,dx + \\sum_k a_k b \\le c', false) ?? '';
    const math = parseXml(omml.replace('<m:oMath', '<m:oMath xmlns:m="m" xmlns:w="w"'));
    const bodies = descendants(math, 'm:e').filter((e) => e.parentNode?.nodeName === 'm:nary');
    expect(bodies.map((body) => mathText(body))).toEqual([
      { runs: 'x dx+kakb', stray: '' },
      { runs: 'akb', stray: '' },
    ]);
    expect(mathText(math).stray).toBe('');
    expect(mathText(math).runs).toBe('01x dx+kakb≤c');
  });
});

describe('DOCX tables', () => {
  it('marks the leading header rows w:tblHeader, repeated on each page', () => {
    const paper = fixturePaper();
    const files = unzipSync(exportDocx(prepareDocument(paper.input)));
    const table = descendants(parseXml(strFromU8(files['word/document.xml'])), 'w:tbl')[0];
    const rows = descendants(table, 'w:tr').map((row) => ({
      text: descendants(row, 'w:t')
        .map((t) => t.textContent)
        .join(' '),
      header: descendants(row, 'w:tblHeader').length === 1,
    }));
    expect(rows).toEqual([
      { text: 'Group Results', header: true },
      { text: 'Mean Deviation', header: true },
      { text: 'A 1.5 0.2', header: false },
      { text: 'B 2.5', header: false },
    ]);
  });
});
