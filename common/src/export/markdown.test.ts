import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../import/markdown';
import { fixturePaper } from './fixture-paper';
import { documentMarkdown } from './markdown';
import { prepareDocument } from './model';

function count(nodes: readonly PMNode[], type: string): number {
  let n = 0;
  for (const node of nodes) {
    if (node.type.name === type) n++;
    node.descendants((child) => {
      if (child.type.name === type) n++;
      return true;
    });
  }
  return n;
}

describe('Markdown export (pandoc Markdown)', () => {
  const paper = fixturePaper();
  const prepared = prepareDocument(paper.input, undefined, { accepted: true });
  const markdown = documentMarkdown(prepared);
  const [, header, body] = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(markdown) ?? [];

  it('writes a YAML header with the title, lang and every cited entry as a CSL item', () => {
    expect(header).toContain(`title: ${JSON.stringify(prepared.title)}`);
    expect(header).toContain('lang: "en-US"');
    const references = header.split('\n').filter((line) => line.startsWith('  - {'));
    expect(references).toHaveLength(paper.entries);
    for (const line of references) expect(JSON.parse(line.slice(4))).toHaveProperty('type');
  });

  it('writes headings, equations, footnotes and pandoc citations', () => {
    // Numbered as the document's heading numbering says (decimal by default).
    for (const heading of paper.headings)
      expect(body).toMatch(new RegExp(`^#+ \\d+(\\.\\d+)* ${heading}$`, 'm'));
    for (const latex of paper.equations) expect(body).toContain(latex.trim());
    for (const [index, note] of paper.footnotes.entries()) expect(body).toContain(`[^${index + 1}]: ${note}`);
    expect(body).toMatch(/\[@[\w-]+[^\]]*\]/);
    expect(body).toContain(': Measured values');
  });

  it('reads back what it wrote: the same headings, equations, notes, citations and tables', () => {
    const keys = new Map<string, string>();
    for (const line of header.split('\n').filter((l) => l.startsWith('  - {'))) {
      const item = JSON.parse(line.slice(4)) as { id: string };
      keys.set(item.id, item.id);
    }
    const read = parseMarkdown(body, {
      citation: (key) => (keys.has(key) ? key : null),
      image: (src) => (src.startsWith('/media/') ? { image: 1, src } : null),
    });
    expect(read.unknownCitations).toEqual([]);
    const blocks: PMNode[] = [];
    read.content.forEach((block) => {
      blocks.push(block);
    });
    for (const type of ['heading', 'equation', 'footnote', 'citation', 'table', 'figure', 'ordered_list'])
      expect([type, count(blocks, type)]).toEqual([type, count(prepared.body, type)]);
  });
});

describe('Markdown import', () => {
  const resolvers = {
    citation: (key: string) => ({ doe2020: '1-7', roe: '1-8' })[key] ?? null,
    image: () => null,
  };

  it('reads citations (bracketed with prefix and locator, textual), math, notes, sup, sub and spans', () => {
    const { content, unknownCitations, unknownImages } = parseMarkdown(
      [
        'As @doe2020 [p. 3] said [see @doe2020, p. 4; @roe], $E=mc^2$, H~2~O, x^2^, [U]{.underline} and a note[^n].',
        '',
        'Unknown [@nokey], mail a@b.org and ![Alt](https://example.org/x.png).',
        '',
        '[^n]: The note.',
      ].join('\n'),
      resolvers,
    );
    const [first, second] = content.toJSON() as { content: Record<string, unknown>[] }[];
    expect(first.content).toContainEqual({
      type: 'citation',
      attrs: { format: 'textcite', references: [{ id: '1-7', prefix: '', locator: 'p. 3' }] },
    });
    expect(first.content).toContainEqual({
      type: 'citation',
      attrs: {
        format: 'autocite',
        references: [
          { id: '1-7', prefix: 'see', locator: 'p. 4' },
          { id: '1-8', prefix: '', locator: '' },
        ],
      },
    });
    expect(first.content).toContainEqual({ type: 'equation', attrs: { equation: 'E=mc^2' } });
    expect(first.content).toContainEqual({ type: 'text', marks: [{ type: 'sub' }], text: '2' });
    expect(first.content).toContainEqual({ type: 'text', marks: [{ type: 'sup' }], text: '2' });
    expect(first.content).toContainEqual({ type: 'text', marks: [{ type: 'underline' }], text: 'U' });
    expect(first.content).toContainEqual({
      type: 'footnote',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'The note.' }] }],
    });
    // What cannot be resolved stays as written, and is reported.
    expect(second.content).toEqual([{ type: 'text', text: 'Unknown [@nokey], mail a@b.org and Alt.' }]);
    expect(unknownCitations).toEqual(['nokey']);
    expect(unknownImages).toEqual(['https://example.org/x.png']);
  });

  it('reads display math, pipe tables with their caption and fenced code', () => {
    const { content } = parseMarkdown(
      '$$\n\\int_0^1 x\\,dx\n$$\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n: Values\n\n```python\nprint(1)\n```\n',
      resolvers,
    );
    const [math, table, code] = content.toJSON() as { type: string; attrs: Record<string, unknown> }[];
    expect(math).toMatchObject({
      type: 'figure',
      attrs: { category: 'equation', equation: '\\int_0^1 x\\,dx' },
    });
    expect(table).toMatchObject({ type: 'table', attrs: { caption: 'Values' } });
    expect(code).toMatchObject({ type: 'code_block', attrs: { language: 'python' } });
  });

  it('gives an empty paragraph for empty input, never an invalid fragment', () => {
    expect(parseMarkdown('', resolvers).content.toJSON()).toEqual([{ type: 'paragraph' }]);
  });
});
