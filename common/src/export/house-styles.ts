import type { Node as PMNode } from 'prosemirror-model';
import { LATEX_CLASSES, type LatexClass } from '../editor/vocabulary';

/**
 * The look of a journal template's DOCX and ODT (issue 53): body font and size, line spacing,
 * headings, margins; the page size stays the document's. Chosen by the document's LaTeX layout,
 * which every built-in template sets and a copied template keeps, so that the DOCX of an IEEE
 * paper looks like its IEEEtran PDF. Fonts are the metric twins of the journals' Times
 * (Liberation Serif) that LibreOffice ships; a template's own reference document overrides all
 * of this (reference-merge.ts).
 */

export interface HeadingLook {
  /** Points. */
  size: number;
  bold: boolean;
  italic: boolean;
  /** Small capitals (IEEE) or capitals (ACM). */
  caps: 'none' | 'small' | 'all';
  center: boolean;
}

export interface HouseStyle {
  font: string;
  /** Body text in points. */
  size: number;
  /** Line spacing as a multiple of single. */
  line: number;
  /** Headings of levels 1, 2 and 3 (the deeper ones look like 3). */
  headings: [HeadingLook, HeadingLook, HeadingLook];
  /** Page margins in millimetres. */
  margins: { top: number; right: number; bottom: number; left: number };
}

const heading = (size: number, rest: Partial<HeadingLook> = {}): HeadingLook => ({
  size,
  bold: true,
  italic: false,
  caps: 'none',
  center: false,
  ...rest,
});

const INCH = 25.4;
const even = (mm: number) => ({ top: mm, right: mm, bottom: mm, left: mm });

/** APA 7: Times 12 pt double spaced, 1 inch margins; level 1 bold centred, 2 bold, 3 bold italic. */
const APA: HouseStyle = {
  font: 'Liberation Serif',
  size: 12,
  line: 2,
  headings: [heading(12, { center: true }), heading(12), heading(12, { italic: true })],
  margins: even(INCH),
};

export const HOUSE_STYLES: Record<LatexClass, HouseStyle> = {
  article: {
    font: 'Liberation Serif',
    size: 12,
    line: 1.15,
    headings: [heading(16), heading(14), heading(13)],
    margins: even(25),
  },
  'apa7-student': APA,
  'apa7-professional': APA,
  // IEEEtran conference: Times 10 pt; sections in small capitals, centred; 0.75/1/0.625 in margins.
  'ieee-conference': {
    font: 'Liberation Serif',
    size: 10,
    line: 1,
    headings: [
      heading(10, { bold: false, caps: 'small', center: true }),
      heading(10, { bold: false, italic: true }),
      heading(10, { bold: false, italic: true }),
    ],
    margins: { top: 0.75 * INCH, right: 0.625 * INCH, bottom: INCH, left: 0.625 * INCH },
  },
  // acmart sigconf: 9 pt, sections bold in capitals, 0.75 in margins.
  'acm-sigconf': {
    font: 'Liberation Serif',
    size: 9,
    line: 1.05,
    headings: [heading(9, { caps: 'all' }), heading(9), heading(9, { italic: true })],
    margins: even(0.75 * INCH),
  },
  // elsarticle preprint: 12 pt, one and a half spaced.
  elsevier: {
    font: 'Liberation Serif',
    size: 12,
    line: 1.5,
    headings: [
      heading(12),
      heading(12, { bold: false, italic: true }),
      heading(12, { bold: false, italic: true }),
    ],
    margins: even(25),
  },
  // llncs: 10 pt on a 122 x 193 mm text block; sections 12 pt bold, subsections 10 pt bold.
  lncs: {
    font: 'Liberation Serif',
    size: 10,
    line: 1,
    headings: [heading(12), heading(10), heading(10, { bold: false, italic: true })],
    margins: { top: 52, right: 44, bottom: 52, left: 44 },
  },
  // A thesis: 12 pt one and a half spaced, a binding margin, chapters large.
  thesis: {
    font: 'Liberation Serif',
    size: 12,
    line: 1.5,
    headings: [heading(20), heading(14), heading(12)],
    margins: { top: 25, right: 25, bottom: 25, left: 35 },
  },
};

/** The house style of a document (its LaTeX layout; the Standard article's for any other). */
export function houseStyle(doc: PMNode): HouseStyle {
  const name = String(doc.attrs.latex_class ?? '');
  return (LATEX_CLASSES as readonly string[]).includes(name)
    ? HOUSE_STYLES[name as LatexClass]
    : HOUSE_STYLES.article;
}

/** Millimetres in twentieths of a point (Word's unit). */
export const twips = (mm: number) => Math.round((mm / 25.4) * 1440);
