import { BibFieldTypes, BibTypes, edtfParse } from 'biblatex-csl-converter';
import { MAX_ID } from '../api/fields';
import { MAX_ENTRY_KEY_LENGTH } from './entry-key';
import type { EntryData } from './types';

/** Why a value was refused; the browser translates the code (namespace bibliography, `problem.<code>`). */
export type ProblemCode =
  | 'entry_key'
  | 'bib_type'
  | 'unknown_field'
  | 'invalid_value'
  | 'invalid_date'
  | 'invalid_uri'
  | 'invalid_option'
  | 'invalid_category'
  | 'too_long'
  | 'required';

export interface EntryProblem {
  /** The field name, or null for the entry itself (key, type, categories). */
  field: string | null;
  code: ProblemCode;
}

/** Marks the converter produces from LaTeX (\emph, \textbf, \textsc, braces, ...). */
export const RICH_TEXT_MARKS = [
  'em',
  'strong',
  'smallcaps',
  'sup',
  'sub',
  'enquote',
  'nocase',
  'url',
] as const;
const MARKS = new Set<string>(RICH_TEXT_MARKS);
const NAME_PARTS = ['literal', 'family', 'given', 'prefix', 'suffix'] as const;

export { MAX_ENTRY_KEY_LENGTH };
/** Generous for abstracts, small enough that one entry cannot fill the database. */
export const MAX_TEXT_LENGTH = 100_000;
export const MAX_LIST_LENGTH = 5_000;

export type FieldType =
  | 'f_date'
  | 'f_integer'
  | 'f_key'
  | 'f_literal'
  | 'f_long_literal'
  | 'f_title'
  | 'f_uri'
  | 'f_verbatim'
  | 'l_key'
  | 'l_literal'
  | 'l_name'
  | 'l_range'
  | 'l_tag';

export function isBibType(name: string): boolean {
  return Object.hasOwn(BibTypes, name);
}

export function fieldTypeOf(field: string): FieldType | null {
  return Object.hasOwn(BibFieldTypes, field) ? (BibFieldTypes[field].type as FieldType) : null;
}

/** The fixed choices of a key field: plain option names, or the keys of an option map (langid). */
export function fieldOptions(field: string): string[] | null {
  const options = Object.hasOwn(BibFieldTypes, field) ? BibFieldTypes[field].options : undefined;
  if (!options) return null;
  return Array.isArray(options) ? options : Object.keys(options);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Counts characters while checking, so that the length limit covers the whole rich text. */
function richTextLength(value: unknown): number | null {
  if (!Array.isArray(value)) return null;
  let length = 0;
  for (const node of value) {
    if (!isRecord(node)) return null;
    if (node.type === 'text') {
      if (typeof node.text !== 'string') return null;
      if (node.marks !== undefined) {
        if (!Array.isArray(node.marks)) return null;
        for (const mark of node.marks) if (!isRecord(mark) || !MARKS.has(String(mark.type))) return null;
      }
      length += node.text.length;
    } else if (node.type === 'variable') {
      if (!isRecord(node.attrs) || typeof node.attrs.variable !== 'string') return null;
      length += node.attrs.variable.length;
    } else {
      return null;
    }
  }
  return length;
}

function checkRichText(value: unknown): ProblemCode | null {
  const length = richTextLength(value);
  if (length === null) return 'invalid_value';
  return length > MAX_TEXT_LENGTH ? 'too_long' : null;
}

function checkList(value: unknown, item: (v: unknown) => ProblemCode | null): ProblemCode | null {
  if (!Array.isArray(value)) return 'invalid_value';
  if (value.length > MAX_LIST_LENGTH) return 'too_long';
  for (const v of value) {
    const problem = item(v);
    if (problem) return problem;
  }
  return null;
}

function checkName(value: unknown): ProblemCode | null {
  if (!isRecord(value)) return 'invalid_value';
  let parts = 0;
  for (const [key, part] of Object.entries(value)) {
    if (key === 'useprefix') {
      if (typeof part !== 'boolean') return 'invalid_value';
      continue;
    }
    if (!(NAME_PARTS as readonly string[]).includes(key)) return 'invalid_value';
    const problem = checkRichText(part);
    if (problem) return problem;
    parts++;
  }
  // A literal name stands alone; a personal name needs at least one part.
  if (parts === 0 || (value.literal !== undefined && parts > 1)) return 'invalid_value';
  return null;
}

function checkRange(value: unknown): ProblemCode | null {
  if (!Array.isArray(value) || value.length < 1 || value.length > 2) return 'invalid_value';
  for (const end of value) {
    const problem = checkRichText(end);
    if (problem) return problem;
  }
  return null;
}

/** URIs as the importer lets them through: no spaces, scheme or host-like start. */
export function isUri(value: string): boolean {
  return (
    value.length > 0 &&
    value.length <= 2000 &&
    !/\s/.test(value) &&
    (/^[a-z][a-z0-9+.-]*:/i.test(value) || /^(\/\/)?[^/.]+\.[^/]+/.test(value))
  );
}

function checkKey(field: string, value: unknown, allowRichText: boolean): ProblemCode | null {
  const options = fieldOptions(field);
  if (typeof value === 'string') {
    if (options && !options.includes(value)) return 'invalid_option';
    return value.length > 1000 ? 'too_long' : null;
  }
  // Free text is allowed where the option list is not strict (e.g. a custom thesis type).
  if (allowRichText && !BibFieldTypes[field].strict) return checkRichText(value);
  return 'invalid_option';
}

function checkString(value: unknown, max: number): ProblemCode | null {
  if (typeof value !== 'string') return 'invalid_value';
  return value.length > max ? 'too_long' : null;
}

/** Checks one field value against its type in the converter's model. */
export function checkFieldValue(field: string, value: unknown): ProblemCode | null {
  const type = fieldTypeOf(field);
  if (!type) return 'unknown_field';
  switch (type) {
    case 'f_date':
      if (typeof value !== 'string') return 'invalid_value';
      return value.length <= 200 && edtfParse(value).valid ? null : 'invalid_date';
    case 'f_integer':
    case 'f_literal':
    case 'f_long_literal':
    case 'f_title':
      return checkRichText(value);
    case 'f_key':
      return checkKey(field, value, true);
    case 'f_uri':
      if (typeof value !== 'string') return 'invalid_value';
      return isUri(value) ? null : 'invalid_uri';
    case 'f_verbatim':
      return checkString(value, MAX_TEXT_LENGTH);
    case 'l_key':
      return checkList(value, (v) => checkKey(field, v, true));
    case 'l_literal':
      return checkList(value, checkRichText);
    case 'l_name':
      return checkList(value, checkName);
    case 'l_range':
      return checkList(value, checkRange);
    case 'l_tag':
      return checkList(value, (v) => checkString(v, 1000));
  }
}

/**
 * Checks an entry against the converter's model: a known type, known fields with values of their
 * type, a usable key and category ids. Missing required fields are not an error here: imported
 * libraries are full of incomplete entries, and the editor explains them (see missingRequired).
 */
export function validateEntry(input: unknown): EntryProblem[] {
  if (!isRecord(input)) return [{ field: null, code: 'invalid_value' }];
  const problems: EntryProblem[] = [];
  const key = input.entry_key;
  if (typeof key !== 'string' || key.trim() === '' || key.length > MAX_ENTRY_KEY_LENGTH) {
    problems.push({ field: null, code: 'entry_key' });
  }
  if (typeof input.bib_type !== 'string' || !isBibType(input.bib_type))
    problems.push({ field: null, code: 'bib_type' });
  if (input.cats !== undefined) {
    const cats = input.cats;
    if (
      !Array.isArray(cats) ||
      cats.length > 1000 ||
      !cats.every((c) => Number.isSafeInteger(c) && c > 0 && c <= MAX_ID)
    ) {
      problems.push({ field: null, code: 'invalid_category' });
    }
  }
  if (!isRecord(input.fields)) {
    problems.push({ field: null, code: 'invalid_value' });
    return problems;
  }
  for (const [field, value] of Object.entries(input.fields)) {
    const code = checkFieldValue(field, value);
    if (code) problems.push({ field, code });
  }
  return problems;
}

/** True when a value carries no content (an empty string, list or rich text). */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) {
    return value.every((item) =>
      isRecord(item) && item.type === 'text' ? String(item.text).trim() === '' : isEmptyValue(item),
    );
  }
  if (isRecord(value)) {
    if (value.type === 'text') return String(value.text).trim() === '';
    if (value.type === 'variable') return false;
    return Object.entries(value).every(([k, v]) => k === 'useprefix' || isEmptyValue(v));
  }
  return false;
}

/**
 * The required fields of the type that are empty. An either-or group (e.g. date or year in some
 * types) counts as filled when one of its fields is.
 */
export function missingRequired(data: Pick<EntryData, 'bib_type' | 'fields'>): {
  required: string[];
  eitheror: boolean;
} {
  const type = BibTypes[data.bib_type];
  if (!type) return { required: [], eitheror: false };
  const required = type.required.filter((field) => isEmptyValue(data.fields[field]));
  const eitheror =
    type.eitheror.length > 0 && type.eitheror.every((field) => isEmptyValue(data.fields[field]));
  return { required, eitheror };
}

/** Drops empty values, so that stored entries only hold what carries content. */
export function withoutEmptyFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => !isEmptyValue(value)));
}
