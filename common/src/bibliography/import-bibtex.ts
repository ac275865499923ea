import { BibTypes, type CSLEntry, CSLParser } from 'biblatex-csl-converter';
import { BiberCompatibleParser } from './bibtex-reader';
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
// Errors that cost one field, not the entry (a URL of "-"): the entry is imported, so a warning.
const FIELD_LEFT_OUT = new Set(['unknown_uri']);

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
        level: FIELD_LEFT_OUT.has(item.type) ? 'warning' : level,
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

/**
 * Parses BibTeX or BibLaTeX text into entry data and a report. Good entries are imported even
 * when others in the same file are broken; every error and warning names its entry when known.
 */
export function importBibtex(input: string): ImportResult {
  const text = input.replace(/^\uFEFF/, '');
  const { text: parsable, broken } = cutUnclosedEntries(text);
  const parser = new BiberCompatibleParser(parsable, { processUnexpected: true, processUnknown: true });
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

/**
 * CSL types the converter does not know, mapped to the nearest one it does (a video or a broadcast
 * is a film to a citation style; a speech an unpublished talk). Anything else unknown is misc.
 */
const NEAREST_CSL_TYPE: Record<string, string> = {
  video: 'motion_picture',
  broadcast: 'motion_picture',
  speech: 'manuscript',
  bill: 'legislation',
  regulation: 'legislation',
  treaty: 'legislation',
  standard: 'report',
  review: 'article-journal',
  'review-book': 'article-journal',
  periodical: 'book',
  collection: 'book',
  entry: 'entry-encyclopedia',
};
/** The CSL type of the converter's misc entries. */
const MISC_CSL_TYPE = 'article';
const KNOWN_CSL_TYPES = new Set(Object.values(BibTypes).map((type) => type.csl));
const CSL_DATES = ['issued', 'accessed', 'event-date', 'original-date', 'submitted', 'available-date'];

/** A CSL date the converter can read (date-parts starting with a year), or undefined. */
function usableDate(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const date = value as { 'date-parts'?: unknown; raw?: unknown; literal?: unknown };
  const parts = date['date-parts'];
  if (Array.isArray(parts) && Array.isArray(parts[0]) && /^-?\d+$/.test(String(parts[0][0] ?? '')))
    return value;
  // Some producers give only the text ("2019", "Spring 2019"): keep its year.
  const year = /\b(\d{4})\b/.exec(String(date.raw ?? date.literal ?? ''))?.[1];
  return year ? { 'date-parts': [[Number(year)]] } : undefined;
}

/** Makes one CSL item readable by the converter: dates without parts dropped, types mapped. */
function prepareCslItem(
  id: string,
  item: Record<string, unknown>,
  messages: ImportMessage[],
  miscIds: Set<string>,
): CSLEntry {
  const copy: Record<string, unknown> = { ...item };
  for (const [field, value] of Object.entries(copy))
    if (typeof value === 'string' && value.includes('</span>')) copy[field] = closeCslSpans(value);
  for (const field of CSL_DATES) {
    if (!(field in copy)) continue;
    const date = usableDate(copy[field]);
    if (date === undefined) delete copy[field];
    else copy[field] = date;
  }
  const type = typeof copy.type === 'string' ? copy.type : '';
  if (!KNOWN_CSL_TYPES.has(type)) {
    const nearest = NEAREST_CSL_TYPE[type];
    copy.type = nearest ?? MISC_CSL_TYPE;
    if (!nearest) miscIds.add(id);
    messages.push(
      type === ''
        ? { level: 'warning', code: 'csl_type_missing', entry: id }
        : { level: 'warning', code: 'csl_type_mapped', entry: id, value: type },
    );
  }
  return copy as unknown as CSLEntry;
}

/**
 * Names each `</span>` of CSL rich text after the span it closes (`</nocase>`, `</smallcaps>`):
 * biblatex-csl-converter 3.6 skips every `</span>`, so a nocase or small-caps span ran to the end
 * of the field. Spans of other kinds keep their plain `</span>`, which the converter ignores.
 */
function closeCslSpans(text: string): string {
  const open: string[] = [];
  return text.replace(/<span\b[^>]*>|<\/span>/g, (tag) => {
    if (tag !== '</span>') {
      open.push(
        tag.startsWith('<span class="nocase"')
          ? '</nocase>'
          : tag.startsWith('<span style="font-variant:small-caps;"')
            ? '</smallcaps>'
            : '</span>',
      );
      return tag;
    }
    return open.pop() ?? tag;
  });
}

/** Reads prepared CSL items; items without a known type become misc entries. */
function readCslItems(items: Record<string, CSLEntry>, miscIds: Set<string>, messages: ImportMessage[]) {
  const parser = new CSLParser(items);
  const parsed = Object.values(parser.parse()) as ParsedEntry[];
  const miscKeys = new Set([...miscIds].map((id) => parser.rawIdToEntryKey.get(id)));
  for (const entry of parsed) if (miscKeys.has(entry.entry_key)) entry.bib_type = 'misc';
  messages.push(...converterMessages(parser.errors, parser.warnings));
  return parsed;
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
  const messages: ImportMessage[] = [];
  const miscIds = new Set<string>();
  const byId: Record<string, CSLEntry> = {};
  items.forEach((item, index) => {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const record = item as Record<string, unknown>;
      const id =
        typeof record.id === 'string' || typeof record.id === 'number'
          ? String(record.id)
          : `item${index + 1}`;
      byId[id] = prepareCslItem(id, record, messages, miscIds);
    }
  });
  let parsed: ParsedEntry[];
  const readMessages: ImportMessage[] = [];
  try {
    parsed = readCslItems(byId, miscIds, readMessages);
  } catch {
    // One unreadable item must not cost the whole file: read the items one by one.
    parsed = [];
    readMessages.length = 0;
    for (const [id, item] of Object.entries(byId)) {
      try {
        parsed.push(...readCslItems({ [id]: item }, miscIds, readMessages));
      } catch {
        readMessages.push({ level: 'error', code: 'invalid_csl_item', entry: id });
      }
    }
  }
  messages.push(...readMessages);
  return { entries: adoptEntries(parsed, messages), messages };
}
