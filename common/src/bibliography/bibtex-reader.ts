import { BibLatexParser, type BiblatexParseResult } from 'biblatex-csl-converter';
import { fieldTypeOf } from './validate';

/**
 * biblatex-csl-converter's BibTeX reader, corrected where it reads a file differently from biber
 * (the reference for BibLaTeX data). The converter does the real work (TeX characters, names,
 * dates, rich text); this subclass changes only the steps where it loses or garbles data:
 * `@comment(...)` with parentheses, entries without a key, `#` without spaces, empty fields,
 * unknown commands, the thesis kind of @phdthesis/@mastersthesis, @set and @xdata, and cross
 * references after a missing one. Dashes (`--`, `---`) become Unicode after parsing, outside
 * verbatim fields.
 */

type LibEntry = BibLatexParser['entries'][number];
type LibProblem = BibLatexParser['errors'][number];

/** Commands that stand for text (TeX logos, symbols). TeX drops the spaces after a command word. */
const TEXT_COMMANDS: Record<string, string> = {
  TeX: 'TeX',
  LaTeX: 'LaTeX',
  LaTeXe: 'LaTeX2ε',
  BibTeX: 'BibTeX',
  XeTeX: 'XeTeX',
  XeLaTeX: 'XeLaTeX',
  LuaTeX: 'LuaTeX',
  LuaLaTeX: 'LuaLaTeX',
  ConTeXt: 'ConTeXt',
  AmS: 'AMS',
  AmSTeX: 'AMS-TeX',
  METAFONT: 'METAFONT',
  MF: 'METAFONT',
  MP: 'MetaPost',
  S: '§',
  P: '¶',
  dots: '…',
  textellipsis: '…',
  textquoteleft: '‘',
  textquoteright: '’',
  textquotedblleft: '“',
  textquotedblright: '”',
  textbullet: '•',
  textdegree: '°',
  textregistered: '®',
  texttrademark: '™',
  textcopyright: '©',
  copyright: '©',
  pounds: '£',
  textsterling: '£',
  euro: '€',
  texteuro: '€',
  textasciitilde: '~',
  textunderscore: '_',
  textbar: '|',
  textless: '<',
  textgreater: '>',
  relax: '',
  protect: '',
  hyphen: '-',
  noopsort: '',
};

/** Math operators: upright words, with a space before what follows ($n \\log n$). */
const MATH_OPERATORS = new Set([
  'log',
  'ln',
  'lg',
  'exp',
  'sin',
  'cos',
  'tan',
  'max',
  'min',
  'lim',
  'det',
  'dim',
  'sup',
  'inf',
  'gcd',
  'Pr',
  'deg',
  'arg',
  'ker',
  'mod',
  'bmod',
]);

/** Commands that only group or switch fonts: their argument is the text. */
const TRANSPARENT_COMMANDS = new Set([
  'mbox',
  'hbox',
  'text',
  'textrm',
  'textnormal',
  'textup',
  'textsf',
  'texttt',
  'textmd',
  'mathrm',
  'mathit',
  'mathbf',
  'mathsf',
  'mathtt',
  'ensuremath',
  'operatorname',
  'nolinkurl',
  'protect',
]);

/** Commands taking one argument that produce no text (BibTeX's sorting tricks). */
const SWALLOWED_WITH_ARGUMENT = new Set(['noopsort']);

/** Accents the converter does not know, as combining characters. */
const COMBINING_ACCENTS: Record<string, string> = {
  d: '\u0323', // dot below
  b: '\u0331', // macron below
};

/**
 * Journal macros of the AAS (ADS exports write `journal = {\apj}`): without them the journal would
 * vanish. Their abbreviations are what the macros print.
 */
const JOURNAL_MACROS: Record<string, string> = {
  aj: 'AJ',
  actaa: 'Acta Astron.',
  araa: 'ARA&A',
  apj: 'ApJ',
  apjl: 'ApJL',
  apjs: 'ApJS',
  ao: 'Appl. Opt.',
  apss: 'Ap&SS',
  aap: 'A&A',
  aapr: 'A&A Rev.',
  aaps: 'A&AS',
  baas: 'BAAS',
  icarus: 'Icarus',
  jcap: 'JCAP',
  jgr: 'J. Geophys. Res.',
  grl: 'Geophys. Res. Lett.',
  mnras: 'MNRAS',
  nat: 'Nature',
  pasa: 'PASA',
  pasp: 'PASP',
  pasj: 'PASJ',
  physrep: 'Phys. Rep.',
  planss: 'Planet. Space Sci.',
  pra: 'Phys. Rev. A',
  prb: 'Phys. Rev. B',
  prc: 'Phys. Rev. C',
  prd: 'Phys. Rev. D',
  pre: 'Phys. Rev. E',
  prl: 'Phys. Rev. Lett.',
  procspie: 'Proc. SPIE',
  psj: 'PSJ',
  solphys: 'Sol. Phys.',
  ssr: 'Space Sci. Rev.',
};

/** Commands the converter's rich-text reader turns into formatting (see its literal parser). */
const FORMATTING_COMMANDS = new Set([
  'textbf',
  'mkbibbold',
  'mkbibitalic',
  'mkbibemph',
  'textit',
  'emph',
  'textsc',
  'enquote',
  'mkbibquote',
  'textsubscript',
  'textsuperscript',
  'scshape',
  'sc',
  'bfseries',
  'bf',
  'itshape',
  'it',
  'url',
]);

/** Field types whose values are TeX text (others are verbatim, dates or fixed keys). */
const TEXT_FIELD_TYPES = new Set(['f_literal', 'f_long_literal', 'f_title', 'l_literal', 'l_name', 'f_key']);

/** BibTeX names of fields that BibLaTeX renamed (as the converter maps them). */
const FIELD_ALIASES: Record<string, string> = {
  journal: 'journaltitle',
  address: 'location',
  school: 'institution',
  annote: 'annotation',
};

/** BibTeX types that biber turns into a BibLaTeX type plus a `type` field. */
const TYPE_FIELD_OF: Record<string, string> = {
  phdthesis: 'phdthesis',
  mastersthesis: 'mathesis',
  techreport: 'techreport',
};

/** The marker the converter's rich-text reader turns into a literal backslash. */
const BACKSLASH = '\u0871';

function replaceTextCommands(text: string): string {
  if (!text.includes('\\')) return text;
  return text
    .replace(
      /\\([A-Za-z]+)(?![A-Za-z])(\{\})?([ \t]*)(\{[^{}]*\})?/g,
      (whole, name: string, empty: string | undefined, spaces: string, argument: string | undefined) => {
        if (SWALLOWED_WITH_ARGUMENT.has(name) && argument !== undefined) return '';
        const replacement = Object.hasOwn(TEXT_COMMANDS, name) ? TEXT_COMMANDS[name] : undefined;
        if (replacement === undefined) return whole;
        // TeX drops the spaces after a command word (`\TeX book` is "TeXbook"); `{}` ends the
        // command, so `\TeX{} book` keeps its space.
        return replacement + (empty !== undefined ? spaces : '') + (argument ?? '');
      },
    )
    .replace(/\\([A-Za-z]+)(?![A-Za-z])[ \t]*(?=(.?))/g, (whole, name: string, next: string) => {
      if (!MATH_OPERATORS.has(name)) return whole;
      return /[A-Za-z0-9\\]/.test(next) ? `${name} ` : name;
    })
    .replace(/\\([db])(?:\{([A-Za-z])\}|\s+([A-Za-z]))/g, (_whole, accent: string, braced, spaced) =>
      `${braced ?? spaced}${COMBINING_ACCENTS[accent]}`.normalize('NFC'),
    );
}

/** The name of a field in our model (and its report): BibLaTeX's, not BibTeX's. */
function modelFieldName(rawName: string): string {
  return FIELD_ALIASES[rawName] ?? rawName;
}

function fieldType(rawName: string): string | null {
  return fieldTypeOf(modelFieldName(rawName));
}

/** Replaces `--`/`---` by dashes in every text node of a parsed value (never in URLs). */
function typesetDashes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(typesetDashes);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (record.type === 'text' && typeof record.text === 'string') {
    const marks = record.marks as { type: string }[] | undefined;
    if (marks?.some((mark) => mark.type === 'url') || !record.text.includes('--')) return value;
    return { ...record, text: record.text.replace(/---/g, '—').replace(/--/g, '–') };
  }
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(record)) out[key] = typesetDashes(inner);
  return out;
}

function plain(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value.map((node) => (node?.type === 'text' ? String(node.text) : '')).join('');
}

/** The ASCII letters and digits of a text, for keys ("Müller" -> "muller"). */
function keyPart(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();
}

const SMALL_WORDS = new Set([
  'a',
  'an',
  'the',
  'on',
  'of',
  'in',
  'and',
  'for',
  'to',
  'der',
  'die',
  'das',
  'le',
  'la',
  'les',
]);

/** author + year + first significant title word, as reference managers make keys. */
function keyFor(entry: LibEntry): string {
  const names = (entry.fields.author ?? entry.fields.editor) as Record<string, unknown>[] | undefined;
  const first = names?.[0];
  const name = first ? keyPart(plain(first.family ?? first.literal)) : '';
  const year = typeof entry.fields.date === 'string' ? (/\d{4}/.exec(entry.fields.date)?.[0] ?? '') : '';
  const words = plain(entry.fields.title)
    .split(/\s+/)
    .map(keyPart)
    .filter((word) => word !== '');
  const word = words.find((w) => !SMALL_WORDS.has(w)) ?? words[0] ?? '';
  return `${name}${year}${word}` || 'entry';
}

export class BiberCompatibleParser extends BibLatexParser {
  /** The type as written (@phdthesis, @set, @xdata), per entry. */
  private readonly writtenTypes = new Map<LibEntry, string>();
  /** The keys an entry's `xdata` field names. */
  private readonly xdataRefs = new Map<LibEntry, string[]>();
  /** The key of the entry being read (the converter's currentEntry is the previous one then). */
  private readingKey: string | null = null;
  /** Problems found while reading an entry without a key: they get its key once it has one. */
  private readonly problemsOfKeyless = new Map<LibEntry, LibProblem[]>();

  override replaceTeXChars(): void {
    this.input = replaceTextCommands(this.input);
    super.replaceTeXChars();
  }

  override parseNext(): void {
    if (this.inTextBetweenEntries()) {
      this.pos++;
      return;
    }
    this.startPosition = this.pos;
    const directive = this.directive();
    if (!directive) return;
    let closer: string | null;
    // An `@` that opens no entry (an e-mail address in a comment) is text between entries.
    if (directive !== '@comment' && !this.tryMatch('{') && !this.tryMatch('(')) return;
    if (this.tryMatch('{')) {
      this.match('{');
      closer = '}';
    } else if (this.tryMatch('(')) {
      this.match('(');
      closer = ')';
    } else if (directive === '@comment') {
      closer = null;
    } else {
      this.match('{');
      closer = '}';
    }
    if (directive === '@comment') {
      // biber skips a comment to its matching delimiter, parentheses as well as braces.
      if (closer === ')') this.skipParenthesised();
      else {
        this.parseComment(closer === null);
        if (closer) this.match(closer);
      }
      return;
    }
    if (directive === '@string') this.string();
    else if (directive === '@preamble') this.preamble();
    else this.createNewEntry();
    if (closer) this.match(closer);
  }

  /**
   * An `@` inside a word (an e-mail address) or on a `%` comment line opens no entry; biber reads
   * such text between entries as a comment.
   */
  private inTextBetweenEntries(): boolean {
    const before = this.input[this.pos - 1];
    if (before !== undefined && /[A-Za-z0-9._-]/.test(before)) return true;
    const lineStart = this.input.lastIndexOf('\n', this.pos - 1) + 1;
    return this.input.slice(lineStart, this.pos).trimStart().startsWith('%');
  }

  private skipParenthesised(): void {
    let depth = 1;
    while (this.pos < this.input.length && depth > 0) {
      const c = this.input[this.pos];
      if (c === '(') depth++;
      else if (c === ')') depth--;
      this.pos++;
    }
  }

  override singleValue(): string {
    if (this.tryMatch('{')) return this.valueBraces();
    if (this.tryMatch('"')) return this.valueQuotes();
    // A macro name ends at `#` and quotes as well ("pub#1990" is two parts).
    const start = this.pos;
    while (this.pos < this.input.length && !/[\s,{}()#"=]/.test(this.input[this.pos])) this.pos++;
    const name = this.input.slice(start, this.pos);
    const upper = name.toUpperCase();
    if (Object.hasOwn(this.strings, upper)) return this.strings[upper];
    if (Object.hasOwn(this.months, upper)) return this.months[upper as keyof BibLatexParser['months']];
    if (/^[0-9]+$/.test(name)) return name;
    const warning: LibProblem = { type: 'undefined_variable', variable: name };
    if (this.readingKey) warning.entry = this.readingKey;
    if (this.currentKey) warning.field_name = modelFieldName(this.currentKey);
    this.warning(warning);
    return `\u0870${name}\u0870`;
  }

  override createNewEntry(): void {
    this.skipWhitespace();
    // `@article{,` has an empty key; biber skips such entries, we give them one (see parsed).
    if (this.input[this.pos] === ',') {
      this.pos++;
      this.skipWhitespace();
    }
    const count = this.entries.length;
    const type = this.currentType;
    const keyStart = this.pos;
    const key = this.key(true);
    this.readingKey = key || null;
    this.pos = keyStart;
    const problemsBefore = [this.errors.length, this.warnings.length];
    super.createNewEntry();
    this.readingKey = null;
    const entry = this.entries[count];
    if (!entry) return;
    this.writtenTypes.set(entry, type);
    if (entry.entry_key === '')
      this.problemsOfKeyless.set(entry, [
        ...this.errors.slice(problemsBefore[0]),
        ...this.warnings.slice(problemsBefore[1]),
      ]);
  }

  override processFields(): void {
    const raw = this.currentRawFields;
    const entry = this.currentEntry;
    if (raw && entry) this.prepareFields(raw, entry);
    super.processFields();
  }

  private prepareFields(raw: Record<string, unknown>, entry: LibEntry): void {
    for (const [name, value] of Object.entries(raw)) {
      if (typeof value !== 'string') continue;
      // biber ignores empty fields (`url = ""`); the converter would report them as errors.
      if (value.trim() === '') {
        delete raw[name];
        continue;
      }
      const type = fieldType(name);
      if (type === null || !TEXT_FIELD_TYPES.has(type)) continue;
      raw[name] = this.keepUnknownCommands(name, value, entry.entry_key);
    }
    if (typeof raw.xdata === 'string') {
      this.xdataRefs.set(
        entry,
        raw.xdata
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean),
      );
      delete raw.xdata;
    }
    if (this.currentType === 'set') delete raw.entryset;
    // `aug # "--" # sep`, "11, 12", `sep # "\slash " # oct`: biber takes the first month.
    if (typeof raw.month === 'string')
      raw.month = raw.month.replace(/^(\d{1,2})\s*(?:(?:[-–,/∕]+|\\slash)\s*\d{1,2})$/, '$1');
    const kind = TYPE_FIELD_OF[this.currentType];
    if (kind && raw.type === undefined) raw.type = kind;
  }

  /**
   * The converter silently drops commands it does not know. A journal macro of the AAS becomes its
   * abbreviation; any other command without an argument is kept as written (as biber keeps it),
   * one with an argument keeps its argument; both are reported.
   */
  private keepUnknownCommands(field: string, value: string, entry: string): string {
    if (!value.includes('\\')) return value;
    const journal = field === 'journal' || field === 'journaltitle';
    return value.replace(/\\([A-Za-z]+)(?![A-Za-z])/g, (whole, name: string, offset: number) => {
      if (FORMATTING_COMMANDS.has(name)) return whole;
      // The converter reads the braces after an unknown command as plain grouping: the text stays.
      if (TRANSPARENT_COMMANDS.has(name)) return '';
      if (journal && Object.hasOwn(JOURNAL_MACROS, name)) return JOURNAL_MACROS[name];
      this.warnings.push({ type: 'unknown_command', entry, field_name: modelFieldName(field), value: whole });
      return value[offset + whole.length] === '{' ? whole : BACKSLASH + name;
    });
  }

  /** Keeps resolving after a missing parent (the converter stops at the first one). */
  override _resoveAllCrossRefs(): void {
    const keys = new Map<string, string>();
    for (const entry of this.entries) {
      keys.set(entry.entry_key, entry.entry_key);
      // BibTeX compares keys without case; biber does not, we accept both.
      if (!keys.has(entry.entry_key.toLowerCase())) keys.set(entry.entry_key.toLowerCase(), entry.entry_key);
    }
    const done = new Set<string>();
    const resolve = (child: string, path: Set<string>): void => {
      if (done.has(child)) return;
      const wanted = this.crossrefs[child];
      if (wanted === undefined) return;
      done.add(child);
      const parent = keys.get(wanted) ?? keys.get(wanted.toLowerCase());
      if (parent === undefined) {
        this.errors.push({ type: 'unknown_crossref', entry: child, value: wanted });
        return;
      }
      if (path.has(parent)) {
        this.errors.push({ type: 'circular_crossref', entry: child });
        return;
      }
      resolve(parent, new Set([...path, child]));
      this._resolveCrossRef(child, parent);
    };
    for (const child of Object.keys(this.crossrefs)) resolve(child, new Set([child]));
  }

  /** The converter inherits only the parent's expected fields; biber inherits all of them. */
  override _resolveCrossRef(key: string, parentKey: string): void {
    super._resolveCrossRef(key, parentKey);
    const child = this.entries.find((entry) => entry.entry_key === key);
    const parent = this.entries.find((entry) => entry.entry_key === parentKey);
    if (!child || !parent) return;
    // A renamed field the parent lacks (title -> booktitle) must not hide the parent's own one.
    for (const [field, value] of Object.entries(child.fields))
      if (value === undefined) delete child.fields[field];
    const has = (field: string) =>
      field in child.fields || (child.unexpected_fields !== undefined && field in child.unexpected_fields);
    for (const [field, value] of Object.entries({ ...parent.unexpected_fields, ...parent.fields })) {
      if (value === undefined || has(field)) continue;
      child.unexpected_fields = { ...child.unexpected_fields, [field]: value };
    }
  }

  override parsed(): BiblatexParseResult {
    this.resolveXdata();
    const dropped = new Set(['set', 'xdata']);
    for (const [entry, type] of this.writtenTypes) {
      if (type === 'set') this.warnings.push({ type: 'entry_set_skipped', entry: entry.entry_key });
    }
    this.entries = this.entries.filter((entry) => !dropped.has(this.writtenTypes.get(entry) ?? ''));
    this.warnings = this.warnings.filter(
      (w) => !(w.type === 'unknown_type' && dropped.has(String(w.type_name))),
    );
    this.giveKeys();
    const result = super.parsed();
    for (const entry of Object.values(result.entries)) {
      entry.fields = typesetDashes(entry.fields) as LibEntry['fields'];
      if (entry.unexpected_fields)
        entry.unexpected_fields = typesetDashes(entry.unexpected_fields) as LibEntry['fields'];
    }
    return result;
  }

  /** Copies the fields of @xdata entries into the entries that name them (theirs win). */
  private resolveXdata(): void {
    const xdata = new Map<string, LibEntry>();
    for (const [entry, type] of this.writtenTypes) if (type === 'xdata') xdata.set(entry.entry_key, entry);
    const collect = (key: string, seen: Set<string>): Record<string, unknown> => {
      const source = xdata.get(key);
      if (!source || seen.has(key)) return {};
      seen.add(key);
      let fields: Record<string, unknown> = {};
      for (const inner of this.xdataRefs.get(source) ?? []) fields = { ...fields, ...collect(inner, seen) };
      return { ...fields, ...source.unexpected_fields, ...source.fields };
    };
    for (const [entry, refs] of this.xdataRefs) {
      for (const key of refs) {
        if (!xdata.has(key)) {
          this.warnings.push({ type: 'unknown_xdata', entry: entry.entry_key, value: key });
          continue;
        }
        const inherited = collect(key, new Set());
        for (const [field, value] of Object.entries(inherited)) {
          if (field in entry.fields || (entry.unexpected_fields && field in entry.unexpected_fields))
            continue;
          entry.unexpected_fields = { ...entry.unexpected_fields, [field]: value };
        }
      }
    }
  }

  /** Entries written without a key get author+year+word, unique in the file. */
  private giveKeys(): void {
    const taken = new Set(this.entries.map((entry) => entry.entry_key.toLowerCase()));
    for (const entry of this.entries) {
      if (entry.entry_key !== '') continue;
      const base = keyFor(entry);
      let key = base;
      // smith2001title, smith2001titlea, ...b, then numbers: stable for the same file.
      for (let n = 0; taken.has(key.toLowerCase()); n++)
        key = n < 26 ? `${base}${String.fromCharCode(97 + n)}` : `${base}${n - 24}`;
      taken.add(key.toLowerCase());
      entry.entry_key = key;
      for (const problem of this.problemsOfKeyless.get(entry) ?? []) problem.entry = key;
      this.warnings.push({ type: 'key_generated', entry: key });
    }
  }
}
