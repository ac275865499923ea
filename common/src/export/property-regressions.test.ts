import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { withBody } from '../editor/testing';
import { type ExportFormatName, exportDocument } from './registry';

/**
 * The smallest documents with which export-properties.test.ts found a writer's bug (issue 53,
 * item 7), one test each, so that each fix stays.
 */

const s = schema.nodes;

function article(body: PMNode[]): PMNode {
  return withBody(createDocument(schema, standardArticle, { title: 'Found', language: 'en-US' }), body);
}

async function exported(format: ExportFormatName, doc: PMNode, file = ''): Promise<string> {
  const { data } = await exportDocument(format, {
    content: doc.toJSON(),
    threads: [],
    images: {},
    csl: null,
  });
  return strFromU8(file ? unzipSync(data)[file] : data);
}

describe('exports of the documents the property test found', () => {
  it('JATS keeps a display equation caption (a fig of the equation kind around the disp-formula)', async () => {
    const doc = article([
      s.figure.create({ id: 'E1', category: 'equation', equation: 'E = mc^2', caption: 'Energy' }),
    ]);
    const xml = await exported('jats', doc, 'article.xml');
    expect(xml).toMatch(
      /<p><fig fig-type="equation"><caption><p>Energy<\/p><\/caption><disp-formula id="E1"><label>\(1\)<\/label><alternatives><mml:math display="block">/,
    );
  });

  it('Markdown keeps a display equation caption (a paragraph after the display math)', async () => {
    const doc = article([
      s.figure.create({ id: 'E1', category: 'equation', equation: 'E = mc^2', caption: 'Energy & mass' }),
    ]);
    expect(await exported('markdown', doc)).toContain('$$E = mc^2$$\n\nEnergy & mass\n');
  });

  it('LaTeX keeps a display equation caption (centred after the equation environment)', async () => {
    const doc = article([
      s.figure.create({ id: 'E1', category: 'equation', equation: 'E = mc^2', caption: 'Energy & mass' }),
    ]);
    expect(await exported('latex', doc, 'document.tex')).toMatch(
      /\\begin\{equation\}\\label\{E1\}\nE = mc\^2\n\\end\{equation\}\n\n\\begin\{center\}Energy \\& mass\\end\{center\}/,
    );
  });
});
