import type { RichText } from './types';

/**
 * The text of rich text, without formatting. A module of its own: what only shows entries (the
 * editor's citation search) need not load the field tables of biblatex-csl-converter, which
 * rich-text.ts reads through validate.ts.
 */
export function plainText(value: RichText | undefined): string {
  if (!value) return '';
  let text = '';
  for (const node of value) text += node.type === 'text' ? node.text : node.attrs.variable;
  return text;
}
