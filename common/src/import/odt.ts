import type { Unzipped } from 'fflate';
import { MathMLToLaTeX } from 'mathml-to-latex';
import { isSafeHref } from '../editor/schema';
import { citationsInNotes, HEADING_NUMBERING_PROPERTY } from '../export/docx-fields';
import {
  type Block,
  type Cell,
  type FrontMatter,
  type Inline,
  insertedAsWhole,
  type JsonMark,
} from './build';
import { CitationCollector } from './citations';
import type { ImportedDocument, ImportedImage, ImportedThread } from './model';
import {
  addCommentThread,
  appendCode,
  captionBlock,
  dateOf,
  type FrontRole,
  frontMatterParagraph,
  frontRole,
  metafile,
  officeDocument,
} from './office';
import { ImportRefused, ImportReport } from './problems';
import { attr, child, children, descendants, elements, parseXml, serialize, type XmlElement } from './xml';
import { text } from './zip';

/**
 * ODT (OpenDocument text) to our document. Styles (automatic ones in content.xml, named ones in
 * styles.xml) decide headings, lists and character formatting; formula objects are MathML, read
 * with mathml-to-latex; annotations and tracked changes become our review marks; Zotero's
 * reference marks become citations. Links to outside files (images, sections) are never fetched:
 * the report names them.
 */

interface OdfStyle {
  parent: string;
  display: string;
  marks: JsonMark[];
  /** A paragraph style's fo:text-align, a frame style's style:horizontal-pos ('' when it sets none). */
  align: string;
  /** For list styles: ordered per level (1-based). */
  ordered: Map<number, boolean>;
}

function textMarks(props: XmlElement | null): JsonMark[] {
  if (!props) return [];
  const marks: JsonMark[] = [];
  if (attr(props, 'fo:font-style') === 'italic') marks.push({ type: 'em' });
  const weight = attr(props, 'fo:font-weight');
  if (weight === 'bold' || Number(weight) >= 600) marks.push({ type: 'strong' });
  const underline = attr(props, 'style:text-underline-style');
  if (underline && underline !== 'none') marks.push({ type: 'underline' });
  const position = attr(props, 'style:text-position');
  if (/^super|^33%/.test(position)) marks.push({ type: 'sup' });
  else if (/^sub|^-33%/.test(position)) marks.push({ type: 'sub' });
  if (attr(props, 'fo:font-variant') === 'small-caps') marks.push({ type: 'smallcaps' });
  return marks;
}

class OdtReader {
  readonly report = new ImportReport();
  readonly citations = new CitationCollector(this.report);
  readonly threads: ImportedThread[] = [];
  readonly images: ImportedImage[] = [];
  private readonly styles = new Map<string, OdfStyle>();
  private readonly changes = new Map<
    string,
    { type: string; author: string; date: number; deleted: XmlElement | null }
  >();
  private readonly openMarks: JsonMark[] = [];
  private readonly openComments = new Map<string, number>();
  /** The thread of each annotation by its office:name (answers name their parent's). */
  private readonly annotationThreads = new Map<string, ImportedThread>();
  /** Inside a Zotero reference mark: its rendered text is replaced by the citation. */
  private dropping = 0;
  /** Inside table cells and notes (enclosedBlocks). */
  private enclosed = 0;
  /** Blocks that begin a list item of their own: the item after a suggested join of items. */
  private readonly itemStarts = new Set<Block>();
  /**
   * The insertion open at the start of the next paragraph is the end of a list item inserted as a
   * whole (LibreOffice records a new list as one region from its first item's text on): not a split.
   */
  private splitTaken = false;
  title = '';
  /** The front matter found by the paragraph styles (Subtitle, Author, Abstract, Keywords). */
  readonly front: Required<FrontMatter> = { subtitle: '', authors: [], abstract: [], keywords: [] };
  /** Bookmark names that cross-references point to. */
  readonly referenced = new Set<string>();
  private bibliographySeen = false;
  /** The last "Contents Heading" paragraph read: the title of a table of contents right after it. */
  private contentsTitle: { block: Block; text: string } | null = null;

  constructor(
    private readonly files: Unzipped,
    root: XmlElement,
  ) {
    const styles = text(files, 'styles.xml');
    if (styles) this.readStyles(parseXml(styles));
    this.readStyles(root);
    for (const region of descendants(root, 'text:changed-region')) {
      const change = elements(region)[0];
      if (!change) continue;
      const info = child(change, 'office:change-info');
      this.changes.set(attr(region, 'text:id') || attr(region, 'xml:id'), {
        type: change.nodeName,
        author: info ? (child(info, 'dc:creator')?.textContent ?? '') : '',
        date: info ? dateOf(child(info, 'dc:date')?.textContent ?? '') : 0,
        deleted: change.nodeName === 'text:deletion' ? change : null,
      });
    }
  }

  private readStyles(root: XmlElement): void {
    for (const style of [...descendants(root, 'style:style'), ...descendants(root, 'text:list-style')]) {
      const ordered = new Map<number, boolean>();
      for (const level of elements(style)) {
        if (level.nodeName.startsWith('text:list-level-style-')) {
          ordered.set(
            Number(attr(level, 'text:level')) || 1,
            level.nodeName === 'text:list-level-style-number',
          );
        }
      }
      this.styles.set(attr(style, 'style:name'), {
        parent: attr(style, 'style:parent-style-name'),
        display: (attr(style, 'style:display-name') || attr(style, 'style:name'))
          .replace(/_20_/g, ' ')
          .toLowerCase(),
        marks: textMarks(child(style, 'style:text-properties')),
        align:
          attr(child(style, 'style:paragraph-properties'), 'fo:text-align') ||
          attr(child(style, 'style:graphic-properties'), 'style:horizontal-pos'),
        ordered,
      });
    }
  }

  private styleChain(name: string): OdfStyle[] {
    const chain: OdfStyle[] = [];
    for (let id = name, depth = 0; id && depth < 10; depth++) {
      // A style the file uses without defining it still says what it is by its name.
      const style = this.styles.get(id) ?? {
        parent: '',
        display: id.replace(/_20_/g, ' ').toLowerCase(),
        marks: [],
        align: '',
        ordered: new Map<number, boolean>(),
      };
      chain.push(style);
      id = style.parent;
    }
    return chain;
  }

  private role(name: string): {
    title?: boolean;
    code?: boolean;
    quote?: boolean;
    caption?: boolean;
    front?: FrontRole;
    bibliography?: boolean;
    contentsTitle?: boolean;
  } {
    for (const style of this.styleChain(name)) {
      if (style.display === 'contents heading') return { contentsTitle: true };
      if (style.display === 'title') return { title: true };
      if (style.display === 'caption') return { caption: true };
      if (/^bibliography( 1)?$/.test(style.display)) return { bibliography: true };
      const front = frontRole(style.display);
      if (front) return { front };
      if (/preformatted text|source code/.test(style.display)) return { code: true };
      if (style.display === 'quotations' || style.display === 'quote') return { quote: true };
    }
    return {};
  }

  private spanMarks(name: string): JsonMark[] {
    const marks: JsonMark[] = [];
    for (const style of this.styleChain(name)) {
      if (/emphasis/.test(style.display) && !/strong/.test(style.display)) marks.push({ type: 'em' });
      if (/strong/.test(style.display)) marks.push({ type: 'strong' });
      if (/source text|teletype/.test(style.display)) marks.push({ type: 'code' });
      for (const mark of style.marks) if (!marks.some((m) => m.type === mark.type)) marks.push(mark);
    }
    return marks;
  }

  /** The metafile format of a package image, or null (also for outside images). */
  private metafileOf(href: string): string | null {
    const bytes = this.files[href.replace(/^\.\//, '')];
    return bytes ? metafile(bytes, href) : null;
  }

  private image(href: string): ImportedImage | null {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/') || href.startsWith('../')) {
      this.report.note('external_link', href);
      return null;
    }
    const path = href.replace(/^\.\//, '');
    const bytes = this.files[path];
    if (!bytes) {
      this.report.note('image_unreadable', href);
      return null;
    }
    const image = { key: String(this.images.length + 1), name: path.split('/').pop() ?? path, bytes };
    this.images.push(image);
    return image;
  }

  private formula(href: string): string | null {
    const path = `${href.replace(/^\.\//, '').replace(/\/$/, '')}/content.xml`;
    const source = text(this.files, path);
    if (!source) return null;
    const math = parseXml(source);
    // Our own export's LaTeX (LibreOffice writes its StarMath annotation instead once edited).
    const tex = [...descendants(math, 'annotation'), ...descendants(math, 'math:annotation')].find(
      (annotation) => attr(annotation, 'encoding') === 'application/x-tex',
    );
    if (tex?.textContent?.trim()) return tex.textContent.trim();
    for (const annotation of [...descendants(math, 'annotation'), ...descendants(math, 'math:annotation')]) {
      annotation.parentNode?.removeChild(annotation);
    }
    try {
      const latex = MathMLToLaTeX.convert(
        serialize(math)
          .replace(/<(\/?)math:/g, '<$1')
          .replace(/xmlns:math=/g, 'xmlns='),
      );
      return latex.trim() || null;
    } catch {
      return null;
    }
  }

  /** Blocks of text frames met in the paragraph being read, per blocks() being read. */
  private readonly floating: Block[][] = [];

  /**
   * A figure's alignment: a frame anchored to its paragraph by its own position (style:horizontal-pos),
   * an image in the line (as our export writes it) by its paragraph's alignment.
   */
  private alignment(frame: XmlElement, paragraph: string): 'left' | 'center' | 'right' | undefined {
    const own =
      attr(frame, 'text:anchor-type') !== 'as-char' ? this.styleAlign(attr(frame, 'draw:style-name')) : '';
    const align = own || this.styleAlign(paragraph);
    if (/^(start|left|from-left|inside)$/.test(align)) return 'left';
    if (/^(end|right|outside)$/.test(align)) return 'right';
    if (align === 'center') return 'center';
    return undefined;
  }

  private styleAlign(name: string): string {
    return this.styleChain(name).find((style) => style.align)?.align ?? '';
  }

  private frame(frame: XmlElement, out: Inline[], alone: boolean, paragraph = ''): void {
    const caption = (
      child(frame, 'svg:desc')?.textContent ??
      child(frame, 'svg:title')?.textContent ??
      ''
    ).trim();
    // LibreOffice puts a replacement (PNG) after an image a browser cannot show (EMF, SVM).
    const images = children(frame, 'draw:image');
    const usable = images.find((image) => !this.metafileOf(attr(image, 'xlink:href')));
    // A formula object's replacement image (LibreOffice's SVM) is no image of the document.
    if (images.length && !usable && !child(frame, 'draw:object')) {
      const href = attr(images[0], 'xlink:href');
      const name = href.split('/').pop() ?? href;
      this.report.note('unsupported_element', `${this.metafileOf(href)} ${name}`);
      out.push({ kind: 'text', text: `[${name}]`, marks: this.current([]) });
      return;
    }
    for (const inner of elements(frame)) {
      const href = attr(inner, 'xlink:href');
      if (inner.nodeName === 'draw:image') {
        if (inner !== usable) continue;
        const image = this.image(href);
        const aligned = this.alignment(frame, paragraph);
        if (image) out.push({ kind: 'image', key: image.key, caption, ...(aligned ? { aligned } : {}) });
        return;
      }
      if (inner.nodeName === 'draw:object') {
        const latex = this.formula(href);
        // Alone in its paragraph, or anchored to the paragraph (pandoc's display math): displayed.
        const display = alone || attr(frame, 'text:anchor-type') === 'paragraph';
        if (latex)
          out.push(
            display
              ? { kind: 'display_equation', latex }
              : { kind: 'equation', latex, marks: this.current([]) },
          );
        else this.report.note(/^[a-z]+:/i.test(href) ? 'external_link' : 'equation_unconverted', href);
        return;
      }
      if (inner.nodeName === 'draw:text-box') {
        // A text frame's paragraphs (a label, its text) are blocks after the paragraph it is in.
        const floating = this.floating[this.floating.length - 1];
        if (floating) floating.push(...this.enclosedBlocks(inner));
        else for (const p of elements(inner)) this.inlines(p, out, []);
        return;
      }
    }
  }

  private current(extra: JsonMark[]): JsonMark[] {
    const marks = [...extra, ...this.openMarks];
    for (const id of this.openComments.values()) marks.push({ type: 'comment', attrs: { id } });
    return marks;
  }

  /**
   * An annotation: a thread of its own, or an answer joining the thread of the annotation it names
   * as its parent (loext:parent-name; the thread's mark follows the first one's range). A thread
   * is resolved when its first annotation is (loext:resolved, as LibreOffice writes it).
   */
  private annotation(node: XmlElement, out: Inline[]): void {
    const comment = {
      author: (child(node, 'dc:creator')?.textContent ?? '').trim(),
      date: dateOf(child(node, 'dc:date')?.textContent ?? ''),
      text: children(node, 'text:p')
        .map((p) => p.textContent ?? '')
        .join('\n')
        .trim(),
    };
    const name = attr(node, 'office:name');
    const parent = this.annotationThreads.get(attr(node, 'loext:parent-name'));
    if (parent) {
      parent.comments.push(comment);
      if (name) this.annotationThreads.set(name, parent);
      return;
    }
    const id = addCommentThread(this, comment);
    const thread = this.threads[this.threads.length - 1];
    thread.resolved = attr(node, 'loext:resolved') === 'true';
    if (name) this.annotationThreads.set(name, thread);
    if (name) this.openComments.set(name, id);
    else out.push({ kind: 'text', text: '\u200b', marks: [{ type: 'comment', attrs: { id } }] });
  }

  /**
   * A deletion region at a point: its text, deleted. Two or more paragraphs in it (or list items,
   * as LibreOffice writes joined items) are paragraph breaks deleted: joins, marked between them.
   */
  private change(id: string, out: Inline[], marks: JsonMark[]): void {
    const change = this.changes.get(id);
    if (!change?.deleted) return;
    const deletion = { type: 'deletion', attrs: { user: 0, username: change.author, date: change.date } };
    const lists = children(change.deleted, 'text:list');
    const item = lists.length > 0;
    const paragraphs = item
      ? lists.flatMap((list) => children(list, 'text:list-item').flatMap((entry) => elements(entry)))
      : elements(change.deleted).filter((el) => el.nodeName === 'text:p' || el.nodeName === 'text:h');
    paragraphs.forEach((p, index) => {
      if (index > 0) {
        const heading = p.nodeName === 'text:h' ? Number(attr(p, 'text:outline-level')) || 1 : undefined;
        out.push({ kind: 'join', marks: [deletion], next: { item, ...(heading ? { heading } : {}) } });
      }
      this.inlines(p, out, [...marks, deletion]);
    });
  }

  inlines(container: XmlElement, out: Inline[], marks: JsonMark[]): void {
    for (let node = container.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3) {
        if (!this.dropping)
          out.push({
            kind: 'text',
            text: (node.nodeValue ?? '').replace(/\s+/g, ' '),
            marks: this.current(marks),
          });
        continue;
      }
      if (node.nodeType !== 1) continue;
      const el = node as XmlElement;
      if (el.nodeName === 'text:reference-mark-end' && this.dropping) {
        this.dropping--;
        continue;
      }
      if (this.dropping) continue;
      switch (el.nodeName) {
        case 'text:span':
          this.inlines(el, out, [...marks, ...this.spanMarks(attr(el, 'text:style-name'))]);
          break;
        case 'text:a': {
          const href = attr(el, 'xlink:href');
          if (href.startsWith('#') && !href.startsWith('#__')) {
            // A link to a bookmark: a cross-reference once it is a heading's, figure's or table's.
            this.crossReference(href.slice(1), el, out, marks);
            break;
          }
          this.inlines(
            el,
            out,
            isSafeHref(href) ? [...marks, { type: 'link', attrs: { href, title: '' } }] : marks,
          );
          break;
        }
        case 'text:s':
          out.push({
            kind: 'text',
            text: ' '.repeat(Number(attr(el, 'text:c')) || 1),
            marks: this.current(marks),
          });
          break;
        case 'text:tab':
          out.push({ kind: 'text', text: '\t', marks: this.current(marks) });
          break;
        case 'text:line-break':
          out.push({ kind: 'break' });
          break;
        case 'text:note':
          out.push({
            kind: 'note',
            blocks: this.enclosedBlocks(child(el, 'text:note-body') ?? el),
            marks: this.current(marks).filter((mark) => mark.type !== 'link'),
          });
          break;
        case 'draw:frame':
          this.frame(el, out, false, this.paragraphStyle);
          break;
        case 'draw:a':
          for (const frame of children(el, 'draw:frame')) this.frame(frame, out, false, this.paragraphStyle);
          break;
        case 'office:annotation':
          this.annotation(el, out);
          break;
        case 'office:annotation-end':
          this.openComments.delete(attr(el, 'office:name'));
          break;
        case 'text:change-start': {
          const change = this.changes.get(attr(el, 'text:change-id'));
          if (change?.type === 'text:insertion') {
            this.openMarks.push({
              type: 'insertion',
              attrs: { user: 0, username: change.author, date: change.date, approved: false },
            });
          }
          break;
        }
        case 'text:change-end': {
          const change = this.changes.get(attr(el, 'text:change-id'));
          if (change?.type === 'text:insertion') this.openMarks.pop();
          break;
        }
        case 'text:change':
          this.change(attr(el, 'text:change-id'), out, marks);
          break;
        case 'text:reference-mark-start': {
          const name = attr(el, 'text:name');
          const zotero = /^ZOTERO_ITEM\s+(CSL_CITATION\s+\{[\s\S]*\})\s+RND\w+$/.exec(name);
          const references = zotero ? this.citations.fromField(`ADDIN ${zotero[1]}`) : null;
          if (references) {
            out.push({
              kind: 'citation',
              references,
              format: this.citations.lastFormat,
              ...(this.citations.lastAuthor ? { author: this.citations.lastAuthor } : {}),
            });
            this.dropping++;
          }
          break;
        }
        case 'text:bookmark':
        case 'text:bookmark-start':
          out.push({ kind: 'anchor', name: attr(el, 'text:name') });
          break;
        case 'text:bookmark-ref':
        case 'text:sequence-ref':
        case 'text:reference-ref':
          this.crossReference(attr(el, 'text:ref-name'), el, out, marks);
          break;
        case 'text:sequence':
          out.push({ kind: 'sequence', name: attr(el, 'text:name') });
          this.inlines(el, out, marks);
          break;
        case 'text:bookmark-end':
        case 'text:reference-mark':
        case 'text:reference-mark-end':
        case 'text:soft-page-break':
        case 'office:annotation-start':
          break;
        case 'text:page-number':
        case 'text:date':
        case 'text:title':
        case 'text:author-name':
          this.inlines(el, out, marks);
          break;
        default:
          if (el.nodeName.startsWith('text:') || el.nodeName.startsWith('draw:')) {
            this.report.note('unsupported_element', el.nodeName);
            this.inlines(el, out, marks);
          }
      }
    }
  }

  /** A cross-reference to a bookmark, its text kept for a target that is not found. */
  private crossReference(target: string, el: XmlElement, out: Inline[], marks: JsonMark[]): void {
    const shown: Inline[] = [];
    this.inlines(el, shown, marks);
    const first = shown.find((item) => item.kind === 'text');
    this.referenced.add(target);
    out.push({
      kind: 'cross_reference',
      target,
      text: shown.map((item) => (item.kind === 'text' ? item.text : '')).join(''),
      marks: first?.kind === 'text' ? first.marks.filter((mark) => mark.type !== 'link') : [],
      // A reference to the target's page: a cross-reference's page form (page-references.ts).
      ...(attr(el, 'text:reference-format') === 'page' ? { form: 'page' as const } : {}),
    });
  }

  /** The style of the paragraph being read (a figure's alignment is its paragraph's). */
  private paragraphStyle = '';

  private paragraph(el: XmlElement): Inline[] {
    const outer = this.paragraphStyle;
    this.paragraphStyle = attr(el, 'text:style-name');
    try {
      return this.paragraphInlines(el);
    } finally {
      this.paragraphStyle = outer;
    }
  }

  private paragraphInlines(el: XmlElement): Inline[] {
    const out: Inline[] = [];
    // The frames of the paragraph's own text (in spans and links too; not in notes or comments).
    const frames = descendants(el, 'draw:frame').filter((frame) => {
      for (let up = frame.parentNode; up && up !== el; up = up.parentNode)
        if (!/^(text:span|text:a|draw:a)$/.test(up.nodeName)) return false;
      return true;
    });
    const around = (el.textContent ?? '').replace(frames[0]?.textContent ?? '', '');
    // Digits and brackets around it are the equation's number, "(3)", unless they are the text of
    // a citation ("[1]"), a note or a reference.
    const cites = ['text:reference-mark-start', 'text:reference-mark', 'text:note', 'text:bookmark-ref'].some(
      (name) => descendants(el, name).length > 0,
    );
    const alone = frames.length === 1 && !cites && /^[\s()[\]\d.]*$/.test(around);
    // A formula alone in its paragraph is a display equation where the file says so: the paragraph
    // is of the Equation style (ours, kept by LibreOffice) or numbered ("(3)", LibreOffice's
    // numbered formula); else it is an inline equation that has the paragraph to itself. A formula
    // anchored to its paragraph (pandoc's display math) is displayed wherever it is (frame).
    const formula = alone && child(frames[0], 'draw:object') !== null;
    const display =
      alone &&
      (!formula ||
        /\d/.test(around) ||
        this.styleChain(this.paragraphStyle).some((style) => style.display === 'equation'));
    if (display) {
      this.frame(frames[0], out, true, this.paragraphStyle);
      // Its bookmark (the number's) is the equation's.
      for (const mark of descendants(el, 'text:bookmark-start'))
        out.push({ kind: 'anchor', name: attr(mark, 'text:name') });
      return out;
    }
    this.inlines(el, out, []);
    return out;
  }

  /** Blocks of a table cell or a note, where our schema records no splits or joins of blocks. */
  private enclosedBlocks(container: XmlElement): Block[] {
    this.enclosed++;
    try {
      return this.blocks(container);
    } finally {
      this.enclosed--;
    }
  }

  /**
   * The suggested split before a paragraph: an insertion region still open where it starts (it
   * began in the paragraph before, as LibreOffice records Enter). None in cells and notes.
   */
  private splitBefore(): JsonMark[] {
    if (this.splitTaken) {
      this.splitTaken = false;
      return [];
    }
    const open = this.openMarks.filter((mark) => mark.type === 'insertion');
    return this.enclosed || !open.length ? [] : [open[open.length - 1]];
  }

  /**
   * A paragraph or heading as blocks: split at its suggested joins (see change), the block after
   * each carrying the deletion as its boundary; in cells and notes, one block without them.
   */
  private joined(
    first: Extract<Block, { inlines: Inline[] }>,
    inlines: Inline[],
    boundary: JsonMark[],
  ): Block[] {
    const blocks: Block[] = [];
    let current: Extract<Block, { inlines: Inline[] }> = boundary.length ? { ...first, boundary } : first;
    for (const item of inlines) {
      if (item.kind !== 'join') current.inlines.push(item);
      else if (!this.enclosed) {
        blocks.push(current);
        const { heading, item: startsItem } = item.next;
        current = heading
          ? { kind: 'heading', level: heading, inlines: [], boundary: item.marks }
          : { kind: 'paragraph', inlines: [], boundary: item.marks };
        if (startsItem) this.itemStarts.add(current);
      }
    }
    blocks.push(current);
    return blocks;
  }

  private list(el: XmlElement, styleName: string, depth: number): Block {
    const style = attr(el, 'text:style-name') || styleName;
    const ordered = this.styles.get(style)?.ordered.get(depth) ?? false;
    const items: Block[][] = [];
    for (const item of elements(el)) {
      if (item.nodeName !== 'text:list-item' && item.nodeName !== 'text:list-header') continue;
      let blocks: Block[] = [];
      for (const inner of elements(item)) {
        const read =
          inner.nodeName === 'text:list' ? [this.list(inner, style, depth + 1)] : this.blocks(item, [inner]);
        for (const block of read) {
          // A suggested join of two items: the one after it starts here.
          if (this.itemStarts.has(block) && blocks.length) {
            items.push(blocks);
            blocks = [];
          }
          blocks.push(block);
        }
      }
      items.push(blocks);
    }
    return { kind: 'list', ordered, items };
  }

  private table(el: XmlElement): Block {
    const rows: Cell[][] = [];
    const visit = (node: XmlElement, header: boolean) => {
      for (const row of elements(node)) {
        if (row.nodeName === 'table:table-header-rows') visit(row, true);
        else if (row.nodeName === 'table:table-rows') visit(row, header);
        else if (row.nodeName === 'table:table-row') {
          rows.push(
            children(row, 'table:table-cell').map((cell) => ({
              blocks: this.enclosedBlocks(cell),
              colspan: Number(attr(cell, 'table:number-columns-spanned')) || 1,
              rowspan: Number(attr(cell, 'table:number-rows-spanned')) || 1,
              header,
            })),
          );
        }
      }
    };
    visit(el, false);
    return { kind: 'table', rows };
  }

  blocks(container: XmlElement, list: XmlElement[] = elements(container)): Block[] {
    const out: Block[] = [];
    const floating: Block[] = [];
    this.floating.push(floating);
    try {
      for (const el of list) {
        this.block(el, out);
        // The text frames of the paragraph just read follow it.
        out.push(...floating.splice(0));
      }
    } finally {
      this.floating.pop();
    }
    return out;
  }

  private block(el: XmlElement, out: Block[]): void {
    switch (el.nodeName) {
      case 'text:h': {
        const level = Number(attr(el, 'text:outline-level')) || 1;
        const boundary = this.splitBefore();
        out.push(...this.joined({ kind: 'heading', level, inlines: [] }, this.paragraph(el), boundary));
        break;
      }
      case 'text:p': {
        const role = this.role(attr(el, 'text:style-name'));
        const boundary = this.splitBefore();
        const inlines = this.paragraph(el);
        const plain = () => inlines.filter((item) => item.kind !== 'join');
        const sequence = inlines.find((item) => item.kind === 'sequence');
        if (role.bibliography && !this.enclosed) {
          // A drawn bibliography (ours, LibreOffice's): ours is drawn from the citations, and the
          // heading right before it is its own.
          if (!this.bibliographySeen && out[out.length - 1]?.kind === 'heading') out.pop();
          this.bibliographySeen = true;
        } else if (role.title && !this.title) this.title = (el.textContent ?? '').trim();
        else if (!this.enclosed && role.front && frontMatterParagraph(this.front, role.front, plain())) {
          // The front matter's part has it.
        } else if ((role.caption || sequence) && !inlines.some((item) => item.kind === 'display_equation'))
          out.push(captionBlock(plain(), sequence?.kind === 'sequence' ? sequence.name : ''));
        else if (role.contentsTitle && !this.enclosed) {
          const block: Block = { kind: 'paragraph', inlines: plain() };
          this.contentsTitle = { block, text: (el.textContent ?? '').replace(/\s+/g, ' ').trim() };
          out.push(block);
        } else if (role.code) {
          appendCode(out, el.textContent ?? '');
        } else if (role.quote) out.push({ kind: 'quote', blocks: [{ kind: 'paragraph', inlines: plain() }] });
        else {
          const blocks = this.joined({ kind: 'paragraph', inlines: [] }, inlines, boundary);
          // An item's paragraph whose text is inserted and the region still open after it:
          // the item is new as a whole (see Block's inserted).
          const inserted =
            !this.enclosed && blocks.length === 1 && el.parentNode?.nodeName === 'text:list-item'
              ? insertedAsWhole(inlines, boundary, this.splitBefore())
              : null;
          if (inserted) {
            (blocks[0] as Extract<Block, { kind: 'paragraph' }>).inserted = inserted.mark;
            this.splitTaken = inserted.takesAfter;
          }
          out.push(...blocks);
        }
        break;
      }
      case 'text:list':
        out.push(this.list(el, '', 1));
        break;
      case 'table:table':
        this.splitTaken = false;
        out.push(this.table(el));
        break;
      case 'text:section': {
        if (/^ZOTERO_BIBL\b/.test(attr(el, 'text:name'))) {
          // Zotero's (and our) rendered bibliography: ours is drawn from the citations, and the
          // heading right before it is its own.
          if (out[out.length - 1]?.kind === 'heading') out.pop();
          break;
        }
        const source = child(el, 'text:section-source');
        if (source) this.report.note('external_link', attr(source, 'xlink:href'));
        out.push(...this.blocks(el));
        break;
      }
      case 'text:tracked-changes':
      case 'text:sequence-decls':
      case 'office:forms':
      case 'text:variable-decls':
      case 'text:user-field-decls':
      case 'text:soft-page-break':
      case 'text:bookmark':
        break;
      case 'text:change':
        {
          const inlines: Inline[] = [];
          this.change(attr(el, 'text:change-id'), inlines, []);
          if (inlines.length) out.push({ kind: 'paragraph', inlines });
        }
        break;
      case 'text:table-of-content': {
        // A table of contents (ours, LibreOffice's): the document's contents part, its entries drawn.
        const inner =
          descendants(el, 'text:index-title')[0] ?? descendants(el, 'text:index-title-template')[0];
        let title = (inner?.textContent ?? '').replace(/\s+/g, ' ').trim();
        // LibreOffice's DOCX import puts the title in a paragraph before it.
        if (!title && this.contentsTitle && out[out.length - 1] === this.contentsTitle.block) {
          out.pop();
          title = this.contentsTitle.text;
        }
        out.push({ kind: 'contents', title });
        break;
      }
      case 'text:bibliography':
        this.report.note('unsupported_element', el.nodeName);
        break;
      case 'text:change-start':
      case 'text:change-end': {
        // A change that spans paragraphs: its marks stay open until its end.
        const change = this.changes.get(attr(el, 'text:change-id'));
        if (change?.type !== 'text:insertion') break;
        if (el.nodeName === 'text:change-end') this.openMarks.pop();
        else
          this.openMarks.push({
            type: 'insertion',
            attrs: { user: 0, username: change.author, date: change.date, approved: false },
          });
        break;
      }
      default:
        break;
    }
  }
}

/** Reads an unzipped .odt. */
export function importOdt(files: Unzipped, fallbackTitle: string): ImportedDocument {
  const source = text(files, 'content.xml');
  if (source === null) throw new ImportRefused('corrupt');
  const root = parseXml(source);
  const office = descendants(root, 'office:text')[0];
  if (!office) throw new ImportRefused('corrupt');
  const reader = new OdtReader(files, root);
  const blocks = reader.blocks(office);
  const meta = text(files, 'meta.xml');
  const metaRoot = meta ? parseXml(meta) : null;
  const metaTitle = metaRoot ? (descendants(metaRoot, 'dc:title')[0]?.textContent ?? '').trim() : '';
  const title = reader.title || metaTitle || fallbackTitle;
  const citationNotes = metaRoot
    ? citationsInNotes(
        descendants(metaRoot, 'meta:user-defined').map((field) => ({
          name: attr(field, 'meta:name'),
          value: field.textContent ?? '',
        })),
        descendants(metaRoot, 'meta:generator')[0]?.textContent === 'Scriptorium',
      )
    : undefined;
  return officeDocument('odt', reader, title, blocks, {
    front: reader.front,
    referenced: reader.referenced,
    ...(citationNotes === undefined ? {} : { citationNotes }),
    headingNumbering: outlineNumbering(files),
  });
}

/**
 * The headings' numbering, from the outline numbering of styles.xml (text:outline-style, as our
 * export and LibreOffice write it; the file's setting, headings or not): none when its first
 * level shows no number, roman for "I", else decimal (chapter when our metadata says so).
 */
function outlineNumbering(files: Unzipped): string | undefined {
  const source = text(files, 'styles.xml');
  const outline = source ? descendants(parseXml(source), 'text:outline-style')[0] : undefined;
  if (!outline) return undefined;
  const first = children(outline, 'text:outline-level-style').find(
    (level) => attr(level, 'text:level') === '1',
  );
  if (!first) return undefined;
  const format = attr(first, 'style:num-format');
  if (format === '') return 'none';
  if (format === 'I' || format === 'i') return 'roman';
  // Chapters are numbered as decimal sections: our export says which in the metadata.
  const meta = text(files, 'meta.xml');
  const chapter =
    meta &&
    descendants(parseXml(meta), 'meta:user-defined').some(
      (field) =>
        attr(field, 'meta:name') === HEADING_NUMBERING_PROPERTY &&
        (field.textContent ?? '').trim() === 'chapter',
    );
  return chapter ? 'chapter' : 'decimal';
}
