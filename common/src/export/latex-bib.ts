import { BibFieldTypes, CSLExporter } from 'biblatex-csl-converter';
import { exportBiblatex } from '../bibliography/export';
import type { EntryData, RichText, TextNode } from '../bibliography/types';

/**
 * The .bib of a LaTeX export (issue 53): the cited entries under their citation keys, written by
 * the BibLaTeX exporter (LaTeX escapes, sub- and superscripts as math, nocase spans braced), with
 * the capitals that every other format keeps protected as well.
 *
 * The other formats give citeproc each title as biblatex-csl-converter's sentence caser leaves it
 * (acronyms, words with inner capitals and sentence starts keep their capitals), and biblatex
 * styles that set titles in sentence case (biblatex-apa) lowercase every unbraced letter but the
 * first. So each word in which the sentence caser keeps a capital is braced here, and the compiled
 * PDF shows "DNA" and "NASA" where the DOCX does.
 */

/** Title fields citeproc gets sentence-cased; journal titles keep their case everywhere. */
const CASED_FIELDS = new Set(
  Object.values(BibFieldTypes)
    .filter((field) => field.type === 'f_title')
    .map((field) => field.biblatex)
    .filter((name) => name !== 'journaltitle' && name !== 'shortjournal'),
);

const NAME_FIELDS = new Set(
  Object.values(BibFieldTypes)
    .filter((field) => field.type === 'l_name')
    .map((field) => field.biblatex),
);

/** The text as the converter's sentence caser gives it to citeproc (the same length). */
function sentenceCased(text: string, langid: unknown): string {
  const exporter = new CSLExporter({
    1: {
      entry_key: 'x',
      bib_type: 'misc',
      fields: { title: [{ type: 'text', text }], ...(langid ? { langid } : {}) },
    },
  } as unknown as ConstructorParameters<typeof CSLExporter>[0]);
  return String((exporter.getCSLEntry('1') as { title?: unknown }).title ?? text);
}

const isUpper = (char: string) => char !== char.toLowerCase() && char === char.toUpperCase();

/** Rich text with each word that keeps a capital (but the first letter) marked nocase. */
export function protectCase(value: RichText, langid?: unknown): RichText {
  if (typeof langid === 'string' && langid && !langid.toLowerCase().endsWith('english')) return value;
  if (!value.every((node) => node.type === 'text')) return value;
  const nodes = value as TextNode[];
  const plain = nodes.map((node) => node.text).join('');
  const cased = sentenceCased(plain, langid);
  if (cased.length !== plain.length) return value;
  const first = plain.search(/\p{L}/u);
  const out: TextNode[] = [];
  let offset = 0;
  for (const node of nodes) {
    const start = offset;
    offset += node.text.length;
    if (node.marks?.some((mark) => mark.type === 'nocase')) {
      out.push(node);
      continue;
    }
    const keeps = (at: number, length: number) =>
      Array.from({ length }, (_, i) => start + at + i).some(
        (position) => position !== first && isUpper(cased[position]),
      );
    // Formatted text (italics, ...) is protected whole, so that its command is not cut in two.
    if (node.marks?.length) {
      out.push(keeps(0, node.text.length) ? { ...node, marks: [{ type: 'nocase' }, ...node.marks] } : node);
      continue;
    }
    let last = 0;
    for (const match of node.text.matchAll(/[\p{L}\p{N}]+/gu)) {
      const at = match.index ?? 0;
      if (!keeps(at, match[0].length)) continue;
      if (at > last) out.push({ ...node, text: node.text.slice(last, at) });
      out.push({ ...node, text: match[0], marks: [{ type: 'nocase' }, ...(node.marks ?? [])] });
      last = at + match[0].length;
    }
    if (last < node.text.length) out.push(last ? { ...node, text: node.text.slice(last) } : node);
  }
  return out;
}

/** Words CSL's title case leaves in lower case inside a title (citeproc's list). */
const MINOR_WORDS = new Set(
  'a an and as at but by down for from in into nor of on onto or over so the till to up via with yet'.split(
    ' ',
  ),
);

/**
 * Rich text in title case as CSL's text-case="title" gives it (Chicago): each lower-case word
 * capitalised but minor words inside the title; words with a capital, and nocase or formatted
 * spans, as they are. biblatex-chicago prints titles as given, so the .bib carries them so.
 */
export function titleCase(value: RichText): RichText {
  let start = true;
  return value.map((node) => {
    if (node.type !== 'text') return node;
    if (node.marks?.length) {
      start = /[:?!.]\s*$/.test(node.text);
      return node;
    }
    const text = node.text.replace(/([:?!.]\s+)|[\p{L}][\p{L}'’]*/gu, (word, stop: string | undefined) => {
      if (stop) {
        start = true;
        return word;
      }
      const first = start;
      start = false;
      if (word !== word.toLowerCase() || (!first && MINOR_WORDS.has(word))) return word;
      return word[0].toUpperCase() + word.slice(1);
    });
    return { ...node, text };
  });
}

/** `{{DNA}}` as `{DNA}`: one pair of braces protects a span without commands in biblatex. */
function singleBraces(bib: string): string {
  return bib.replace(/^([a-z]+) = \{(.*)\}(,?)$/gm, (line, field: string, value: string, comma: string) =>
    NAME_FIELDS.has(field) ? line : `${field} = {${value.replace(/\{\{([^{}\\]*)\}\}/g, '{$1}')}}${comma}`,
  );
}

/**
 * The .bib text of the entries, each under its citation key; `titles: 'title'` for a style that
 * prints titles as given where CSL title-cases them (biblatex-chicago).
 */
export function latexBibliography(
  entries: readonly { key: string; entry: EntryData }[],
  { titles = 'sentence' }: { titles?: 'sentence' | 'title' } = {},
): string {
  const written = entries.map(({ key, entry }) => {
    const fields = { ...entry.fields };
    const english = typeof fields.langid !== 'string' || !fields.langid || fields.langid.endsWith('english');
    for (const field of Object.keys(fields))
      if (CASED_FIELDS.has(field) && Array.isArray(fields[field])) {
        const value = protectCase(fields[field] as RichText, fields.langid);
        fields[field] = titles === 'title' && english ? titleCase(value) : value;
      }
    return { ...entry, entry_key: key, fields };
  });
  return singleBraces(exportBiblatex(written));
}
