import type { Node as PMNode } from 'prosemirror-model';
import type { CrossReferenceForm, FigureCategory } from './academic-nodes';
import { quoteMarks } from './input-rules';
import { HEADING_NUMBERINGS, type HeadingNumbering, NUMBERED_HEADING_LEVELS } from './vocabulary';

/**
 * Numbering of headings, figures (per category), tables and display equations, and the texts of
 * cross-references, in the document's language (not the reader's: a German paper says
 * "Abbildung 3" to everyone). Computed from the document on every change: it is one walk of its blocks.
 */

type LabelKey =
  | Exclude<FigureCategory, 'none'>
  | 'section'
  | 'bibliography'
  | 'chapter'
  | 'part'
  | 'contents'
  | 'keywords'
  | 'page'
  | 'onPage';

const LABELS: Record<string, Record<LabelKey, string>> = {
  en: {
    figure: 'Figure',
    photo: 'Photo',
    table: 'Table',
    equation: 'Equation',
    listing: 'Listing',
    section: 'Section',
    bibliography: 'References',
    chapter: 'Chapter',
    part: 'Part',
    contents: 'Contents',
    keywords: 'Keywords',
    page: 'page',
    onPage: 'on page',
  },
  de: {
    figure: 'Abbildung',
    photo: 'Foto',
    table: 'Tabelle',
    equation: 'Gleichung',
    listing: 'Listing',
    section: 'Abschnitt',
    bibliography: 'Literatur',
    chapter: 'Kapitel',
    part: 'Teil',
    contents: 'Inhalt',
    keywords: 'Schlüsselwörter',
    page: 'Seite',
    onPage: 'auf Seite',
  },
  fr: {
    figure: 'Figure',
    photo: 'Photo',
    table: 'Tableau',
    equation: 'Équation',
    listing: 'Listing',
    section: 'Section',
    bibliography: 'Bibliographie',
    chapter: 'Chapitre',
    part: 'Partie',
    contents: 'Table des matières',
    keywords: 'Mots-clés',
    page: 'page',
    onPage: 'à la page',
  },
  es: {
    figure: 'Figura',
    photo: 'Foto',
    table: 'Tabla',
    equation: 'Ecuación',
    listing: 'Listado',
    section: 'Sección',
    bibliography: 'Bibliografía',
    chapter: 'Capítulo',
    part: 'Parte',
    contents: 'Índice',
    keywords: 'Palabras clave',
    page: 'página',
    onPage: 'en la página',
  },
  it: {
    figure: 'Figura',
    photo: 'Foto',
    table: 'Tabella',
    equation: 'Equazione',
    listing: 'Listato',
    section: 'Sezione',
    bibliography: 'Bibliografia',
    chapter: 'Capitolo',
    part: 'Parte',
    contents: 'Indice',
    keywords: 'Parole chiave',
    page: 'pagina',
    onPage: 'a pagina',
  },
  pt: {
    figure: 'Figura',
    photo: 'Foto',
    table: 'Tabela',
    equation: 'Equação',
    listing: 'Listagem',
    section: 'Seção',
    bibliography: 'Referências',
    chapter: 'Capítulo',
    part: 'Parte',
    contents: 'Sumário',
    keywords: 'Palavras-chave',
    page: 'página',
    onPage: 'na página',
  },
  bg: {
    figure: 'Фигура',
    photo: 'Снимка',
    table: 'Таблица',
    equation: 'Уравнение',
    listing: 'Листинг',
    section: 'Раздел',
    bibliography: 'Библиография',
    chapter: 'Глава',
    part: 'Част',
    contents: 'Съдържание',
    keywords: 'Ключови думи',
    page: 'страница',
    onPage: 'на страница',
  },
};

/** A label in the document's language (English for languages without a table). */
export function documentLabel(key: LabelKey, language: string): string {
  const labels = LABELS[language.toLowerCase().split('-')[0]] ?? LABELS.en;
  return labels[key];
}

/**
 * The pieces of a cross-reference's text in its form: `number`, the target's label ('' in the page
 * form), then, in the page forms, `pageWords` ("page ", " on page ") before the page number that
 * each paged format fills in (null in the number form).
 */
export interface CrossReferencePieces {
  number: string;
  pageWords: string | null;
}

/**
 * What stands for a page number where no page is known: in the editor (no pages) and as the
 * cached result of a DOCX PAGEREF field before Word or LibreOffice computes it.
 */
export const PAGE_PLACEHOLDER = '#';

export function crossReferencePieces(
  label: string,
  form: CrossReferenceForm,
  language: string,
): CrossReferencePieces {
  if (form === 'page') return { number: '', pageWords: `${documentLabel('page', language)} ` };
  if (form === 'number-page') return { number: label, pageWords: ` ${documentLabel('onPage', language)} ` };
  return { number: label, pageWords: null };
}

/** Every language's page words of the page forms, lower case (the importers recognise them). */
export function pageWordsOfAllLanguages(): { page: string[]; onPage: string[] } {
  const tables = Object.values(LABELS);
  return {
    page: tables.map((labels) => labels.page.toLowerCase()),
    onPage: tables.map((labels) => labels.onPage.toLowerCase()),
  };
}

export type TargetKind = 'heading' | 'figure' | 'table' | 'equation';

export interface NumberedTarget {
  id: string;
  kind: TargetKind;
  /** The figure category (or 'table' for tables, 'section' for headings). */
  category: string;
  /** "3", "2.1", "III-A" ('' for a heading the document does not number). */
  number: string;
  /** A heading's number as it stands before its text: "2.1", IEEE's "III." or "A." ('' for none). */
  display?: string;
  /** What a cross-reference shows: "Figure 3", "Section 2.1", "(4)". */
  label: string;
  /** The caption or heading text, for pickers. */
  text: string;
  pos: number;
}

export interface Numbering {
  targets: NumberedTarget[];
  byId: Map<string, NumberedTarget>;
  /** Position of a numbered figure or table -> its target. */
  byPos: Map<number, NumberedTarget>;
}

export interface NumberingOptions {
  /** Counters per category carried on from earlier chapters of a book (updated in place). */
  counters?: Map<string, number>;
  /** Goes before section numbers: a book's chapter number ("2." makes "Section 2.1"). */
  sectionPrefix?: string;
}

/** The document's heading numbering (an unknown value reads as decimal). */
export function headingNumbering(doc: PMNode): HeadingNumbering {
  const value = String(doc.attrs.heading_numbering);
  return (HEADING_NUMBERINGS as readonly string[]).includes(value) ? (value as HeadingNumbering) : 'decimal';
}

function roman(value: number): string {
  const digits: [number, string][] = [
    [1000, 'M'],
    [900, 'CM'],
    [500, 'D'],
    [400, 'CD'],
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let out = '';
  let rest = value;
  for (const [size, letters] of digits)
    while (rest >= size) {
      out += letters;
      rest -= size;
    }
  return out;
}

function alpha(value: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = String.fromCharCode(65 + ((rest - 1) % 26)) + out;
    rest = Math.floor((rest - 1) / 26);
  }
  return out;
}

/**
 * A heading's number for references and as it stands before the heading, from the counters of
 * its levels (skipped levels count as 1). IEEE (IEEEtran): "III" / "III-A" / "III-A1", shown as
 * "III.", "A.", "1)".
 */
export function headingNumber(
  scheme: HeadingNumbering,
  counters: readonly number[],
  prefix = '',
): { number: string; display: string } {
  const levels = counters.map((n) => n || 1);
  if (scheme === 'none' || levels.length > NUMBERED_HEADING_LEVELS) return { number: '', display: '' };
  if (scheme === 'roman') {
    const [first, second, third] = levels;
    const number = `${roman(first)}${second ? `-${alpha(second)}` : ''}${third ? String(third) : ''}`;
    const display =
      levels.length === 1 ? `${roman(first)}.` : levels.length === 2 ? `${alpha(second)}.` : `${third})`;
    return { number, display };
  }
  const number = prefix + levels.join('.');
  return { number, display: number };
}

export function numberDocument(doc: PMNode, options: NumberingOptions = {}): Numbering {
  const language = String(doc.attrs.language ?? 'en');
  const scheme = options.sectionPrefix ? 'decimal' : headingNumbering(doc);
  const quotes = quoteMarks(language).double;
  const counters = options.counters ?? new Map<string, number>();
  const sectionPrefix = options.sectionPrefix ?? '';
  const sections: number[] = [];
  const targets: NumberedTarget[] = [];
  const next = (category: string) => {
    const value = (counters.get(category) ?? 0) + 1;
    counters.set(category, value);
    return value;
  };
  doc.descendants((node, pos) => {
    const name = node.type.name;
    // Not read: the bibliography, and an inline node's own content (a note's paragraphs).
    if (name === 'bibliography_part' || (node.isInline && !node.isLeaf)) return false;
    // Numbered nodes are blocks: the inline content of a paragraph holds none (a walk of blocks only).
    if (node.isTextblock && name !== 'heading') return false;
    if (name === 'heading') {
      const level = Number(node.attrs.level);
      sections.length = Math.min(sections.length, level);
      while (sections.length < level) sections.push(0);
      sections[level - 1]++;
      // Levels skipped (a heading 3 right under a heading 1) count as 1, not 0.
      const { number, display } = headingNumber(scheme, sections, sectionPrefix);
      const kind = scheme === 'chapter' && level === 1 ? 'chapter' : 'section';
      // Unnumbered: the reference names the heading ("Section “Methods”").
      const label = number
        ? `${documentLabel(kind, language)} ${number}`
        : `${documentLabel(kind, language)} ${quotes[0]}${node.textContent}${quotes[1]}`;
      targets.push({
        id: String(node.attrs.id),
        kind: 'heading',
        category: 'section',
        number,
        display,
        label,
        text: node.textContent,
        pos,
      });
      return false;
    }
    if (name === 'figure') {
      const category = String(node.attrs.category) as FigureCategory;
      if (category === 'none') return false;
      const number = String(next(category));
      targets.push({
        id: String(node.attrs.id),
        kind: category === 'equation' ? 'equation' : category === 'table' ? 'table' : 'figure',
        category,
        number,
        label: category === 'equation' ? `(${number})` : `${documentLabel(category, language)} ${number}`,
        text: category === 'equation' ? String(node.attrs.equation) : String(node.attrs.caption),
        pos,
      });
      return false;
    }
    if (name === 'table') {
      const number = String(next('table'));
      targets.push({
        id: String(node.attrs.id),
        kind: 'table',
        category: 'table',
        number,
        label: `${documentLabel('table', language)} ${number}`,
        text: String(node.attrs.caption),
        pos,
      });
      return false;
    }
    return true;
  });
  const byId = new Map<string, NumberedTarget>();
  const byPos = new Map<number, NumberedTarget>();
  for (const target of targets) {
    if (target.id && !byId.has(target.id)) byId.set(target.id, target);
    byPos.set(target.pos, target);
  }
  return { targets: targets.filter((target) => target.id), byId, byPos };
}

export interface BrokenReference {
  pos: number;
  id: string;
  /** The text it showed when it was last seen working. */
  title: string;
}

/** Cross-references whose target is gone (shown in red and listed in Tools). */
export function missingCrossReferences(doc: PMNode, numbering = numberDocument(doc)): BrokenReference[] {
  const broken: BrokenReference[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'cross_reference' && !numbering.byId.has(String(node.attrs.id)))
      broken.push({ pos, id: String(node.attrs.id), title: String(node.attrs.title) });
    return node.type.name !== 'bibliography_part';
  });
  return broken;
}
