import { normalizeRichText, plainText } from '@scriptorium/common/bibliography/rich-text';
import type { FieldValue, NameValue, RangeValue, RichText } from '@scriptorium/common/bibliography/types';
import { type FieldType, fieldOptions, fieldTypeOf } from '@scriptorium/common/bibliography/validate';

/** One name in the editor: a person (family, given, prefix, suffix) or an organisation (literal). */
export interface NameForm {
  kind: 'person' | 'organisation';
  family: string;
  given: string;
  prefix: string;
  suffix: string;
  literal: string;
}

/**
 * What the editor holds per field type: rich text for titles and literals (RichText[] for
 * l_literal), names as NameForm[], key lists as string[], the rest as text.
 */
export type FormValue = string | string[] | NameForm[] | RichText | RichText[];

export function emptyName(): NameForm {
  return { kind: 'person', family: '', given: '', prefix: '', suffix: '', literal: '' };
}

const rich = (text: string): RichText => [{ type: 'text', text }];

/** Keeps the original rich text (with its formatting) when the visible text did not change. */
function richFrom(text: string, original: FieldValue | undefined): RichText {
  if (Array.isArray(original) && plainText(original as RichText) === text) return original as RichText;
  return rich(text);
}

/** Field types edited with the rich-text editor. */
export function isRichTextType(type: FieldType | null): boolean {
  return type === 'f_title' || type === 'f_literal' || type === 'f_long_literal' || type === 'l_literal';
}

/** Canonical rich text without spaces at its ends, or null when nothing is left. */
function trimRichText(value: RichText): RichText | null {
  const nodes = normalizeRichText(value);
  // Blank text with other marks than its neighbour is a node of its own: trim until none is left.
  while (nodes[0]?.type === 'text' && nodes[0].text.trimStart() !== nodes[0].text) {
    const text = nodes[0].text.trimStart();
    if (text) nodes[0] = { ...nodes[0], text };
    else nodes.shift();
  }
  let last = nodes[nodes.length - 1];
  while (last?.type === 'text' && last.text.trimEnd() !== last.text) {
    const text = last.text.trimEnd();
    if (text) nodes[nodes.length - 1] = { ...last, text };
    else nodes.pop();
    last = nodes[nodes.length - 1];
  }
  return nodes.length > 0 ? nodes : null;
}

function asRichText(value: FieldValue): RichText {
  return Array.isArray(value) ? (value as RichText) : rich(String(value));
}

/** The editor's value for a stored field value. */
export function toForm(field: string, value: FieldValue | undefined): FormValue {
  const type = fieldTypeOf(field);
  if (value === undefined) {
    if (type === 'l_name' || type === 'l_key' || isRichTextType(type)) return [];
    return '';
  }
  switch (type) {
    case 'f_title':
    case 'f_literal':
    case 'f_long_literal':
      return asRichText(value);
    case 'l_name':
      return (value as NameValue[]).map((name) =>
        name.literal
          ? { ...emptyName(), kind: 'organisation' as const, literal: plainText(name.literal) }
          : {
              kind: 'person' as const,
              family: plainText(name.family),
              given: plainText(name.given),
              prefix: plainText(name.prefix),
              suffix: plainText(name.suffix),
              literal: '',
            },
      );
    case 'l_range':
      return (value as RangeValue[]).map((range) => range.map((end) => plainText(end)).join('–')).join(', ');
    case 'l_literal':
      return Array.isArray(value) ? (value as FieldValue[]).map(asRichText) : [asRichText(value)];
    case 'l_key':
      return (value as (string | RichText)[]).map((item) =>
        typeof item === 'string' ? item : plainText(item),
      );
    case 'l_tag':
      return (value as string[]).join(', ');
    case 'f_key':
      return typeof value === 'string' ? value : plainText(value as RichText);
    case 'f_date':
    case 'f_uri':
    case 'f_verbatim':
      return String(value);
    default:
      return plainText(value as RichText);
  }
}

function nameValue(name: NameForm, original: NameValue | undefined): NameValue | null {
  if (name.kind === 'organisation') {
    const literal = name.literal.trim();
    return literal ? { literal: richFrom(literal, original?.literal) } : null;
  }
  const out: NameValue = {};
  for (const part of ['family', 'given', 'prefix', 'suffix'] as const) {
    const text = name[part].trim();
    if (text) out[part] = richFrom(text, original?.[part]);
  }
  if (out.prefix) out.useprefix = original?.useprefix ?? true;
  return Object.keys(out).length > 0 ? out : null;
}

/** The stored value for an editor value; undefined when the field is left empty. */
export function fromForm(
  field: string,
  form: FormValue,
  original: FieldValue | undefined,
): FieldValue | undefined {
  const type = fieldTypeOf(field);
  switch (type) {
    case 'l_name': {
      const names = (form as NameForm[])
        .map((name, index) => nameValue(name, (original as NameValue[] | undefined)?.[index]))
        .filter((name): name is NameValue => name !== null);
      return names.length > 0 ? names : undefined;
    }
    case 'l_key': {
      const keys = form as string[];
      return keys.length > 0 ? keys : undefined;
    }
    case 'f_title':
    case 'f_literal':
    case 'f_long_literal':
      return trimRichText(form as RichText) ?? undefined;
    case 'l_literal': {
      // Empty lines (an item just started, or emptied) are no items.
      const items = (form as RichText[]).map(trimRichText).filter((item): item is RichText => item !== null);
      return items.length > 0 ? items : undefined;
    }
    default:
      break;
  }
  const text = (form as string).trim();
  if (text === '') return undefined;
  switch (type) {
    case 'l_range':
      return text
        .split(/\s*,\s*/)
        .filter(Boolean)
        .map((part) => {
          const ends = part.split(/\s*(?:--|–|—|-)\s*/).filter(Boolean);
          return (ends.length >= 2 ? [rich(ends[0]), rich(ends[1])] : [rich(ends[0] ?? part)]) as RangeValue;
        });
    case 'l_tag':
      return text
        .split(/[,;]/)
        .map((tag) => tag.trim())
        .filter(Boolean);
    case 'f_key':
      // A choice from the list stays a key; free text (allowed where not strict) is rich text.
      return fieldOptions(field)?.includes(text) ? text : richFrom(text, original);
    case 'f_date':
    case 'f_uri':
    case 'f_verbatim':
      return text;
    default:
      return richFrom(text, original);
  }
}
