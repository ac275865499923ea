import { zipSync } from 'fflate';
import type { Mark, Node as PMNode } from 'prosemirror-model';
import { BIBLIOGRAPHY_LAYOUT_CSS, bibliographyBody, DEFAULT_LAYOUT } from '../bibliography/layout';
import { renderLatex } from '../editor/academic-math';
import { crossReferenceForm } from '../editor/academic-nodes';
import { documentLabel } from '../editor/academic-numbering';
import type { Contributor } from '../editor/commands';
import { uriHref } from '../editor/safe-links';
import { withInherited } from './block-changes';
import { imageFiles } from './images';
import {
  authorName,
  type BookStructure,
  COVER_SRC,
  citationFallback,
  groupParts,
  isEquationFigure,
  type PreparedChapter,
  type PreparedDocument,
  tocEntries,
} from './model';
import { citeprocToXhtml, escapeXml } from './text';
import { figureSources, NodeWriter } from './writer';

/**
 * HTML of a document, well-formed XHTML so that the same markup serves the HTML zip, the EPUB and
 * the PDF (Chromium lays out the same page the editor's styles describe). Equations are MathML
 * (Temml), citations citeproc's HTML in the document's style.
 */

export interface HtmlOptions {
  /** The URL of a figure's image in the output, or null to leave the picture out. */
  imageUrl: (src: string) => string | null;
  /** markup: <ins>/<del> as suggested; accepted: the text as it reads once all are accepted. */
  trackChanges: 'markup' | 'accepted';
  /** EPUB: footnote links carry epub:type. */
  epub: boolean;
  /**
   * PDF of a book: the page each chapter and part starts on, by its anchor (chapter-2, part-1),
   * shown after its line in the contents; measured by a first print (server export/pdf.ts).
   */
  contentsPages?: ReadonlyMap<string, number>;
}

const MARK_TAGS: Record<string, [string, string]> = {
  em: ['<em>', '</em>'],
  strong: ['<strong>', '</strong>'],
  underline: ['<u>', '</u>'],
  sup: ['<sup>', '</sup>'],
  sub: ['<sub>', '</sub>'],
  code: ['<code>', '</code>'],
  smallcaps: ['<span class="smallcaps">', '</span>'],
};

function xhtmlMath(latex: string, display: boolean): string | null {
  const result = renderLatex(latex, display);
  if (!result.ok) return null;
  return result.mathml
    .replace('<math', '<math xmlns="http://www.w3.org/1998/Math/MathML"')
    .replace(/&nbsp;/g, '&#160;');
}

export class HtmlWriter extends NodeWriter {
  private readonly notes: string[] = [];
  /** Before note ids: a book's chapters on one page each number their notes from 1. */
  private notePrefix = '';
  /** Added to a heading's level for its h element: the title above is h1 (a book's chapter: more). */
  private headingShift = 1;
  protected readonly accepted: boolean;

  constructor(
    private readonly prepared: PreparedDocument,
    private readonly options: HtmlOptions,
  ) {
    super();
    this.accepted = options.trackChanges === 'accepted';
  }

  /**
   * Markup of the suggestions recorded on a block: a whole block suggested inserted or deleted
   * (a row, a cell, a list, a table) gets class="insertion"/"deletion" (its text is in ins/del);
   * a suggested paragraph break after a textblock ends it in an ins/del pilcrow, as Word shows
   * one. Nothing once accepted.
   */
  private changeClass(node: PMNode): string {
    if (this.accepted) return '';
    const names = this.blockChanges.whole(node).map((mark) => mark.type.name);
    return names.length ? ` class="${names.join(' ')}"` : '';
  }

  private breakMark(node: PMNode): string {
    if (this.accepted) return '';
    let out = '';
    for (const mark of this.blockChanges.breakAfter(node)) {
      const tag = mark.type.name === 'deletion' ? 'del' : 'ins';
      out += `<${tag} class="paragraph-break">\u00b6</${tag}>`;
    }
    return out;
  }

  protected wrapMarks(content: string, marks: readonly Mark[]): string | null {
    let out = content;
    for (const mark of marks) {
      const tags = MARK_TAGS[mark.type.name];
      if (tags) out = `${tags[0]}${out}${tags[1]}`;
      else if (mark.type.name === 'link')
        out = `<a href="${escapeXml(uriHref(String(mark.attrs.href)))}">${out}</a>`;
    }
    const changes = withInherited(marks, this.inherited);
    const deletion = changes.some((mark) => mark.type.name === 'deletion');
    const insertion = changes.some((mark) => mark.type.name === 'insertion' && !mark.attrs.approved);
    if (this.accepted) return deletion ? null : out;
    if (deletion) out = `<del>${out}</del>`;
    if (insertion) out = `<ins>${out}</ins>`;
    return out;
  }

  /**
   * A footnote as pandoc writes one: the reference a doc-noteref link around a superscript number,
   * the note an item of the ordered list of the notes section, its last paragraph ending in a
   * doc-backlink to the reference.
   */
  private noteXml(paragraphs: string[]): string {
    const n = this.notes.length + 1;
    const epub = this.options.epub;
    const id = `${this.notePrefix}fn${n}`;
    const ref = `${this.notePrefix}fnref${n}`;
    const back = `<a href="#${ref}" class="footnote-back" role="doc-backlink">\u21a9\ufe0e</a>`;
    const body = (paragraphs.length ? paragraphs : [''])
      .map((content, index, all) => `<p>${content}${index === all.length - 1 ? back : ''}</p>`)
      .join('');
    this.notes.push(`<li id="${id}"${epub ? ' epub:type="footnote"' : ''}>${body}</li>`);
    return `<a href="#${id}" class="footnote-ref" id="${ref}" role="doc-noteref"${epub ? ' epub:type="noteref"' : ''}><sup>${n}</sup></a>`;
  }

  protected text(text: string): string {
    return escapeXml(text);
  }

  protected readonly hardBreak = '<br/>';

  /** Inside a note: a note style's citation there is part of the note, not a note of its own. */
  private inNote = false;

  note(node: PMNode): string {
    const outer = this.inNote;
    this.inNote = true;
    try {
      return this.noteXml(this.noteParagraphs(node));
    } finally {
      this.inNote = outer;
    }
  }

  protected equation(latex: string): string {
    return xhtmlMath(latex, false) ?? `<code>${escapeXml(latex)}</code>`;
  }

  protected citation(node: PMNode): string {
    const rendered = this.prepared.citations.get(node);
    const text = rendered ? citeprocToXhtml(rendered) : escapeXml(citationFallback(node));
    if (!((this.prepared.noteCitations?.has(node) ?? this.prepared.noteStyle) && rendered && !this.inNote))
      return `<span class="citation">${text}</span>`;
    // A note style's text citation keeps its author in the sentence ("LeCun and Bottou¹").
    const author = this.prepared.citationAuthors?.get(node);
    return `${author ? `<span class="citation-author">${citeprocToXhtml(author)}</span>` : ''}${this.noteXml([`<span class="citation">${text}</span>`])}`;
  }

  protected crossReference(id: string, node: PMNode): string {
    const target = this.prepared.numbering.byId.get(id);
    const text = escapeXml(target?.label ?? String(node.attrs.title || '??'));
    // A target that is gone: its text, no link into nothing (epubcheck: fragment not defined).
    if (!target) return `<span class="cross-reference">${text}</span>`;
    // A page form: the number form here (no pages); the typeset PDF's style sheet draws the page
    // (typeset-html.ts: target-counter), hiding the number in the page form.
    const form = crossReferenceForm(node.attrs.form);
    if (form !== 'number')
      return `<a class="cross-reference" data-form="${form}" href="#${escapeXml(id)}"><span class="cross-reference-number">${text}</span></a>`;
    return `<a class="cross-reference" href="#${escapeXml(id)}">${text}</a>`;
  }

  private caption(node: PMNode, text: string): string {
    const target = this.prepared.numbers.get(node);
    const label =
      target && target.kind !== 'equation'
        ? `<span class="caption-label">${escapeXml(target.label)}:</span> `
        : '';
    return label || text ? `${label}${escapeXml(text)}` : '';
  }

  block(node: PMNode): string {
    const id = node.attrs.id ? ` id="${escapeXml(String(node.attrs.id))}"` : '';
    switch (node.type.name) {
      case 'paragraph':
        return `<p${this.changeClass(node)}>${this.inlineContent(node)}${this.breakMark(node)}</p>`;
      case 'heading': {
        const level = Math.min(Number(node.attrs.level) + this.headingShift, 6);
        // The number as text (the document's heading numbering): every reader and the PDF show it.
        const display = this.prepared.numbers.get(node)?.display;
        const number = display ? `<span class="heading-number">${escapeXml(display)}</span> ` : '';
        return `<h${level}${id}>${number}${this.inlineContent(node)}${this.breakMark(node)}</h${level}>`;
      }
      case 'blockquote':
        return `<blockquote${this.changeClass(node)}>${this.blocks(node)}</blockquote>`;
      case 'code_block':
        return `<pre><code>${escapeXml(node.textContent)}</code></pre>`;
      case 'horizontal_rule':
      case 'separator_part':
        return '<hr/>';
      case 'toc_part': {
        const entries = tocEntries(this.prepared.body)
          .map(
            (entry) =>
              `<li class="toc-level-${entry.level}">${entry.id ? `<a href="#${escapeXml(entry.id)}">${escapeXml(entry.text)}</a>` : escapeXml(entry.text)}</li>`,
          )
          .join('');
        const title = escapeXml(String(node.attrs.title));
        return `<nav class="toc"${id}><h2>${title}</h2>${entries ? `<ol>${entries}</ol>` : ''}</nav>`;
      }
      case 'bullet_list':
        return `<ul${this.changeClass(node)}>${this.items(node)}</ul>`;
      case 'ordered_list':
        return `<ol${node.attrs.start !== 1 ? ` start="${Number(node.attrs.start)}"` : ''}${this.changeClass(node)}>${this.items(node)}</ol>`;
      case 'table': {
        let rows = '';
        for (const row of this.keptChildren(node)) {
          let cells = '';
          this.withChanges(row, () => {
            for (const cell of this.keptChildren(row)) {
              const tag = cell.type.name === 'table_header' ? 'th' : 'td';
              const span = `${cell.attrs.colspan > 1 ? ` colspan="${cell.attrs.colspan}"` : ''}${cell.attrs.rowspan > 1 ? ` rowspan="${cell.attrs.rowspan}"` : ''}`;
              cells += `<${tag}${span}${this.changeClass(cell)}>${this.withChanges(cell, () => this.blocks(cell))}</${tag}>`;
            }
          });
          if (cells) rows += `<tr${this.changeClass(row)}>${cells}</tr>`;
        }
        const caption = this.caption(node, String(node.attrs.caption));
        return `<table${id}${this.changeClass(node)}>${caption ? `<caption>${caption}</caption>` : ''}<tbody>${rows}</tbody></table>`;
      }
      case 'figure': {
        const caption = this.caption(node, String(node.attrs.caption));
        const figcaption = caption ? `<figcaption>${caption}</figcaption>` : '';
        const width = Number(node.attrs.width) || 100;
        if (isEquationFigure(node)) {
          const target = this.prepared.numbers.get(node);
          const math =
            xhtmlMath(String(node.attrs.equation), true) ??
            `<code>${escapeXml(String(node.attrs.equation))}</code>`;
          return `<figure${id} class="equation">${math}${target ? `<span class="equation-number">${escapeXml(target.label)}</span>` : ''}${figcaption}</figure>`;
        }
        const url = node.attrs.src ? this.options.imageUrl(String(node.attrs.src)) : null;
        const image = url
          ? `<img src="${escapeXml(url)}" alt="${escapeXml(String(node.attrs.caption))}" style="width: ${width}%"/>`
          : '';
        return `<figure${id} class="figure align-${escapeXml(String(node.attrs.aligned))}">${image}${figcaption}</figure>`;
      }
      default:
        return '';
    }
  }

  private items(list: PMNode): string {
    let out = '';
    for (const item of this.keptChildren(list))
      out += `<li${this.changeClass(item)}>${this.withChanges(item, () => this.blocks(item))}</li>`;
    return out;
  }

  /** Subtitle, authors, abstract and keywords of an article or a chapter. */
  private frontMatter(parts: FrontMatter, abstractLevel: number): string {
    let out = '';
    if (parts.subtitle) out += `<p class="subtitle">${escapeXml(parts.subtitle)}</p>`;
    if (parts.authors.length) out += authorList(parts.authors);
    if (parts.abstract)
      out += `<section class="abstract"><h${abstractLevel}>${escapeXml(String(parts.abstract.attrs.title || 'Abstract'))}</h${abstractLevel}>${this.blocks(parts.abstract)}</section>`;
    if (parts.keywords.length) out += `<p class="keywords">${escapeXml(parts.keywords.join(', '))}</p>`;
    return out;
  }

  /** The notes section (a book's chapter has its own, its ids prefixed by the chapter's). */
  private footnotes(): string {
    if (!this.notes.length) return '';
    const epub = this.options.epub ? ' epub:type="footnotes"' : '';
    return `<section id="${this.notePrefix}footnotes" class="footnotes footnotes-end-of-document" role="doc-endnotes"${epub}><hr/><ol>${this.notes.join('')}</ol></section>`;
  }

  /** The bibliography of the document or book (or of a chapter), under a heading of `level`. */
  bibliography(level: number, entries = this.prepared.bibliography, id?: string): string {
    const p = this.prepared;
    if (!entries.length) return '';
    const body = bibliographyBody(p.bibliographyLayout ?? DEFAULT_LAYOUT);
    return `<section class="bibliography"${id ? ` id="${id}"` : ''}><h${level}>${escapeXml(documentLabel('bibliography', p.language))}</h${level}><div class="${body.className}" style="${body.style}">${entries.map(citeprocToXhtml).join('')}</div></section>`;
  }

  /** The whole article: front matter, body, bibliography and notes. */
  article(): string {
    const p = this.prepared;
    if (p.book) return this.book(p.book);
    let out = `<header><h1 class="title">${this.inlineContent(p.doc.firstChild as PMNode)}</h1>`;
    out += this.frontMatter(p, 2);
    out += '</header>';
    for (const part of p.body) out += `<section class="part">${this.blocks(part)}</section>`;
    out += this.bibliography(2);
    out += this.footnotes();
    return out;
  }

  /**
   * One chapter of a book: its number and title (an h of `titleLevel`, its headings below it),
   * front matter, body and its own notes.
   */
  chapter(chapter: PreparedChapter, titleLevel: number): string {
    this.notes.length = 0;
    this.notePrefix = `${chapter.anchor}-`;
    this.headingShift = titleLevel;
    const label = `${documentLabel('chapter', this.prepared.language)} ${chapter.number}`;
    let out = `<section class="chapter" id="${chapter.anchor}"><header><p class="chapter-number">${escapeXml(label)}</p><h${titleLevel} class="chapter-title">${this.inlineContent(chapter.titleNode)}</h${titleLevel}>`;
    out += this.frontMatter(chapter, titleLevel + 1);
    out += '</header>';
    for (const part of chapter.body) out += `<section class="part">${this.blocks(part)}</section>`;
    out += this.bibliography(titleLevel + 1, chapter.bibliography);
    out += `${this.footnotes()}</section>`;
    this.notes.length = 0;
    return out;
  }

  /** A whole book on one page (HTML, PDF): title page, contents, parts and chapters, bibliography. */
  private book(book: BookStructure): string {
    const p = this.prepared;
    let out = bookTitlePage(p, book, this.options.imageUrl(COVER_SRC));
    const pages = this.options.contentsPages;
    out += `<nav class="toc" id="toc"><h2>${escapeXml(documentLabel('contents', p.language))}</h2>${bookContents(
      book,
      p.language,
      (chapter) => `#${chapter.anchor}`,
      (index) => `#part-${index}`,
      p.bibliography.length ? `#${BOOK_BIBLIOGRAPHY}` : null,
      pages && ((href) => pages.get(href.slice(1))),
    )}</nav>`;
    for (const [index, group] of groupParts(book.chapters).entries()) {
      if (group.part)
        out += `<section class="book-part" id="part-${index + 1}"><h2 class="part-title">${escapeXml(group.part)}</h2></section>`;
      for (const chapter of group.chapters) out += this.chapter(chapter, 2);
    }
    out += this.bibliography(2, p.bibliography, BOOK_BIBLIOGRAPHY);
    return out;
  }
}

/** The anchor of a book's end bibliography (listed last in its contents). */
const BOOK_BIBLIOGRAPHY = 'bibliography';

type FrontMatter = Pick<PreparedChapter, 'subtitle' | 'authors' | 'abstract' | 'keywords'>;

function authorList(authors: readonly Contributor[]): string {
  return `<ul class="authors">${authors
    .map(
      (person) =>
        `<li>${escapeXml(authorName(person))}${person.institution ? `, <span class="institution">${escapeXml(person.institution)}</span>` : ''}</li>`,
    )
    .join('')}</ul>`;
}

/**
 * The table of contents: parts (numbered from 1 in `partHref`) holding their chapters, then the
 * end bibliography (`bibliographyHref`, when the book has one); with `pageOf` (PDF), each line
 * ends with the page its chapter or part starts on.
 */
export function bookContents(
  book: BookStructure,
  language: string,
  chapterHref: (chapter: PreparedChapter) => string,
  partHref: (index: number) => string,
  bibliographyHref: string | null,
  pageOf?: (href: string) => number | undefined,
): string {
  const chapterLabel = documentLabel('chapter', language);
  const link = (href: string, text: string) => {
    const page = pageOf?.(href);
    // The number floats right of the line it starts (before the link, so on its first line).
    const number = page === undefined ? '' : `<span class="toc-page">${page}</span>`;
    return `${number}<a href="${escapeXml(href)}">${escapeXml(text)}</a>`;
  };
  const item = (chapter: PreparedChapter) =>
    `<li>${link(chapterHref(chapter), `${chapterLabel} ${chapter.number}: ${chapter.title || chapter.anchor}`)}</li>`;
  return `<ol class="toc-list">${groupParts(book.chapters)
    .map((group, index) =>
      group.part
        ? `<li class="toc-part">${link(partHref(index + 1), group.part)}<ol>${group.chapters.map(item).join('')}</ol></li>`
        : group.chapters.map(item).join(''),
    )
    .join(
      '',
    )}${bibliographyHref ? `<li>${link(bibliographyHref, documentLabel('bibliography', language))}</li>` : ''}</ol>`;
}

/** The title page (cover, title, authors, publisher) and the copyright lines of a book. */
export function bookTitlePage(
  prepared: PreparedDocument,
  book: BookStructure,
  coverUrl: string | null,
): string {
  let out = '<header class="title-page">';
  if (coverUrl)
    out += `<p class="cover"><img src="${escapeXml(coverUrl)}" alt="${escapeXml(prepared.title)}"/></p>`;
  out += `<h1 class="title">${escapeXml(prepared.title)}</h1>`;
  if (prepared.authors.length) out += authorList(prepared.authors);
  if (book.publisher) out += `<p class="publisher">${escapeXml(book.publisher)}</p>`;
  out += '</header>';
  if (book.copyright || book.isbn)
    out += `<section class="copyright-page">${book.copyright ? `<p>${escapeXml(book.copyright)}</p>` : ''}${book.isbn ? `<p>ISBN ${escapeXml(book.isbn)}</p>` : ''}</section>`;
  return out;
}

/** The style sheet of the HTML, EPUB and PDF exports (citeproc's classes, figures, notes, print pages). */
export function exportCss(paperSize: 'A4' | 'US Letter', book = false): string {
  return `${book ? BOOK_CSS : ''}body { font-family: "Source Serif 4", "Liberation Serif", serif; line-height: 1.5; max-width: 42em; margin: 0 auto; padding: 1em; }
h1.title { text-align: center; }
.subtitle, .keywords { text-align: center; }
.authors { list-style: none; padding: 0; text-align: center; }
.abstract { margin: 1em 3em; font-size: 0.95em; }
figure { margin: 1em 0; text-align: center; }
figure.align-left { text-align: left; }
figure.align-right { text-align: right; }
figure.equation { display: flex; align-items: center; justify-content: center; gap: 2em; }
figcaption, caption { font-size: 0.9em; font-style: italic; }
.caption-label { font-style: normal; font-weight: 600; }
table { border-collapse: collapse; margin: 1em auto; }
td, th { border: 1px solid #444; padding: 0.25em 0.5em; vertical-align: top; }
td p, th p { margin: 0; }
.smallcaps { font-variant: small-caps; }
ins, .insertion { background: #e6f4ea; text-decoration: underline; }
del, .deletion { background: #fce8e6; }
.deletion { text-decoration: line-through; }
.footnotes { font-size: 0.9em; }
.footnote-back { margin-left: 0.25em; text-decoration: none; }
${BIBLIOGRAPHY_LAYOUT_CSS}@page { size: ${paperSize === 'US Letter' ? 'letter' : 'A4'}; margin: 2.5cm; }
@media print { body { max-width: none; padding: 0; } figure, table { break-inside: avoid; } h2, h3, h4 { break-after: avoid; } }
`;
}

/** What a book adds: title page, contents, parts and chapters each on a new page in print. */
const BOOK_CSS = `.title-page, .copyright-page, .toc { text-align: center; }
.cover img { max-width: 100%; max-height: 80vh; }
.toc { text-align: left; }
.toc-list { list-style: none; padding-left: 0; }
.toc-list ol { list-style: none; }
.toc-page { float: right; margin-left: 1em; }
.chapter-number { font-variant: small-caps; margin-bottom: 0; }
.part-title { text-align: center; font-size: 2em; }
@media print { .copyright-page, .toc, .book-part, .chapter, .bibliography { break-before: page; } }
`;

/** The image files the HTML-based formats carry (types every reader shows); a book's cover as COVER_SRC. */
export function webImages(prepared: PreparedDocument) {
  const cover = prepared.book?.cover;
  return imageFiles(
    cover ? [COVER_SRC, ...figureSources(prepared.doc)] : figureSources(prepared.doc),
    cover ? { ...prepared.images, [COVER_SRC]: cover } : prepared.images,
    (image) => ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml'].includes(image.type),
  );
}

export function htmlPage(prepared: PreparedDocument, options: HtmlOptions, styles: string): string {
  const article = new HtmlWriter(prepared, options).article();
  return `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="${escapeXml(prepared.language)}" xml:lang="${escapeXml(prepared.language)}">
<head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/><title>${escapeXml(prepared.title)}</title><meta name="author" content="${escapeXml(prepared.authors.map(authorName).join('; '))}"/>${styles}</head>
<body><article>${article}</article></body>
</html>
`;
}

/** HTML export: a zip of index.html, its style sheet and the images. */
export function exportHtml(prepared: PreparedDocument): Uint8Array {
  const images = webImages(prepared);
  const html = htmlPage(
    prepared,
    {
      imageUrl: (src) => (images.has(src) ? `images/${images.get(src)?.name}` : null),
      trackChanges: 'markup',
      epub: false,
    },
    '<link rel="stylesheet" href="style.css"/>',
  );
  const encoder = new TextEncoder();
  const files: Record<string, Uint8Array> = {
    'index.html': encoder.encode(html),
    'style.css': encoder.encode(exportCss(prepared.paperSize, Boolean(prepared.book))),
  };
  for (const file of images.values()) files[`images/${file.name}`] = file.image.data;
  return zipSync(files, { level: 6 });
}
