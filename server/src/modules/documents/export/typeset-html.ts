import { crossReferencePieces } from '@scriptorium/common/editor/academic-numbering';
import { HOUSE_STYLES } from '@scriptorium/common/export/house-styles';
import { exportCss, htmlPage, webImages } from '@scriptorium/common/export/html';
import { spansColumns, twoColumns } from '@scriptorium/common/export/latex-classes';
import { authorName, type PreparedDocument } from '@scriptorium/common/export/model';
import { escapeXml } from '@scriptorium/common/export/text';

/**
 * The typeset PDF's page (issue 53): the export HTML (the same markup as the HTML and EPUB
 * exports, so heading numbers, captions and the bibliography's layout come from there) with a
 * paged-media style sheet that Paged.js lays out in the printer (typeset.ts): an article's title
 * block, running heads, page numbers, notes at the foot of their page, figures and tables kept
 * whole. Until Paged.js lays it out in pages its body is not displayed (`#unpaged`: Chromium
 * would lay the whole text out once in one long column for nothing). The page loads nothing:
 * images are data: URLs, and its CSP allows no script of its own
 * and no request but data: (the printer runs Paged.js through the DevTools protocol).
 */

/** What the PDF's document information and catalog carry. */
export interface PdfMetadata {
  title: string;
  authors: string[];
  keywords: string[];
  language: string;
}

const KEYWORDS_LABEL: Record<string, string> = {
  en: 'Keywords',
  de: 'Schlagwörter',
  fr: 'Mots-clés',
  es: 'Palabras clave',
  it: 'Parole chiave',
  pt: 'Palavras-chave',
  bg: 'Ключови думи',
};

/** In place of a figure's image the reader may not see (or no reader can show). */
const NO_IMAGE: Record<string, string> = {
  en: 'Image not available',
  de: 'Bild nicht verfügbar',
  fr: 'Image non disponible',
  es: 'Imagen no disponible',
  it: 'Immagine non disponibile',
  pt: 'Imagem indisponível',
  bg: 'Изображението не е налично',
};

/** "and" between the last two authors of a running head. */
const AND: Record<string, string> = { en: 'and', de: 'und', fr: 'et', es: 'y', it: 'e', pt: 'e', bg: 'и' };

function languageKey(language: string): string {
  return language.toLowerCase().split('-')[0];
}

/** A CSS string literal of any text (quotes, backslashes and line ends escaped). */
export function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&').replace(/[\n\r\f]/g, ' ')}"`;
}

/** The running head's title: up to a colon, or cut at a word near 60 characters. */
export function shortTitle(title: string): string {
  const plain = title.replace(/\s+/g, ' ').trim();
  if (plain.length <= 60) return plain;
  const colon = plain.indexOf(':');
  if (colon >= 15 && colon <= 60) return plain.slice(0, colon);
  const cut = plain.slice(0, 60);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 30))}\u2026`;
}

/** The running head's authors: their family names, "et al." past two. */
export function runningAuthors(prepared: PreparedDocument): string {
  const names = prepared.authors
    .map((person) => (person.lastname || authorName(person)).trim())
    .filter(Boolean);
  if (names.length > 2) return `${names[0]} et al.`;
  return names.join(` ${AND[languageKey(prepared.language)] ?? AND.en} `);
}

export function pdfMetadata(prepared: PreparedDocument): PdfMetadata {
  return {
    title: prepared.title,
    authors: prepared.authors.map(authorName).filter(Boolean),
    keywords: prepared.keywords,
    language: prepared.language,
  };
}

/** Between the two columns, in points. */
const COLUMN_GAPS: Record<string, number> = {
  // IEEEtran's \columnsep (0.2 in) and acmart sigconf's (2 pc).
  'ieee-conference': 14.4,
  'acm-sigconf': 24,
};

/**
 * The page of a journal template whose class sets two columns (IEEEtran conference, acmart
 * sigconf; by the document's LaTeX layout, which the template sets, as its DOCX's house style):
 * that class's margins and body size, the title block across both columns, the rest in two, a
 * figure or table as wide as its column. Other documents have the one-column page above.
 */
export function twoColumnCss(prepared: PreparedDocument): string {
  const name = String(prepared.doc.attrs.latex_class ?? '');
  const gap = COLUMN_GAPS[name];
  if (gap === undefined) return '';
  const house = HOUSE_STYLES[name as keyof typeof HOUSE_STYLES];
  const pt = (mm: number) => `${((mm / 25.4) * 72).toFixed(1)}pt`;
  const { top, right, bottom, left } = house.margins;
  const line = Math.round(house.size * 1.2 * house.line * 10) / 10;
  return `@page { margin: ${pt(top)} ${pt(right)} ${pt(bottom)} ${pt(left)}; }
body { font-size: ${house.size}pt; line-height: ${line}pt; }
article { columns: 2; column-gap: ${gap}pt; }
header { column-span: all; margin-bottom: 12pt; }
.abstract { margin-left: 0; margin-right: 0; }
.keywords { margin-left: 0; margin-right: 0; }
figure img { max-height: 40vh; }
table { max-width: 100%; }
[data-span="all"] { column-span: all; margin-top: 0; margin-bottom: 12pt; }
figure[data-span="all"] img { max-height: 45vh; }
`;
}

/**
 * In two columns, the figures and tables wider than a column (spansColumns, as the LaTeX export's
 * figure* and table*) are marked to span both: the page's style sheet (above) and the Floats
 * handler (typeset.ts: such a float waits for the top of the next page) know them by it. Those
 * with an id (a cross-reference target: every numbered one); not those in a table or list.
 */
export function markSpanning(html: string, prepared: PreparedDocument): string {
  if (!twoColumns(prepared)) return html;
  let marked = html;
  prepared.doc.descendants((node, _pos, parent) => {
    if (parent && ['table_cell', 'table_header', 'list_item'].includes(parent.type.name)) return false;
    if (
      (node.type.name === 'figure' || node.type.name === 'table') &&
      node.attrs.id &&
      spansColumns(node, prepared.images)
    ) {
      const id = ` id="${escapeXml(String(node.attrs.id))}"`;
      marked = marked.replace(id, `${id} data-span="all"`);
    }
    return node.type.name !== 'table';
  });
  return marked;
}

/**
 * The paged-media style sheet, after the export's own (exportCss), whose rules it overrides where
 * print asks otherwise. Heading numbers, if the export HTML draws them with CSS counters, stay as
 * they are: nothing here sets `content` or counters on headings.
 */
export function typesetCss(prepared: PreparedDocument): string {
  const letter = prepared.paperSize === 'US Letter';
  // LaTeX's article at 10 pt: a text block 345 pt wide and 49 (A4) or 45 (Letter) lines of 12 pt
  // high, centred; so a paper takes about as many pages as its LaTeX export compiled.
  const margins = letter ? '121pt 133.5pt' : '122pt 125pt';
  const key = languageKey(prepared.language);
  const keywords = KEYWORDS_LABEL[key] ?? KEYWORDS_LABEL.en;
  // Cross-references in a page form: the target's page from Paged.js (target-counter).
  const pageWords = (form: 'page' | 'number-page') =>
    cssString(crossReferencePieces('', form, prepared.language).pageWords ?? '');
  return `@page {
  size: ${letter ? 'letter' : 'A4'};
  margin: ${margins};
  @top-left { content: ${cssString(runningAuthors(prepared))}; font-size: 8.5pt; vertical-align: bottom; padding-bottom: 18pt; }
  @top-right { content: ${cssString(shortTitle(prepared.title))}; font-size: 8.5pt; font-style: italic; vertical-align: bottom; padding-bottom: 18pt; }
  @bottom-center { content: counter(page); font-size: 9pt; vertical-align: top; padding-top: 24pt; }
  @footnote { border-top: 0.5pt solid #000; padding-top: 2pt; margin-top: 8pt; }
}
@page :first {
  @top-left { content: none; }
  @top-right { content: none; }
}
html, body { margin: 0; padding: 0; max-width: none; }
body { font-family: "Liberation Serif", "Source Serif 4", "DejaVu Serif", serif; font-size: 10pt; line-height: 12pt; text-align: justify; hyphens: auto; color: #000; }
/* A word wider than the line (a URL, a sequence) breaks anywhere rather than run off the page. */
body { overflow-wrap: anywhere; }
article { max-width: none; }
/* Paged.js justifies the last line of a block it splits (an attribute on it): not of everything inside. */
body * { text-align-last: auto; }
p { margin: 0; widows: 2; orphans: 2; }
p + p { text-indent: 1.5em; }
h2, h3, h4, h5, h6 { text-align: left; break-after: avoid; page-break-after: avoid; hyphens: manual; }
h2 { font-size: 12pt; margin: 14pt 0 5pt; }
h3 { font-size: 10.5pt; margin: 10pt 0 4pt; }
h4, h5, h6 { font-size: 10pt; font-style: italic; font-weight: normal; margin: 8pt 0 3pt; }
header { margin-bottom: 14pt; text-align: center; }
h1.title { font-size: 17pt; line-height: 1.2; margin: 0 0 6pt; text-align: center; }
.subtitle { font-size: 12pt; margin: 0 0 8pt; text-align: center; }
.authors { list-style: none; padding: 0; margin: 6pt 0 10pt; text-align: center; font-size: 10.5pt; }
.authors li { display: inline-block; margin: 0 0.9em; }
.authors .institution { font-style: italic; font-size: 9pt; }
.abstract { margin: 10pt 8% 6pt; font-size: 9pt; text-align: justify; }
.abstract h2 { font-size: 9pt; text-align: center; margin: 0 0 3pt; }
.keywords { margin: 4pt 8% 0; font-size: 9pt; text-align: left; }
.keywords::before { content: ${cssString(`${keywords}: `)}; font-weight: bold; }
ul, ol { margin: 4pt 0; padding-left: 1.8em; }
li p + p { text-indent: 0; }
blockquote { margin: 6pt 2em; font-size: 9.5pt; }
figure { margin: 8pt 0; break-inside: avoid; page-break-inside: avoid; }
figure img { max-width: 100%; height: auto; max-height: 60vh; object-fit: contain; }
figcaption, caption { font-size: 9pt; font-style: normal; line-height: 1.2; margin-top: 4pt; text-align: center; }
.caption-label { font-weight: bold; }
figure.equation { margin: 6pt 0; }
table { break-inside: avoid; page-break-inside: avoid; border-collapse: collapse; margin: 8pt auto; font-size: 9pt; border-top: 1pt solid #000; border-bottom: 1pt solid #000; }
caption { caption-side: top; margin: 0 0 4pt; }
td, th { border: none; padding: 2pt 6pt; text-align: left; }
th { border-bottom: 0.5pt solid #000; }
td p + p, th p + p { text-indent: 0; }
pre { font-size: 8.5pt; white-space: pre-wrap; break-inside: avoid; }
a { color: inherit; text-decoration: none; }
a.cross-reference { color: inherit; }
a.cross-reference[data-form="page"] .cross-reference-number { display: none; }
a.cross-reference[data-form="page"]::after { content: ${pageWords('page')} target-counter(attr(href), page); }
a.cross-reference[data-form="number-page"]::after { content: ${pageWords('number-page')} target-counter(attr(href), page); }
.bibliography { font-size: 9pt; text-align: left; }
.bibliography h2 { font-size: 12pt; }
.csl-entry { break-inside: avoid; }
.footnote { float: footnote; font-size: 8pt; line-height: 1.25; text-align: left; text-indent: 0; }
.footnote::footnote-marker { content: counter(footnote-marker) ". "; }
.footnote::footnote-call { content: counter(footnote); vertical-align: super; font-size: 70%; line-height: 0; }
.footnote .footnote-back { display: none; }
`;
}

function dataUrl(data: Uint8Array, type: string): string {
  return `data:${type};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

/** A framed box saying that the image is not available: the export marks the spot. */
function missingImage(language: string): string {
  const text = (NO_IMAGE[languageKey(language)] ?? NO_IMAGE.en).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="60" viewBox="0 0 360 60"><rect x="1" y="1" width="358" height="58" fill="#f4f4f4" stroke="#666" stroke-dasharray="4 3"/><text x="180" y="35" text-anchor="middle" font-family="Liberation Serif, serif" font-size="15">${text}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The page's policy: nothing but its own styles and data: images and fonts. */
const CSP = "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'";

/** The typeset page of a prepared document (not a book), and the PDF's metadata. */
export function typesetHtml(prepared: PreparedDocument): { html: string; metadata: PdfMetadata } {
  const images = webImages(prepared);
  const html = htmlPage(
    prepared,
    {
      imageUrl: (src) => {
        const file = images.get(src);
        return file ? dataUrl(file.image.data, file.image.type) : missingImage(prepared.language);
      },
      trackChanges: 'accepted',
      epub: false,
    },
    `<meta http-equiv="Content-Security-Policy" content="${CSP}"/><style>${exportCss(prepared.paperSize)}</style><style>${typesetCss(prepared)}${twoColumnCss(prepared)}</style><style id="unpaged">body { display: none; }</style>`,
  );
  return { html: markSpanning(html, prepared), metadata: pdfMetadata(prepared) };
}
