import type { FieldValue, Mark, NameValue, RangeValue, RichNode, RichText } from './types';
import { fieldTypeOf } from './validate';

export { plainText } from './plain-text';

function sameMarks(a: Mark[] | undefined, b: Mark[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((mark, i) => mark.type === y[i].type);
}

/**
 * One canonical form for rich text: adjacent text with the same formatting merged, empty text
 * dropped. The BibTeX exporter protects words such as "and" with braces, which the parser reads
 * back as separate nodes; without this a round trip would not give the same entry.
 */
export function normalizeRichText(value: RichText): RichText {
  const out: RichNode[] = [];
  for (const node of value) {
    if (node.type === 'text') {
      if (node.text === '') continue;
      const last = out[out.length - 1];
      if (last && last.type === 'text' && sameMarks(last.marks, node.marks)) {
        out[out.length - 1] = { ...last, text: last.text + node.text };
        continue;
      }
      const copy: RichNode = { type: 'text', text: node.text };
      if (node.marks && node.marks.length > 0) copy.marks = node.marks.map((m) => ({ type: m.type }));
      out.push(copy);
    } else {
      out.push(node);
    }
  }
  return out;
}

function normalizeName(name: NameValue): NameValue {
  const out: NameValue = {};
  for (const part of ['literal', 'family', 'given', 'prefix', 'suffix'] as const) {
    const value = name[part];
    if (value) out[part] = normalizeRichText(value);
  }
  if (name.useprefix !== undefined) out.useprefix = name.useprefix;
  return out;
}

/** Applies normalizeRichText wherever a field of the given name holds rich text. */
export function normalizeFieldValue(field: string, value: FieldValue): FieldValue {
  switch (fieldTypeOf(field)) {
    case 'f_integer':
    case 'f_literal':
    case 'f_long_literal':
    case 'f_title':
      return normalizeRichText(value as RichText);
    case 'f_key':
      return typeof value === 'string' ? value : normalizeRichText(value as RichText);
    case 'l_literal':
      return (value as RichText[]).map(normalizeRichText);
    case 'l_key':
      return (value as (string | RichText)[]).map((v) => (typeof v === 'string' ? v : normalizeRichText(v)));
    case 'l_name':
      return (value as NameValue[]).map(normalizeName);
    case 'l_range':
      return (value as RangeValue[]).map((range) => range.map(normalizeRichText) as RangeValue);
    default:
      return value;
  }
}
