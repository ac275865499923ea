import { BibLatexParser, parseCSL } from 'biblatex-csl-converter';
import { normalizeFieldValue } from './rich-text';
import type { EntryData, EntryFields } from './types';
import { validateEntry, withoutEmptyFields } from './validate';

/** One line of the import report. `code` is the converter's error type or one of ours. */
export interface ImportMessage {
  level: 'error' | 'warning';
  code: string;
  /** The BibTeX key of the entry concerned, when known. */
  entry: string | null;
  field?: string;
  line?: number;
  value?: string;
}

export interface ImportResult {
  entries: EntryData[];
  messages: ImportMessage[];
}

/** An entry as the converter's readers give it. */
export interface ParsedEntry {
  entry_key: string;
  bib_type: string;
  fields: Record<string, unknown>;
  unexpected_fields?: Record<string, unknown>;
  unknown_fields?: Record<string, unknown>;
}

/** An error or warning of one of the converter's readers (their shapes differ slightly). */
export interface ConverterProblem {
  type: string;
  entry?: string;
  key?: string;
  field?: string;
  field_name?: string;
  variable?: string;
  type_name?: string;
  tag?: string;
  line?: number;
  value?: unknown;
  found?: unknown;
}

interface Block {
  start: number;
  end: number;
  key: string | null;
  line: number;
}

const BLOCK_START = /^[ \t]*@([A-Za-z]+)[ \t]*([{(])[ \t]*([^,\s{}()]*)/gm;
const DIRECTIVES = new Set(['string', 'preamble', 'comment']);

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Brace depth at the end of a block, ignoring escaped braces (\{ and \}). */
function openBraces(text: string, start: number, end: number): number {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 123 /* { */) depth++;
    else if (c === 125 /* } */) depth--;
  }
  return depth;
}

/**
 * Finds entries whose braces never close. The parser would read the rest of the file into such
 * an entry's field and lose every entry after it; we cut the broken one out instead (keeping the
 * line numbers) so that the good entries after it are still imported.
 */
function cutUnclosedEntries(text: string): { text: string; broken: Block[] } {
  const starts: Block[] = [];
  for (const match of text.matchAll(BLOCK_START)) {
    if (match[2] !== '{' || DIRECTIVES.has(match[1].toLowerCase())) continue;
    starts.push({ start: match.index, end: text.length, key: match[3] || null, line: 0 });
  }
  const broken: Block[] = [];
  for (let i = 0; i < starts.length; i++) {
    const block = starts[i];
    block.end = i + 1 < starts.length ? starts[i + 1].start : text.length;
    if (openBraces(text, block.start, block.end) > 0) broken.push(block);
  }
  if (broken.length === 0) return { text, broken };
  let cleaned = '';
  let from = 0;
  for (const block of broken) {
    block.line = lineAt(text, block.start);
    cleaned += text.slice(from, block.start) + text.slice(block.start, block.end).replace(/[^\n]/g, ' ');
    from = block.end;
  }
  return { text: cleaned + text.slice(from), broken };
}

function describeValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(' ') : String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Turns the converter's entries into our entry data, reporting what could not be taken over. */
export function adoptEntries(parsed: ParsedEntry[], messages: ImportMessage[]): EntryData[] {
  const entries: EntryData[] = [];
  for (const item of parsed) {
    // Fields that biblatex knows but does not expect for this type are still typed data: keep them.
    const fields = withoutEmptyFields({ ...(item.unexpected_fields ?? {}), ...item.fields });
    for (const field of Object.keys(item.unknown_fields ?? {})) {
      if (field === 'groups') continue;
      messages.push({ level: 'warning', code: 'field_not_imported', entry: item.entry_key, field });
    }
    const candidate: EntryData = {
      entry_key: item.entry_key,
      bib_type: item.bib_type,
      fields: fields as EntryFields,
      cats: [],
    };
    const problems = validateEntry(candidate);
    for (const [field, value] of Object.entries(candidate.fields)) {
      if (!problems.some((p) => p.field === field))
        candidate.fields[field] = normalizeFieldValue(field, value);
    }
    if (problems.some((p) => p.field === null)) {
      for (const p of problems)
        messages.push({ level: 'error', code: p.code, entry: item.entry_key || null });
      continue;
    }
    for (const p of problems) {
      // A field the model refuses is dropped, the rest of the entry is kept.
      if (p.field) delete candidate.fields[p.field];
      messages.push({ level: 'warning', code: p.code, entry: item.entry_key, field: p.field ?? undefined });
    }
    entries.push(candidate);
  }
  return entries;
}

// Warnings that describe something we handle ourselves (unexpected fields are kept above).
const SILENCED = new Set(['unexpected_field', 'unknown_field']);

/** The report lines for a reader's errors and warnings. */
export function converterMessages(errors: ConverterProblem[], warnings: ConverterProblem[]): ImportMessage[] {
  const messages: ImportMessage[] = [];
  for (const [level, list] of [
    ['error', errors],
    ['warning', warnings],
  ] as const) {
    for (const item of list) {
      if (SILENCED.has(item.type)) continue;
      messages.push({
        level,
        code: item.type,
        entry: item.entry ?? item.key ?? null,
        field: item.field_name ?? item.field ?? item.variable ?? item.type_name ?? item.tag,
        line: item.line,
        value: describeValue(item.value ?? item.found),
      });
    }
  }
  return messages;
}

// The converter drops commands it does not know; these logos are common in titles.
const LOGOS: [RegExp, string][] = [
  [/\\LaTeXe(?![A-Za-z])/g, 'LaTeX2e'],
  [/\\LaTeX(?![A-Za-z])/g, 'LaTeX'],
  [/\\BibTeX(?![A-Za-z])/g, 'BibTeX'],
  [/\\TeX(?![A-Za-z])/g, 'TeX'],
];

function expandLogos(text: string): string {
  if (!text.includes('TeX')) return text;
  return LOGOS.reduce((out, [pattern, logo]) => out.replace(pattern, logo), text);
}

/**
 * Parses BibTeX or BibLaTeX text into entry data and a report. Good entries are imported even
 * when others in the same file are broken; every error and warning names its entry when known.
 */
export function importBibtex(input: string): ImportResult {
  const text = expandLogos(input.replace(/^\uFEFF/, ''));
  const { text: parsable, broken } = cutUnclosedEntries(text);
  const parser = new BibLatexParser(parsable, { processUnexpected: true, processUnknown: true });
  const result = parser.parse();
  const messages: ImportMessage[] = broken.map((block) => ({
    level: 'error',
    code: 'unclosed_entry',
    entry: block.key,
    line: block.line,
  }));
  messages.push(...converterMessages(result.errors, result.warnings));
  const entries = adoptEntries(Object.values(result.entries) as ParsedEntry[], messages);
  return { entries, messages };
}

export interface ParsePart {
  text: string;
  /** Added to the line numbers of this part's messages to give lines of the whole file. */
  lineOffset: number;
}

/** Below this size one parser is quick enough; splitting would only add overhead. */
const SPLIT_ABOVE = 200_000;

/**
 * Splits a large .bib into parts that can be parsed in parallel (one Web Worker each): the
 * converter's cost grows with the file size times its ~3,000 TeX replacements, so a 10,000-entry
 * file takes seconds on one core. Every part gets all @string macros in front; files that use
 * crossref or xdata (entries that need each other) stay whole.
 */
export function splitForParallelParse(input: string, parts: number): ParsePart[] {
  const text = input.replace(/^\uFEFF/, '');
  if (parts < 2 || text.length < SPLIT_ABOVE || /(^|[\s,])(crossref|xdata)\s*=/i.test(text)) {
    return [{ text, lineOffset: 0 }];
  }
  const starts = [...text.matchAll(/^[ \t]*@/gm)].map((m) => m.index);
  if (starts.length < parts * 2) return [{ text, lineOffset: 0 }];
  let macros = '';
  for (let i = 0; i < starts.length; i++) {
    const block = text.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : text.length);
    if (/^\s*@string\s*[{(]/i.test(block)) macros += block.endsWith('\n') ? block : `${block}\n`;
  }
  const macroLines = macros === '' ? 0 : macros.split('\n').length - 1;
  const result: ParsePart[] = [];
  const target = text.length / parts;
  let from = 0;
  let line = 1;
  for (let p = 1; p <= parts; p++) {
    let to = text.length;
    if (p < parts) {
      const cut = starts.find((start) => start >= from + target && start > from);
      if (cut === undefined) to = text.length;
      else to = cut;
    }
    if (to <= from) continue;
    const chunk = text.slice(from, to);
    result.push({ text: macros + chunk, lineOffset: line - 1 - macroLines });
    line += chunk.split('\n').length - 1;
    from = to;
    if (from >= text.length) break;
  }
  return result;
}

/** Joins the results of the parts in file order. */
export function mergeParts(results: ImportResult[], parts: ParsePart[]): ImportResult {
  const entries: EntryData[] = [];
  const messages: ImportMessage[] = [];
  results.forEach((result, index) => {
    entries.push(...result.entries);
    const offset = parts[index]?.lineOffset ?? 0;
    for (const m of result.messages)
      messages.push(m.line === undefined ? m : { ...m, line: m.line + offset });
  });
  return { entries, messages };
}

/** Parses CSL-JSON (an array of items, or an object of items keyed by id) into entry data. */
export function importCslJson(input: string): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(input.replace(/^\uFEFF/, ''));
  } catch {
    return { entries: [], messages: [{ level: 'error', code: 'invalid_json', entry: null }] };
  }
  const items = Array.isArray(data)
    ? data
    : typeof data === 'object' && data !== null
      ? Object.values(data)
      : [];
  const byId: Record<string, Record<string, unknown>> = {};
  items.forEach((item, index) => {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const record = item as Record<string, unknown>;
      byId[
        typeof record.id === 'string' || typeof record.id === 'number'
          ? String(record.id)
          : `item${index + 1}`
      ] = record;
    }
  });
  const messages: ImportMessage[] = [];
  let parsed: ParsedEntry[];
  try {
    parsed = Object.values(parseCSL(byId)) as ParsedEntry[];
  } catch {
    return { entries: [], messages: [{ level: 'error', code: 'invalid_csl', entry: null }] };
  }
  return { entries: adoptEntries(parsed, messages), messages };
}
