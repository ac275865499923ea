import { zipSync } from 'fflate';
import type { Mark, Node as PMNode } from 'prosemirror-model';
import { TableMap } from 'prosemirror-tables';
import type { EntryData } from '../bibliography/types';
import { renderLatex } from '../editor/academic-math';
import { crossReferenceForm } from '../editor/academic-nodes';
import { crossReferencePieces, headingNumbering, type NumberedTarget } from '../editor/academic-numbering';
import { citationKeys } from './citation-keys';
import { imageExtension, imageFiles } from './images';
import { latexBibliography } from './latex-bib';
import {
  biblatexPackage,
  citeprocBibliography,
  citeprocToLatex,
  escapeLatex,
  FALLBACK_BIBLATEX,
} from './latex-citations';
import { type LatexLayout, latexClassOf, latexLayout, spansColumns, twoColumns } from './latex-classes';
import { checkLatexMath, isControlCharacter, type MathCheck } from './latex-math';
import {
  authorName,
  type BookStructure,
  citationFallback,
  groupParts,
  isEquationFigure,
  type PreparedDocument,
} from './model';
import { figureSources, NodeWriter, rowCells } from './writer';

/**
 * LaTeX export: a zip of document.tex (LuaLaTeX, biblatex with biber), bibliography.bib (BibLaTeX,
 * the cited entries only) and the images. Citations stay \autocite/\textcite so that the journal's
 * biblatex style decides (but for a book's chapter in a style biblatex's one style cannot give:
 * see exportBookLatex); equations stay the authors' LaTeX. Suggestions are exported accepted
 * (LaTeX has no revisions) and comments are left out.
 */

/**
 * An equation's source as math when it passes the check (latex-math.ts); else a comment that says
 * why, and the source as visible typewriter text: the author sees it in the PDF, nothing runs.
 */
function checkedMath(
  latex: string,
  asMath: (source: string) => string,
  asText: (text: string) => string,
  display = false,
): string {
  const safety = checkLatexMath(latex);
  // Math the editor cannot read either (an unknown command, a stray &) would stop the compile:
  // it goes as text too, as the editor shows it.
  const parsed = safety.ok ? renderLatex(latex, display) : null;
  const check: MathCheck =
    parsed && !parsed.ok
      ? { ok: false, refusal: 'parse_error', detail: parsed.error.split('\n')[0] }
      : safety;
  if (check.ok) return asMath(latex);
  // One line of text: no line breaks (a blank line would end \texttt's argument), no controls.
  const line = [...latex].map((char) => (isControlCharacter(char) || char === '\n' ? ' ' : char)).join('');
  const text = escapeLatex(line.trim());
  return `%\n% Scriptorium: equation not written as math (${check.refusal} ${check.detail}); its source follows as text.\n${asText(`\\texttt{${text}}`)}`;
}

/** Labels and citation keys: letters, digits and a few signs LaTeX takes everywhere. */
function safeKey(id: string): string {
  return id.replace(/[^A-Za-z0-9:.\-_]/g, '-');
}

const POLYGLOSSIA: Record<string, string> = {
  en: 'english',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  bg: 'bulgarian',
};

const MARKS: Record<string, string> = {
  em: '\\emph',
  strong: '\\textbf',
  underline: '\\underline',
  sup: '\\textsuperscript',
  sub: '\\textsubscript',
  code: '\\texttt',
  smallcaps: '\\textsc',
};

class LatexWriter extends NodeWriter {
  /** LaTeX shows the text as it reads once the suggestions are accepted. */
  protected readonly accepted = true;
  readonly cited = new Set<string>();
  /**
   * Citations as citeproc rendered them: a style without a biblatex counterpart, or a book chapter
   * in a style other than the book's (biblatex loads one style per document).
   */
  renderedCitations = false;
  /** The biblatex package line the document loads (null: citeproc's text). */
  biblatex: string | null = null;
  /** The citation key of each entry by its id in the document. */
  readonly keys: Map<string, string>;
  /** Inside a note a note style's citation is its text, not a note of the note. */
  private inNote = false;
  /**
   * How many table cells the writer is in: a float (table, figure) is refused there ("Not in
   * outer par mode"), so one in a cell is a minipage with \captionof.
   */
  private inCell = 0;
  readonly images: ReturnType<typeof imageFiles>;
  /** The layout sets two columns (IEEEtran conference, acmart sigconf). */
  private readonly twoColumns: boolean;
  /** The heading commands by level (a layout with chapters starts at \chapter). */
  headingCommands = ['section', 'subsection', 'subsubsection', 'paragraph', 'subparagraph', 'subparagraph'];

  constructor(readonly prepared: PreparedDocument) {
    super();
    this.keys = citationKeys(prepared.entries);
    this.twoColumns = twoColumns(prepared);
    this.images = imageFiles(
      figureSources(prepared.doc),
      prepared.images,
      (image) => image.type === 'image/png' || image.type === 'image/jpeg',
    );
  }

  protected wrapMarks(content: string, own: readonly Mark[]): string | null {
    return this.acceptedMarks(
      content,
      own,
      (out, name) => (MARKS[name] ? `${MARKS[name]}{${out}}` : out),
      (out, href) =>
        href.startsWith('#')
          ? `\\hyperref[${safeKey(href.slice(1))}]{${out}}`
          : `\\href{${hrefTarget(href)}}{${out}}`,
    );
  }

  protected citation(node: PMNode): string {
    const all = node.attrs.references as { id: string; prefix: string; locator: string }[];
    const refs = all.filter((ref) => this.prepared.entries.has(ref.id));
    // An entry no longer in the document: the spot stays visible, as in the other formats.
    if (!refs.length) return `\textbf{${escapeLatex(citationFallback(node))}}`;
    for (const ref of refs) this.cited.add(ref.id);
    if (this.renderedCitations) {
      const rendered = this.prepared.citations.get(node);
      const text = rendered
        ? citeprocToLatex(rendered)
        : escapeLatex(`(${refs.map((ref) => this.key(ref.id)).join('; ')})`);
      const note = this.prepared.noteCitations?.has(node) ?? this.prepared.noteStyle;
      return note && rendered && !this.inNote ? `\\footnote{${text}}` : text;
    }
    const command = node.attrs.format === 'textcite' ? 'textcite' : 'autocite';
    const one = (ref: { id: string; prefix: string; locator: string }) => {
      const pre = ref.prefix ? `[${escapeLatex(ref.prefix)}]` : '';
      const post = ref.locator ? `[${escapeLatex(ref.locator)}]` : pre ? '[]' : '';
      return `${pre}${post}{${this.key(ref.id)}}`;
    };
    return refs.length === 1 ? `\\${command}${one(refs[0])}` : `\\${command}s${refs.map(one).join('')}`;
  }

  /** An entry's citation key: the user's own, or a readable one made up (citation-keys.ts). */
  key(id: string): string {
    return this.keys.get(id) ?? id;
  }

  protected text(text: string): string {
    return escapeLatex(text);
  }

  // \leavevmode: a break opening a paragraph or a note has a line to end.
  protected readonly hardBreak = '\\leavevmode\\newline{}';

  note(node: PMNode): string {
    this.inNote = true;
    const paragraphs = this.noteParagraphs(node);
    this.inNote = false;
    return `\\footnote{${paragraphs.join('\\par ')}}`;
  }

  protected equation(latex: string): string {
    return checkedMath(
      latex,
      (math) => `\\(${math}\\)`,
      (text) => text,
    );
  }

  protected crossReference(id: string, node: PMNode): string {
    const target = this.prepared.numbering.byId.get(id);
    if (!target) return '??';
    const pieces = crossReferencePieces(
      target.label,
      crossReferenceForm(node.attrs.form),
      this.prepared.language,
    );
    // A page form: its words and \pageref, a tie before the number ("page~\pageref{x}").
    const page =
      pieces.pageWords === null ? '' : `${escapeLatex(pieces.pageWords.trimEnd())}~\\pageref{${safeKey(id)}}`;
    if (!pieces.number) return page;
    return this.numberReference(id, target) + page;
  }

  private numberReference(id: string, target: NumberedTarget): string {
    if (target.kind === 'equation') return `\\eqref{${safeKey(id)}}`;
    // An unnumbered heading is named ("Section “Methods”"), linked to it.
    if (!target.number) return `\\hyperref[${safeKey(id)}]{${escapeLatex(target.label)}}`;
    return `${escapeLatex(target.label.slice(0, target.label.length - target.number.length))}\\ref{${safeKey(id)}}`.replace(
      / \\ref/,
      '~\\ref',
    );
  }

  block(node: PMNode): string {
    const label = node.attrs.id ? `\\label{${safeKey(String(node.attrs.id))}}` : '';
    switch (node.type.name) {
      case 'paragraph':
        return `${this.inlineContent(node)}\n\n`;
      case 'heading': {
        const command = this.headingCommands[Number(node.attrs.level) - 1];
        // Numbered as the document's heading numbering says: \section, or \section* (an anchor
        // for its label, which references reach by \hyperref).
        if (this.prepared.numbers.get(node)?.number)
          return `\\${command}{${this.inlineContent(node)}}${label}\n\n`;
        return `${label ? '\\phantomsection' : ''}\\${command}*{${this.inlineContent(node)}}${label}\n\n`;
      }
      case 'blockquote':
        return `\\begin{quote}\n${this.blocks(node)}\\end{quote}\n\n`;
      case 'code_block':
        return `\\begin{verbatim}\n${node.textContent.replace(/\\end\{verbatim\}/g, '\\end {verbatim}')}\n\\end{verbatim}\n\n`;
      case 'horizontal_rule':
      case 'separator_part':
        return '\\noindent\\rule{\\linewidth}{0.4pt}\n\n';
      case 'toc_part':
        // A thesis (chapters) lists its figures and tables after the contents.
        return this.headingCommands[0] === 'chapter'
          ? '\\tableofcontents\n\\listoffigures\n\\listoftables\n\n'
          : '\\tableofcontents\n\n';
      case 'bullet_list':
        return `\\begin{itemize}\n${this.items(node)}\\end{itemize}\n\n`;
      case 'ordered_list': {
        const start = Number(node.attrs.start);
        return `\\begin{enumerate}\n${start !== 1 ? `\\setcounter{enumi}{${start - 1}}\n` : ''}${this.items(node)}\\end{enumerate}\n\n`;
      }
      case 'table':
        return this.table(node, label);
      case 'figure':
        return this.figure(node, label);
      default:
        return '';
    }
  }

  private items(list: PMNode): string {
    let out = '';
    for (const item of this.keptChildren(list))
      out += `\\item ${this.withChanges(item, () => this.blocks(item)).trim()}\n`;
    return out;
  }

  private table(node: PMNode, label: string): string {
    const map = TableMap.get(node);
    const width = (span: number) => `p{${((0.95 * span) / map.width).toFixed(3)}\\linewidth}`;
    const rows: string[] = [];
    for (let row = 0; row < map.height; row++) {
      // A row suggested deleted is left out (accepting removes it).
      if (!this.kept(node.child(row))) continue;
      const cells: string[] = [];
      for (const { cell, span, rowspan, starts } of rowCells(node, map, row)) {
        let content = '';
        if (starts) {
          this.inCell++;
          content = this.withChanges(cell, () => this.blocks(cell))
            .trim()
            // \par, not \newline: a block that ends in vertical mode (a centred line, a list) leaves
            // no line for \newline to end.
            .replace(/\n\n+/g, ' \\par ');
          this.inCell--;
        }
        if (starts && rowspan > 1) content = `\\multirow{${rowspan}}{=}{${content}}`;
        if (span > 1) content = `\\multicolumn{${span}}{|${width(span)}|}{${content}}`;
        cells.push(content);
      }
      rows.push(`${cells.join(' & ')} \\\\ ${this.rule(map, row)}`);
    }
    const caption = String(node.attrs.caption);
    const captioned =
      caption || label
        ? `\\${this.inCell ? 'captionof{table}' : 'caption'}{${escapeLatex(caption)}}${label}\n`
        : '';
    const tabular = `\\begin{tabular}{|${Array.from({ length: map.width }, () => width(1)).join('|')}|}\n\\hline\n${rows.join('\n')}\n\\end{tabular}\n`;
    const wide = this.spans(node);
    return `${this.floatOpen('table', wide)}\\centering\n${captioned}${tabular}${this.floatClose('table', wide)}\n\n`;
  }

  /** \hline, or \cline over the columns whose cell does not go on into the next row. */
  private rule(map: TableMap, row: number): string {
    if (row === map.height - 1) return '\\hline';
    const open: number[] = [];
    for (let column = 0; column < map.width; column++)
      if (map.map[row * map.width + column] !== map.map[(row + 1) * map.width + column])
        open.push(column + 1);
    if (open.length === map.width) return '\\hline';
    return open.map((column) => `\\cline{${column}-${column}}`).join('');
  }

  private figure(node: PMNode, label: string): string {
    const caption = escapeLatex(String(node.attrs.caption));
    if (isEquationFigure(node)) {
      const numbered = this.prepared.numbers.has(node);
      const env = numbered ? 'equation' : 'equation*';
      // An equation environment has no caption: it follows centred, as the other formats show it.
      const after = caption ? `\\begin{center}${caption}\\end{center}\n\n` : '';
      return (
        checkedMath(
          String(node.attrs.equation),
          (math) => `\\begin{${env}}${numbered ? label : ''}\n${math}\n\\end{${env}}\n\n`,
          (text) => `\\begin{center}${text}\\end{center}\n\n`,
          true,
        ) + after
      );
    }
    const file = this.images.get(String(node.attrs.src));
    const width = ((Number(node.attrs.width) || 100) / 100).toFixed(2);
    const picture = file ? `\\includegraphics[width=${width}\\linewidth]{images/${file.name}}\n` : '';
    const align =
      node.attrs.aligned === 'left'
        ? '\\raggedright'
        : node.attrs.aligned === 'right'
          ? '\\raggedleft'
          : '\\centering';
    const numbered = this.prepared.numbers.has(node);
    const command = this.inCell ? 'captionof' : 'caption';
    const kind = this.inCell ? '{figure}' : '';
    const captioned = numbered
      ? `\\${command}${kind}{${caption}}${label}`
      : caption
        ? `\\${command}*${kind}{${caption}}`
        : '';
    const wide = this.spans(node);
    return `${this.floatOpen('figure', wide)}${align}\n${picture}${captioned ? `${captioned}\n` : ''}${this.floatClose('figure', wide)}\n\n`;
  }

  /** In two columns, a figure or table wider than one spans both (latex-classes.ts): figure*, table*. */
  private spans(node: PMNode): boolean {
    return !this.inCell && this.twoColumns && spansColumns(node, this.prepared.images);
  }

  /**
   * A float's beginning: in a table cell a minipage of the cell's width (floats are refused there);
   * one across both columns goes to the top of a page (the starred floats know no h or b).
   */
  private floatOpen(kind: 'table' | 'figure', wide = false): string {
    if (this.inCell) return '\\begin{minipage}{\\linewidth}\n';
    return wide ? `\\begin{${kind}*}[tp]\n` : `\\begin{${kind}}[htbp]\n`;
  }

  private floatClose(kind: 'table' | 'figure', wide = false): string {
    return this.inCell ? '\\end{minipage}' : `\\end{${kind}${wide ? '*' : ''}}`;
  }
}

/**
 * How the export cites: a biblatex package line (a style with a biblatex counterpart, or plain
 * author-year when no style rendered anything), or null for citeproc's own rendering.
 */
function citing(p: PreparedDocument, cslStyle: string): string | null {
  const mapped = biblatexPackage(cslStyle, p.language);
  if (mapped) return mapped;
  const rendered = [...p.citations.values()].some(Boolean);
  return rendered ? null : FALLBACK_BIBLATEX;
}

/** The book export's layout: the book class, the common preamble only. */
const BOOK_LAYOUT: Pick<
  LatexLayout,
  'documentClass' | 'options' | 'loadsHyperref' | 'ownMath' | 'biblatexOptions'
> = {
  documentClass: 'book',
  options: [],
  loadsHyperref: false,
  ownMath: false,
  biblatexOptions: [],
};

/** The counters of a heading numbering the class does not have (IEEE's I / I-A in another class). */
function numberingPreamble(p: PreparedDocument, layout: Pick<LatexLayout, 'documentClass'>): string {
  const scheme = headingNumbering(p.doc);
  if (scheme === 'none') return '';
  // Three levels numbered everywhere (llncs numbers two of its own).
  let out = `\\setcounter{secnumdepth}{${layout.documentClass === 'report' || layout.documentClass === 'book' ? 2 : 3}}\n`;
  if (scheme === 'roman' && layout.documentClass !== 'IEEEtran')
    out +=
      '\\renewcommand\\thesection{\\Roman{section}}\n\\renewcommand\\thesubsection{\\thesection-\\Alph{subsection}}\n\\renewcommand\\thesubsubsection{\\thesubsection\\arabic{subsubsection}}\n';
  return out;
}

/** From \documentclass to hyperref: what an article and a book share. */
function preamble(
  p: PreparedDocument,
  layout: Pick<LatexLayout, 'documentClass' | 'options' | 'loadsHyperref' | 'ownMath' | 'biblatexOptions'>,
  biblatex: string | null,
): string {
  const [language, variant] = p.language.toLowerCase().split('-');
  const polyglossia = POLYGLOSSIA[language] ?? 'english';
  const languageOptions =
    polyglossia === 'portuguese' && variant === 'br'
      ? '[variant=brazilian]'
      : polyglossia === 'english' && variant === 'gb'
        ? '[variant=british]'
        : '';
  // elsarticle and biblatex-apa both make a counter named author ("already defined"): biblatex's
  // takes the name, elsarticle numbers its title block's authors with it before any reference.
  const sharedCounter =
    layout.documentClass === 'elsarticle' && biblatex?.includes('style=apa')
      ? '\\makeatletter\\let\\c@author\\relax\\makeatother\n'
      : '';
  const bibliography = biblatex
    ? `${sharedCounter}${biblatex}\n\\addbibresource{bibliography.bib}\n`
    : `% The citations and the bibliography are as citeproc rendered them in the document's style
% (${String(p.doc.attrs.citationstyle) || 'none'}), which no biblatex style in TeX Live matches; bibliography.bib holds the entries.
`;
  return `% Written by Scriptorium. Compile with: ${biblatex ? 'lualatex document; biber document; lualatex document; lualatex document' : 'lualatex document; lualatex document'}
\\documentclass[${[p.paperSize === 'US Letter' ? 'letterpaper' : 'a4paper', ...layout.options, ...(biblatex ? layout.biblatexOptions : [])].join(',')}]{${layout.documentClass}}
\\usepackage{fontspec}
\\usepackage{polyglossia}
${polyglossia === 'bulgarian' ? '% Latin Modern has no Cyrillic: DejaVu (fonts-dejavu-core) has.\n\\newfontfamily\\cyrillicfont{DejaVu Serif}\n\\newfontfamily\\cyrillicfontsf{DejaVu Sans}\n\\newfontfamily\\cyrillicfonttt{DejaVu Sans Mono}\n' : ''}\\setdefaultlanguage${languageOptions}{${polyglossia}}
${layout.ownMath ? '' : '\\usepackage{amsmath,amssymb}\n'}\\usepackage{graphicx}
\\usepackage{array,multirow}
\\usepackage{caption}
\\usepackage{csquotes}
${bibliography}${layout.loadsHyperref ? '\\hypersetup{hidelinks}' : '\\usepackage[hidelinks]{hyperref}'}
${layout.documentClass === 'book' ? '' : numberingPreamble(p, layout)}`;
}

/** A link's target as \href takes it (`\&`: a bare one in a table cell would end the cell). */
function hrefTarget(href: string): string {
  return href.replace(/[%#&\\{}]/g, (c) => `\\${c}`);
}

/**
 * Control characters other than tab and line ends: TeX refuses them ("Text line contains an
 * invalid character"), and they carry nothing a reader sees. A pasted vertical tab is enough.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: those are exactly what must go.
const NOT_TEX_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** The zip: the .tex, the .bib of the cited entries under their keys and the images. */
function latexZip(tex: string, writer: LatexWriter, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const cited = [...writer.cited].map((id) => ({
    key: writer.key(id),
    entry: writer.prepared.entries.get(id) as EntryData,
  }));
  const encoder = new TextEncoder();
  const files: Record<string, Uint8Array> = {
    'document.tex': encoder.encode(tex.replace(NOT_TEX_TEXT, '')),
    'bibliography.bib': encoder.encode(
      latexBibliography(cited, {
        titles: writer.biblatex?.includes('{biblatex-chicago}') ? 'title' : 'sentence',
      }).replace(NOT_TEX_TEXT, ''),
    ),
    ...extra,
  };
  for (const file of writer.images.values()) files[`images/${file.name}`] = file.image.data;
  return zipSync(files, { level: 6 });
}

export function exportLatex(prepared: PreparedDocument): Uint8Array {
  if (prepared.book) return exportBookLatex(prepared, prepared.book);
  const writer = new LatexWriter(prepared);
  const p = prepared;
  // The template's class, preamble and front matter (latex-classes.ts).
  const layout = latexLayout(latexClassOf(p.doc.attrs.latex_class));
  if (layout.chapters) writer.headingCommands = ['chapter', ...writer.headingCommands.slice(0, 5)];
  // IEEEtran has no \subparagraph: levels 5 and 6 are both its \paragraph.
  if (layout.documentClass === 'IEEEtran')
    writer.headingCommands = writer.headingCommands.map((command) =>
      command === 'subparagraph' ? 'paragraph' : command,
    );
  const biblatex = citing(p, String(p.doc.attrs.citationstyle));
  writer.biblatex = biblatex;
  writer.renderedCitations = biblatex === null;
  const body = p.body.map((part) => writer.blocks(part)).join('');
  const abstract = p.abstract ? writer.blocks(p.abstract) : '';
  const title = writer.inlineContent(p.doc.firstChild as PMNode);
  const heading = escapeLatex(p.bibliographyTitle);
  const unnumbered = layout.chapters ? '\\chapter*' : '\\section*';
  const bibliography = !writer.cited.size
    ? ''
    : biblatex
      ? `\\printbibliography[title={${heading}}]\n`
      : citeprocBibliography(p.bibliography, `${unnumbered}{${heading}}`);
  const tex = `${preamble(p, layout, biblatex)}${layout.preamble}\\hypersetup{pdftitle={${escapeLatex(p.title)}},pdfauthor={${escapeLatex(p.authors.map(authorName).join('; '))}},pdfkeywords={${escapeLatex(p.keywords.join(', '))}}}
${layout.front(p, { title, abstract })}${body}${bibliography}${layout.back ?? ''}\\end{document}
`;
  return latexZip(tex, writer);
}

/**
 * A book (issue 21): the book class with a title page (cover, title, authors, publisher), the
 * copyright page, the table of contents, \\part and \\chapter (each chapter's authors and abstract
 * under its title), figures, tables and equations numbered through the book, one bibliography.
 * A chapter that keeps its own style, where that style's nearest biblatex style is not the book's,
 * has citeproc's citations and bibliography (biblatex loads one style for the whole document).
 */
function exportBookLatex(prepared: PreparedDocument, book: BookStructure): Uint8Array {
  const writer = new LatexWriter(prepared);
  const p = prepared;
  const cover =
    book.cover && (book.cover.type === 'image/png' || book.cover.type === 'image/jpeg') ? book.cover : null;
  const coverName = cover ? `images/cover.${imageExtension(cover)}` : '';
  const perChapter = book.chapters.some((chapter) => chapter.bibliography.length > 0);
  // The book's biblatex style (or none: every chapter as citeproc rendered it).
  const biblatex = citing(p, String(p.doc.attrs.citationstyle));
  writer.biblatex = biblatex;
  let chapters = '';
  for (const group of groupParts(book.chapters)) {
    if (group.part) chapters += `\\part{${escapeLatex(group.part)}}\n\n`;
    for (const chapter of group.chapters) {
      chapters += `\\chapter{${writer.inlineContent(chapter.titleNode)}}\\label{${chapter.anchor}}\n`;
      if (chapter.subtitle) chapters += `{\\large ${escapeLatex(chapter.subtitle)}\\par}\n`;
      if (chapter.authors.length)
        chapters += `{\\itshape ${chapter.authors.map((person) => escapeLatex(authorName(person))).join(', ')}\\par}\n`;
      chapters += '\\bigskip\n\n';
      // Chapters that keep their own style: where biblatex's nearest style is not the book's,
      // the chapter reads as in the other formats (citeproc's text, its own bibliography).
      writer.renderedCitations =
        biblatex === null || biblatexPackage(chapter.citationStyle, p.language) !== biblatex;
      const citedBefore = new Set(writer.cited);
      if (chapter.abstract)
        chapters += `\\begin{quotation}\\small\n${writer.blocks(chapter.abstract)}\\end{quotation}\n\n`;
      const body = chapter.body.map((part) => writer.blocks(part)).join('');
      const own = [...writer.cited].filter((id) => !citedBefore.has(id)).map((id) => writer.key(id));
      if (writer.renderedCitations)
        // Its entries still go to the book's bibliography at the end; or its own list after it.
        chapters += perChapter
          ? `${body}${citeprocBibliography(chapter.bibliography, '\\section*{\\refname}')}`
          : `${body}${own.length && biblatex ? `\\nocite{${own.join(',')}}\n\n` : ''}`;
      // biblatex's refsection: the chapter's citations and its own bibliography after it.
      else
        chapters += perChapter
          ? `\\begin{refsection}\n${body}\\printbibliography[heading=subbibliography]\n\\end{refsection}\n\n`
          : body;
    }
  }
  writer.renderedCitations = false;
  const titlePage = `\\begin{titlepage}
\\centering
${cover ? `\\includegraphics[width=0.7\\textwidth,height=0.5\\textheight,keepaspectratio]{${coverName}}\\par\\vspace{2em}\n` : ''}{\\Huge ${escapeLatex(p.title)}\\par}
\\vspace{2em}
${p.authors.length ? `{\\Large ${p.authors.map((person) => escapeLatex(authorName(person))).join('\\par ')}\\par}\n` : ''}\\vfill
${book.publisher ? `{\\large ${escapeLatex(book.publisher)}\\par}\n` : ''}\\end{titlepage}
${book.copyright || book.isbn ? `\\thispagestyle{empty}\n\\vspace*{\\fill}\n\\noindent ${[book.copyright, book.isbn ? `ISBN ${book.isbn}` : ''].filter(Boolean).map(escapeLatex).join('\\\\\n')}\n\\clearpage\n` : ''}`;
  const bibliography =
    !writer.cited.size || perChapter
      ? ''
      : biblatex
        ? '\\backmatter\n\\printbibliography[heading=bibintoc]\n'
        : `\\backmatter\n${citeprocBibliography(p.bibliography, '\\chapter*{\\bibname}\\addcontentsline{toc}{chapter}{\\bibname}')}`;
  const tex = `${preamble(p, BOOK_LAYOUT, biblatex)}\\counterwithout{figure}{chapter}
\\counterwithout{table}{chapter}
\\counterwithout{equation}{chapter}
\\hypersetup{pdftitle={${escapeLatex(p.title)}},pdfauthor={${escapeLatex(p.authors.map(authorName).join('; '))}}}
\\begin{document}
\\frontmatter
${titlePage}\\tableofcontents
\\mainmatter
${chapters}${bibliography}\\end{document}
`;
  return latexZip(tex, writer, cover ? { [coverName]: cover.data } : {});
}
