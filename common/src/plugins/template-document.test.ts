import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { checkDocument } from '../editor/templates';
import { documentFromDefinition } from './template-document';
import { summaryPart } from './template-testing';
import { standardDefinition, type TemplateDefinition, templateDefinition } from './templates-api';

function definition(): TemplateDefinition {
  const standard = standardDefinition();
  return {
    ...standard,
    parts: [
      { ...standard.parts[0], initial: 'A subtitle' },
      summaryPart('First paragraph.\n\nSecond paragraph.'),
      { ...standard.parts[3] },
    ],
    citation_styles: ['ieee', 'apa'],
    languages: ['fr-FR'],
  };
}

describe('documentFromDefinition', () => {
  it('makes the parts in order, each with its own copy of what it allows, and the initial texts', () => {
    const doc = documentFromDefinition(schema, 'template-7', 'Chapter', definition());
    expect(doc.attrs).toMatchObject({ template: 'template-7', language: 'fr-FR', citationstyle: 'ieee' });
    const parts: [string, string, string[], string[]][] = [];
    doc.forEach((node) => {
      parts.push([node.type.name, node.textContent, node.attrs.elements ?? [], node.attrs.marks ?? []]);
    });
    expect(parts).toEqual([
      ['title', '', [], []],
      ['heading_part', 'A subtitle', [], ['em', 'strong', 'underline', 'sup', 'sub', 'smallcaps']],
      ['richtext_part', 'First paragraph.Second paragraph.', ['paragraph'], ['em']],
      ['tags_part', '', [], []],
    ]);
    expect(doc.child(2).childCount).toBe(2);
    expect(checkDocument(doc)).toEqual([]);
  });

  it("copies each part's help text into the document, where it outlives the template", () => {
    const doc = documentFromDefinition(schema, 'template-7', 'Chapter', definition());
    const helps: string[] = [];
    doc.forEach((node) => {
      if (node.type.name !== 'title') helps.push(node.attrs.help);
    });
    expect(helps).toEqual(['', 'Two sentences.', '']);
    // Stored and read again (the server's copy), and a document of before help texts.
    const again = schema.nodeFromJSON(JSON.parse(JSON.stringify(doc.toJSON())));
    expect(again.child(2).attrs.help).toBe('Two sentences.');
    const old = doc.toJSON() as { content: { attrs?: Record<string, unknown> }[] };
    for (const part of old.content) delete part.attrs?.help;
    expect(schema.nodeFromJSON(old).child(2).attrs.help).toBe('');
  });

  it('leaves a rich-text part without paragraphs empty rather than breaking its rules', () => {
    const noParagraphs = definition();
    noParagraphs.parts[1] = { ...noParagraphs.parts[1], elements: ['table'] };
    const doc = documentFromDefinition(schema, 'x', 'x', noParagraphs);
    expect(doc.child(2).textContent).toBe('');
  });
});

describe('templateDefinition', () => {
  it('refuses two parts with one id', () => {
    const twice = definition();
    twice.parts[2] = { ...twice.parts[2], id: 'summary' };
    expect(templateDefinition.safeParse(twice).success).toBe(false);
    expect(templateDefinition.safeParse(definition()).success).toBe(true);
  });
});
