/**
 * The layout a CSL style asks of its bibliography (CSL 1.0.2, "Whitespace" and "Reference
 * Grouping"): hanging indent, `second-field-align` ("flush": the first field, the label "[1]",
 * in a column of its own at the left edge; "margin": the same column in the left margin), line
 * and entry spacing. citeproc-js returns them in the first element of `makeBibliography`; the
 * entries' `display` attributes come out as `csl-block`, `csl-left-margin`, `csl-right-inline`
 * and `csl-indent` elements. The editor, the HTML-based exports (HTML, EPUB, PDF) and the office
 * writers (DOCX, ODT) all lay the bibliography out from this one description.
 */
export interface BibliographyLayout {
  hangingIndent: boolean;
  secondFieldAlign: 'flush' | 'margin' | null;
  /** 1: the text's own spacing, 2: double spaced. */
  lineSpacing: number;
  /** Blank lines between entries (0: none). */
  entrySpacing: number;
  /** Characters of the widest first field ("[12]": 4), 0 without second-field-align. */
  maxOffset: number;
}

export const DEFAULT_LAYOUT: BibliographyLayout = {
  hangingIndent: false,
  secondFieldAlign: null,
  lineSpacing: 1,
  entrySpacing: 0,
  maxOffset: 0,
};

const count = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;

/** The layout of citeproc-js's bibliography metadata (`makeBibliography()[0]`). */
export function readLayout(meta: Record<string, unknown>): BibliographyLayout {
  const align = meta['second-field-align'];
  return {
    hangingIndent: Boolean(meta.hangingindent),
    secondFieldAlign: align === 'flush' || align === 'margin' ? align : null,
    lineSpacing: Math.max(1, count(meta.linespacing, 1)),
    entrySpacing: count(meta.entryspacing, 0),
    maxOffset: count(meta.maxoffset, 0),
  };
}

/** The width of the label column in em: the widest label and a gap (about 0.6em a character). */
export function labelWidthEm(layout: BibliographyLayout): number {
  return Math.round((Math.max(1, layout.maxOffset) * 0.6 + 0.5) * 100) / 100;
}

/**
 * The classes and inline style of the element holding the entries (`csl-bib-body`): CSS of
 * BIBLIOGRAPHY_LAYOUT_CSS reads them. A hanging indent goes with entries of one field only: a
 * style with a label column hangs its text at the column instead.
 */
export function bibliographyBody(layout: BibliographyLayout): { className: string; style: string } {
  const classes = ['csl-bib-body'];
  if (layout.secondFieldAlign) classes.push(`csl-second-field-${layout.secondFieldAlign}`);
  else if (layout.hangingIndent) classes.push('csl-hanging-indent');
  const style = [
    `--csl-label-width: ${labelWidthEm(layout)}em`,
    `--csl-entry-spacing: ${layout.entrySpacing}em`,
  ];
  if (layout.lineSpacing > 1) style.push(`line-height: ${layout.lineSpacing}`);
  return { className: classes.join(' '), style: style.join('; ') };
}

/**
 * The rules of the bibliography's layout, for every HTML rendering (editor, HTML, EPUB, PDF).
 * citeproc's line breaks between its elements are no text (the editor's pre-wrap would show
 * them as lines). The label of `csl-left-margin` floats in a column as wide as the widest label, the entry's text
 * (`csl-right-inline`) beside it on the same line; with "margin" the column stands left of the
 * text's edge. The var() fallbacks are the common numeric case, for readers without custom
 * properties.
 */
export const BIBLIOGRAPHY_LAYOUT_CSS = `.csl-bib-body { white-space: normal; }
.csl-bib-body .csl-entry { margin: 0 0 var(--csl-entry-spacing, 0); clear: left; }
.csl-bib-body .csl-entry::after { content: ""; display: block; clear: left; }
.csl-bib-body.csl-hanging-indent .csl-entry { padding-left: 2em; text-indent: -2em; }
.csl-bib-body .csl-left-margin { float: left; width: var(--csl-label-width, 2.3em); text-indent: 0; }
.csl-bib-body .csl-right-inline { margin-left: var(--csl-label-width, 2.3em); text-indent: 0; }
.csl-bib-body.csl-second-field-margin .csl-left-margin { margin-left: calc(-1 * var(--csl-label-width, 2.3em)); }
.csl-bib-body.csl-second-field-margin .csl-right-inline { margin-left: 0; }
.csl-bib-body .csl-block { display: block; }
.csl-bib-body .csl-indent { display: block; margin-left: 2em; }
`;

/**
 * An entry split at its label for the office formats (DOCX, ODT): the `csl-left-margin` part and
 * the rest, each citeproc HTML; null when the entry has no label column.
 */
export function splitLabel(entry: string): { label: string; text: string } | null {
  const match =
    /<div class="csl-left-margin">([\s\S]*?)<\/div>\s*<div class="csl-right-inline">([\s\S]*)<\/div>\s*<\/div>\s*$/.exec(
      entry.trim(),
    );
  if (!match) return null;
  return { label: match[1].trim(), text: match[2].trim() };
}
