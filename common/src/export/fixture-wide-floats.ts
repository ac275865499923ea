import { stripedPng } from './fixture-paper';
import type { ExportInput } from './model';

/**
 * Floats wider than a column (issue 53; spansColumns in latex-classes.ts) added to a fixture paper:
 * its first figure at its full width with an image four times as wide as high, and a table of five
 * columns ("Wide values", id T9) after its first table. In two columns both span the page.
 */

interface Json {
  type?: string;
  attrs?: Record<string, unknown>;
  content?: Json[];
  text?: string;
}

const cell = (text: string, type = 'table_cell'): Json => ({
  type,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

export const WIDE_TABLE_CAPTION = 'Wide values';

export function withWideFloats(input: ExportInput): ExportInput {
  const [first] = Object.keys(input.images).sort();
  const images = {
    ...input.images,
    [first]: { data: stripedPng(400, 100, [40, 90, 160]), type: 'image/png' },
  };
  const table: Json = {
    type: 'table',
    attrs: { id: 'T9', caption: WIDE_TABLE_CAPTION },
    content: [
      {
        type: 'table_row',
        content: ['Run', 'Alpha', 'Beta', 'Gamma', 'Delta'].map((text) => cell(text, 'table_header')),
      },
      { type: 'table_row', content: ['1', '0.11', '0.12', '0.13', '0.14'].map((text) => cell(text)) },
    ],
  };
  const content = structuredClone(input.content) as Json;
  const widen = (node: Json): void => {
    if (node.type === 'figure' && node.attrs?.src === first) node.attrs.width = 100;
    for (const child of node.content ?? []) widen(child);
  };
  widen(content);
  const visit = (node: Json): boolean => {
    const at = (node.content ?? []).findIndex((child) => child.type === 'table');
    if (at >= 0) {
      node.content?.splice(at + 1, 0, table);
      return true;
    }
    return (node.content ?? []).some(visit);
  };
  if (!visit(content)) throw new Error('the paper has no table');
  return { ...input, images, content: content as ExportInput['content'] };
}
