import { strFromU8, unzipSync } from 'fflate';
import type { Node as PMNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import { exportNative } from '../exchange/native';
import { type ExportFormatName, exportDocument } from '../export/registry';
import { importDocument } from '../import/index';
import { hasUnsafeLink, isSafeHref, uriHref, withoutUnsafeLinks } from './safe-links';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';
import { stepsOf, withBody } from './testing';

const FORBIDDEN = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'java\tscript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example/x',
  'relative/path',
  'https://',
  'https://example.org/\u0000x',
  '#',
  '#a b',
];

const ALLOWED = [
  'https://example.org/a?b=c#d',
  'http://example.org',
  'mailto:ada@example.org',
  '#sec-1',
  '#c2-intro',
];

function paper(...links: string[]): PMNode {
  const base = createDocument(schema, standardArticle, { title: 'Links', language: 'en-US' });
  return withBody(
    base,
    links.map((href, index) =>
      schema.nodes.paragraph.create(null, [
        schema.text('See '),
        schema.text(`target ${index}`, [schema.marks.link.create({ href })]),
      ]),
    ),
  );
}

/** Every file of a zip as text, joined (the formats write XML, XHTML and TeX). */
function allText(data: Uint8Array): string {
  return Object.values(unzipSync(data))
    .map((file) => strFromU8(file))
    .join('\n');
}

describe('link targets (issue 50)', () => {
  it('allows the web, mail and places in the document, nothing else', () => {
    for (const href of ALLOWED) expect(isSafeHref(href), href).toBe(true);
    for (const href of FORBIDDEN) expect(isSafeHref(href), href).toBe(false);
  });

  it('finds a forbidden link in a step that adds it, not in one that removes it', () => {
    const doc = paper('https://example.org');
    let from = -1;
    doc.descendants((node, pos) => {
      if (from < 0 && node.isText && node.text === 'See ') from = pos;
      return from < 0;
    });
    const added = stepsOf(doc, (tr) =>
      tr.addMark(from, from + 3, schema.marks.link.create({ href: 'javascript:alert(1)' })),
    );
    expect(added).toHaveLength(1);
    expect(hasUnsafeLink(added)).toBe(true);
    const inserted = stepsOf(doc, (tr) =>
      tr.insert(from, schema.text('x', [schema.marks.link.create({ href: 'data:text/html,x' })])),
    );
    expect(hasUnsafeLink(inserted)).toBe(true);
    const removed = [
      { stepType: 'removeMark', from, to: from + 3, mark: { type: 'link', attrs: { href: 'javascript:x' } } },
    ];
    expect(hasUnsafeLink(removed)).toBe(false);
    const safe = stepsOf(doc, (tr) =>
      tr.addMark(from, from + 3, schema.marks.link.create({ href: 'https://example.org' })),
    );
    expect(hasUnsafeLink(safe)).toBe(false);
  });

  it('drops a forbidden link from stored JSON and keeps its text', () => {
    const json = paper('javascript:alert(1)', 'https://example.org').toJSON();
    const clean = schema.nodeFromJSON(withoutUnsafeLinks(json));
    const links: string[] = [];
    clean.descendants((node) => {
      for (const mark of node.marks) if (mark.type.name === 'link') links.push(String(mark.attrs.href));
      return true;
    });
    expect(links).toEqual(['https://example.org']);
    expect(clean.textContent).toContain('See target 0');
    // Nothing to drop: the very same object.
    const safe = paper('https://example.org').toJSON();
    expect(withoutUnsafeLinks(safe)).toBe(safe);
  });

  it('shows a stored forbidden link as text in the editor, never as a target', () => {
    const toDOM = schema.marks.link.spec.toDOM as NonNullable<typeof schema.marks.link.spec.toDOM>;
    expect(toDOM(schema.marks.link.create({ href: 'javascript:alert(1)' }), true)).toEqual(['a', {}, 0]);
    expect(toDOM(schema.marks.link.create({ href: 'https://example.org' }), true)).toEqual([
      'a',
      { href: 'https://example.org' },
      0,
    ]);
  });

  it.each(['docx', 'odt', 'html', 'epub', 'jats', 'latex', 'native'] satisfies ExportFormatName[])(
    'never writes a forbidden link into %s, and keeps its text',
    async (format) => {
      const doc = paper(
        'javascript:alert(1)',
        'data:text/html,x',
        'vbscript:msgbox(1)',
        'https://example.org/kept',
      );
      const file = await exportDocument(format, {
        content: doc.toJSON(),
        threads: [],
        images: {},
        csl: null,
      });
      const text = allText(file.data);
      expect(text).not.toMatch(/javascript:|data:text|vbscript:/i);
      expect(text).toContain('https://example.org/kept');
      for (const index of [0, 1, 2]) expect(text).toContain(`target ${index}`);
    },
  );

  it('imports our own zip with a forbidden link as its text only', () => {
    const doc = paper('javascript:alert(1)', 'mailto:ada@example.org');
    const zip = exportNative({
      title: 'Links',
      content: doc.toJSON(),
      bibliography: [],
      threads: [],
      images: [],
    });
    const imported = importDocument(zip, 'links.zip');
    expect(JSON.stringify(imported.content)).not.toContain('javascript:');
    expect(JSON.stringify(imported.content)).toContain('mailto:ada@example.org');
    expect(schema.nodeFromJSON(imported.content).textContent).toContain('See target 0');
  });

  it('writes a target as a valid URI for validators, keeping what is valid as it is', () => {
    expect(uriHref('https://example.org/a?b=1&c=<2>')).toBe('https://example.org/a?b=1&c=%3C2%3E');
    expect(uriHref('https://example.org/x%20y%2')).toBe('https://example.org/x%20y%252');
    expect(uriHref('https://example.org/{a}|b^`c`"d"')).toBe(
      'https://example.org/%7Ba%7D%7Cb%5E%60c%60%22d%22',
    );
    expect(uriHref('mailto:ada@example.org')).toBe('mailto:ada@example.org');
    expect(uriHref('#sec-1')).toBe('#sec-1');
  });
});
