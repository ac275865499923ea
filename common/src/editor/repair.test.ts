import { describe, expect, it } from 'vitest';
import { repairDocument } from './repair';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';

const article = () => createDocument(schema, standardArticle, { title: 'Paper' });

/** The article's JSON with the body part's content replaced. */
function withBodyJson(body: unknown[]) {
  const json = article().toJSON() as { content: { attrs?: { id?: string }; content?: unknown[] }[] };
  for (const part of json.content) if (part.attrs?.id === 'body') part.content = body;
  return json;
}

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

describe('repairDocument', () => {
  it('leaves a valid document as it is', () => {
    const doc = article();
    expect(repairDocument(schema, doc.toJSON())?.eq(doc)).toBe(true);
  });

  it('fills an empty table cell and an empty body, keeping every text', () => {
    const table = {
      type: 'table',
      content: [
        {
          type: 'table_row',
          content: [{ type: 'table_cell' }, { type: 'table_cell', content: [paragraph('Kept')] }],
        },
      ],
    };
    const stored = withBodyJson([paragraph('Before'), table]);
    expect(() => schema.nodeFromJSON(stored).check()).toThrow(RangeError);
    const repaired = repairDocument(schema, stored)!;
    repaired.check();
    expect(repaired.textContent).toBe('PaperBeforeKept');
    const emptyBody = repairDocument(schema, withBodyJson([]))!;
    emptyBody.check();
  });

  it('drops what the schema does not know and keeps the rest', () => {
    const stored = withBodyJson([
      { type: 'hologram', content: [paragraph('Lost')] },
      {
        type: 'paragraph',
        content: [{ type: 'text', text: 'Kept', marks: [{ type: 'sparkle' }, { type: 'strong' }] }],
      },
    ]);
    const repaired = repairDocument(schema, stored)!;
    repaired.check();
    expect(repaired.textContent).toBe('PaperKept');
    let marks: string[] = [];
    repaired.descendants((node) => {
      if (node.isText) marks = node.marks.map((mark) => mark.type.name);
    });
    expect(marks).toEqual(['strong']);
    expect(repairDocument(schema, { type: 'paragraph' })).toBeNull();
    expect(repairDocument(schema, 'nonsense')).toBeNull();
  });
});
