import { parseENW, parseNBIB, parseRIS } from 'biblatex-csl-converter';
import {
  adoptEntries,
  type ConverterProblem,
  converterMessages,
  type ImportMessage,
  type ImportResult,
  type ParsedEntry,
} from './import-bibtex';
import type { NameValue, RichText } from './types';

/** The line-tagged formats of other reference managers: RIS, EndNote (.enw), PubMed (.nbib). */
export type TaggedFormat = 'ris' | 'enw' | 'nbib';

type TaggedReader = (input: string) => {
  entries: Record<number, unknown>;
  errors: ConverterProblem[];
  warnings: ConverterProblem[];
};

const READERS: Record<TaggedFormat, TaggedReader> = { ris: parseRIS, enw: parseENW, nbib: parseNBIB };

/** The lines that name creators. */
const CREATOR_TAG: Record<TaggedFormat, RegExp | null> = {
  ris: /^(?:AU|A[1-4]|ED) {2}- (.*)$/,
  enw: /^%[AEY] (.*)$/,
  nbib: null, // PubMed writes every person as "Family, Given" (FAU)
};

/**
 * Creators written without a comma. RIS and EndNote write persons as "Family, Given"; a name
 * without a comma is an organisation ("World Health Organization"), which the reader would
 * otherwise split into a given and a family name.
 */
function organisationsIn(input: string, format: TaggedFormat): Set<string> {
  const creator = CREATOR_TAG[format];
  const names = new Set<string>();
  if (!creator) return names;
  for (const line of input.split(/\r?\n/)) {
    const name = creator.exec(line)?.[1].trim();
    if (name && !name.includes(',')) names.add(name);
  }
  return names;
}

const text = (value: RichText | undefined) =>
  (value ?? []).map((node) => (node.type === 'text' ? node.text : '')).join('');

function asOrganisation(name: NameValue, organisations: Set<string>): NameValue {
  if (name.literal || organisations.size === 0) return name;
  const whole = [text(name.given), text(name.prefix), text(name.family)].filter(Boolean).join(' ');
  return organisations.has(whole) ? { literal: [{ type: 'text', text: whole }] } : name;
}

/** "1735-80" in PubMed means pages 1735 to 1780. */
function fullEndPage(start: string, end: string): string {
  return /^\d+$/.test(start) && /^\d+$/.test(end) && end.length < start.length
    ? start.slice(0, start.length - end.length) + end
    : end;
}

/**
 * The readers put a page range's two ends into one rich text ([[start, end]] instead of
 * [[start], [end]]): split them, or "1735–1780" would become "17351780".
 */
function repairRanges(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((range) => {
    if (!Array.isArray(range) || range.length !== 1) return range;
    const [end] = range as RichText[];
    if (!Array.isArray(end) || end.length !== 2 || end.some((node) => node.type !== 'text')) return range;
    const [from, to] = end.map((node) => (node.type === 'text' ? node.text.trim() : ''));
    return [[{ type: 'text', text: from }], [{ type: 'text', text: fullEndPage(from, to) }]];
  });
}

/** RIS dates are "YYYY/MM/DD/other info" with optional parts; the model wants EDTF. */
function repairDate(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const match = /^(\d{4})(?:[/-](\d{1,2})?)?(?:[/-](\d{1,2})?)?(?:\/.*)?$/.exec(value.trim());
  if (!match) return value;
  const [, year, month, day] = match;
  if (!month) return year;
  const mm = month.padStart(2, '0');
  return day ? `${year}-${mm}-${day.padStart(2, '0')}` : `${year}-${mm}`;
}

const NAME_FIELDS = new Set(['author', 'editor', 'editora', 'editorb', 'editorc', 'translator', 'holder']);
const RANGE_FIELDS = new Set(['pages']);
const DATE_FIELDS = new Set(['date', 'urldate', 'origdate', 'eventdate']);

function repairEntry(entry: ParsedEntry, organisations: Set<string>): ParsedEntry {
  const fields: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(entry.fields)) {
    if (NAME_FIELDS.has(field) && Array.isArray(value))
      fields[field] = (value as NameValue[]).map((name) => asOrganisation(name, organisations));
    else if (RANGE_FIELDS.has(field)) fields[field] = repairRanges(value);
    else if (DATE_FIELDS.has(field)) fields[field] = repairDate(value);
    else fields[field] = value;
  }
  return { ...entry, fields };
}

/**
 * EndNote records are separated by blank lines and must carry a `%0` type line, which the reader
 * needs to see a record at all: a record without one gets `%0 Generic` (reported), so that it is
 * neither lost nor merged into the next.
 */
function typedEndNoteRecords(input: string, messages: ImportMessage[]): string {
  const lines = input.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  /** The line of the file each line of `out` comes from (for the report). */
  const lineOf: number[] = [];
  let recordStart = -1;
  let hasType = false;
  const finish = () => {
    if (recordStart >= 0 && !hasType) {
      out.splice(recordStart, 0, '%0 Generic');
      messages.push({ level: 'warning', code: 'enw_type_missing', entry: null, line: lineOf[recordStart] });
    }
    recordStart = -1;
    hasType = false;
  };
  lines.forEach((line, index) => {
    if (line.trim() === '') finish();
    else if (/^%[0-9A-Z@!]\s/.test(line)) {
      if (recordStart < 0) recordStart = out.length;
      if (line.startsWith('%0')) hasType = true;
    }
    out.push(line);
    lineOf.push(index + 1);
  });
  finish();
  return out.join('\n');
}

/** Reads RIS, EndNote tagged or PubMed text into entry data and a report, like importBibtex. */
export function importTagged(input: string, format: TaggedFormat): ImportResult {
  const typeMessages: ImportMessage[] = [];
  const withoutBom = input.replace(/^\uFEFF/, '');
  const clean = format === 'enw' ? typedEndNoteRecords(withoutBom, typeMessages) : withoutBom;
  let result: ReturnType<TaggedReader>;
  try {
    result = READERS[format](clean);
  } catch {
    return { entries: [], messages: [{ level: 'error', code: 'unreadable', entry: null }] };
  }
  const organisations = organisationsIn(clean, format);
  const parsed = Object.values(result.entries as Record<number, ParsedEntry>).map((entry) =>
    repairEntry(entry, organisations),
  );
  const messages = [...typeMessages, ...converterMessages(result.errors, result.warnings)];
  return { entries: adoptEntries(parsed, messages), messages };
}
