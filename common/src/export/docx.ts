import { zipSync } from 'fflate';
import type { Mark, Node as PMNode } from 'prosemirror-model';
import { TableMap } from 'prosemirror-tables';
import { exportCslItems } from '../bibliography/export';
import { type BibliographyLayout, DEFAULT_LAYOUT, labelWidthEm, splitLabel } from '../bibliography/layout';
import { type CitationReference, crossReferenceForm } from '../editor/academic-nodes';
import {
  crossReferencePieces,
  documentLabel,
  headingNumbering,
  PAGE_PLACEHOLDER,
} from '../editor/academic-numbering';
import type { InlineWriter } from '../features/feature';
import { writeNode } from '../features/registry';
import { changeMarks, withInherited } from './block-changes';
import {
  citationId,
  complexField,
  customProperties,
  fieldBegin,
  fieldEnd,
  ommlShownText,
  sequenceField,
  ZOTERO_BIBLIOGRAPHY_INSTRUCTION,
  zoteroCitationInstruction,
  zoteroPrefs,
} from './docx-fields';
import { HEADINGS_NUM_ID, referenceNumbering, referenceSettings, referenceStyles } from './docx-reference';
import { type HouseStyle, houseStyle, twips } from './house-styles';
import { imageFiles, imageSize } from './images';
import {
  authorName,
  type BookStructure,
  COVER_SRC,
  captionText,
  citationFallback,
  groupParts,
  isEquationFigure,
  type PreparedChapter,
  type PreparedDocument,
  tocEntries,
} from './model';
import { latexToOmml } from './omml';
import { type DocxReference, readDocxReference, renameStyleIds, shiftNumIds } from './reference-merge';
import { escapeXml, htmlToRuns } from './text';
import { ChangesWriter, headerRowCount, rowCells } from './writer';

/**
 * DOCX (Office Open XML) export: the content filled into our reference document
 * (docx-reference.ts). Equations are native Office math (OMML, from Temml's MathML), comments and
 * tracked changes native Word comments and revisions, footnotes real footnotes.
 */

const NS = [
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"',
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
  'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"',
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"',
].join(' ');
/** Word 2010 and 2013's namespaces of comment threads (paragraph ids, commentsExtended). */
const COMMENT_NS = [
  'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"',
  'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"',
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"',
  'mc:Ignorable="w14 w15"',
].join(' ');
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** Text width of the page (A4 or Letter less 2.5 cm margins), in EMU. */
const EMU_PER_TWIP = 635;

interface PageSize {
  width: number;
  height: number;
  margin: number;
}

const PAGES: Record<string, PageSize> = {
  A4: { width: 11906, height: 16838, margin: 1417 },
  'US Letter': { width: 12240, height: 15840, margin: 1440 },
};

/** A paragraph id (w14:paraId): 8 hex digits, below 0x80000000. */
function paraIdHex(n: number): string {
  return n.toString(16).toUpperCase().padStart(8, '0');
}

/** Up to four initials of a name ("Ada Lovelace": AL). */
function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 4);
}

function isoDate(ms: number): string {
  return new Date(ms > 0 ? ms : Date.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** CT_RPr's order of the run properties we write (Word refuses others), w:rPrChange last. */
const RUN_PROPERTY_ORDER = ['w:rStyle', 'w:b', 'w:i', 'w:smallCaps', 'w:u', 'w:vertAlign', 'w:rPrChange'];

/** Run properties (empty elements, then at most one w:rPrChange) sorted into the schema's order. */
function inRunOrder(props: string): string {
  const parts = props.match(/<w:rPrChange[\s\S]*<\/w:rPrChange>|<w:[A-Za-z]+[^>]*\/>/g) ?? [];
  const rank = (part: string) => RUN_PROPERTY_ORDER.indexOf(/^<(w:[A-Za-z]+)/.exec(part)?.[1] ?? '');
  return parts.sort((a, b) => rank(a) - rank(b)).join('');
}

/** Paragraphs without a style of their own get `style` (a quotation's, the abstract's). */
function withDefaultStyle(xml: string, style: string): string {
  return xml.replace(/<w:p>(?!<w:pPr><w:pStyle)(<w:pPr>)?/g, (_, props?: string) =>
    props ? `<w:p><w:pPr><w:pStyle w:val="${style}"/>` : `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>`,
  );
}

function bookmarkName(id: string): string {
  return `ref_${id.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 40);
}

/** Where a list item's blocks stand: its list's numbering and level, and a join or split above the text recorded on it. */
interface ListPlace {
  numId: number;
  level: number;
  above?: readonly Mark[];
}
class DocxWriter extends ChangesWriter implements InlineWriter {
  private readonly footnotes: string[] = [];
  /** Inside a note (its citations are part of it in a note style). */
  private inNote = false;
  private readonly comments: string[] = [];
  /** word/commentsExtended.xml's entries: each comment's last paragraph, its parent's and done. */
  private readonly commentsExtended: string[] = [];
  /** The w:ids of each thread's comments (the first, then its answers), by the thread's id. */
  private readonly commentIds = new Map<number, number[]>();
  private nextCommentId = 0;
  private nextParaId = 0;
  private readonly nums: { id: number; ordered: boolean; start: number }[] = [];
  private readonly images: Map<string, { name: string; image: import('./model').ExportImage }>;
  private readonly rels: string[] = [];
  private revision = 100000;
  private drawing = 1;
  private bookmark = 200000;
  /** Comment ids already opened, and the text node where each one ends. */
  private readonly openedComments = new Set<number>();
  private readonly lastCommentNode = new Map<number, PMNode>();
  private readonly page: PageSize;
  private readonly house: HouseStyle;
  /** The template's reference document over ours (its styles, page setup), when it has one. */
  private readonly reference: DocxReference | null;
  tracked = false;
  /** The cited entries as CSL-JSON (the itemData of the Zotero fields), by key. */
  private readonly cslItems = new Map<string, Record<string, unknown>>();
  private citationCount = 0;
  /** Each equation's LaTeX by the text of its OMML (docProps/custom.xml). */
  private readonly equationSources = new Map<string, string>();

  /** OMML of an equation, its LaTeX kept for the import; null when it cannot be converted. */
  private omml(latex: string, display: boolean): string | null {
    const math = latexToOmml(latex, display);
    if (math) {
      const shown = ommlShownText(math);
      if (!this.equationSources.has(shown)) this.equationSources.set(shown, latex);
    }
    return math;
  }
  /** Added to heading levels: a book's chapter titles are Heading1, their sections below. */
  headingShift = 0;

  constructor(private readonly prepared: PreparedDocument) {
    super();
    // The template's house style: its margins set the text width pictures and tables fill.
    this.house = houseStyle(prepared.doc);
    this.page = {
      ...PAGES[prepared.paperSize],
      margin: Math.round((twips(this.house.margins.left) + twips(this.house.margins.right)) / 2),
    };
    const referenceFile = prepared.reference?.docx;
    this.reference = referenceFile
      ? readDocxReference(referenceFile, referenceStyles(prepared.language, houseStyle(prepared.doc)))
      : null;
    const setup = this.reference?.pageSetup;
    // Pictures are sized to the text width of the reference's page.
    if (setup) this.page = { width: setup.width, height: 0, margin: (setup.left + setup.right) / 2 };
    const srcs: string[] = [];
    prepared.doc.descendants((node) => {
      if (node.type.name === 'figure' && node.attrs.src) srcs.push(String(node.attrs.src));
      for (const mark of node.marks)
        if (mark.type.name === 'comment' && prepared.threads.has(Number(mark.attrs.id)))
          this.lastCommentNode.set(Number(mark.attrs.id), node);
      return true;
    });
    const cover = prepared.book?.cover;
    this.images = imageFiles(
      cover ? [COVER_SRC, ...srcs] : srcs,
      cover ? { ...prepared.images, [COVER_SRC]: cover } : prepared.images,
      (image) => imageSize(image) !== null,
    );
    for (const { name } of this.images.values()) this.rels.push(name);
    const keys = [...prepared.entries.keys()];
    const items = exportCslItems(
      keys.map((key) => ({ ...prepared.entries.get(key), entry_key: key }) as never),
    );
    items.forEach((item, index) => {
      this.cslItems.set(keys[index], item);
    });
  }

  /** A citation as a live Zotero field whose result is its rendered runs. */
  private citationField(
    node: PMNode,
    runs: string,
    noteIndex: number,
    deleted: boolean,
    author?: string,
  ): string {
    const instruction = zoteroCitationInstruction({
      citationID: citationId(++this.citationCount),
      references: node.attrs.references as CitationReference[],
      items: this.cslItems,
      rendered: this.prepared.citations.get(node) || '',
      noteIndex,
      format: String(node.attrs.format),
      ...(author ? { author } : {}),
    });
    return complexField(instruction, runs, deleted);
  }

  // Runs ------------------------------------------------------------------------------------

  private runProps(marks: readonly Mark[], extra = ''): string {
    let props = '';
    for (const mark of marks) {
      switch (mark.type.name) {
        case 'strong':
          props += '<w:b/>';
          break;
        case 'em':
          props += '<w:i/>';
          break;
        case 'smallcaps':
          props += '<w:smallCaps/>';
          break;
        case 'underline':
          props += '<w:u w:val="single"/>';
          break;
        case 'sup':
          props += '<w:vertAlign w:val="superscript"/>';
          break;
        case 'sub':
          props += '<w:vertAlign w:val="subscript"/>';
          break;
        case 'code':
          props = `<w:rStyle w:val="VerbatimChar"/>${props}`;
          break;
      }
    }
    const change = marks.find((mark) => mark.type.name === 'format_change');
    props += extra;
    if (change) props += this.formatChange(change, marks);
    return props ? `<w:rPr>${inRunOrder(props)}</w:rPr>` : '';
  }

  /** A formatting suggestion: the run's properties before the change. */
  private formatChange(change: Mark, marks: readonly Mark[]): string {
    const before = new Set(marks.map((mark) => mark.type.name));
    for (const name of change.attrs.after as string[]) before.delete(name);
    for (const name of change.attrs.before as string[]) before.add(name);
    const old = [...before]
      .map(
        (name) =>
          ({
            strong: '<w:b/>',
            em: '<w:i/>',
            underline: '<w:u w:val="single"/>',
            smallcaps: '<w:smallCaps/>',
          })[name] ?? '',
      )
      .join('');
    this.tracked = true;
    return `<w:rPrChange w:id="${this.revision++}" w:author="${escapeXml(String(change.attrs.username))}" w:date="${isoDate(Number(change.attrs.date))}"><w:rPr>${inRunOrder(old)}</w:rPr></w:rPrChange>`;
  }

  private textRun(text: string, marks: readonly Mark[], deleted: boolean): string {
    const tag = deleted ? 'w:delText' : 'w:t';
    return `<w:r>${this.runProps(marks)}<${tag} xml:space="preserve">${escapeXml(text)}</${tag}></w:r>`;
  }

  private styledRuns(html: string, marks: readonly Mark[], deleted: boolean): string {
    const tag = deleted ? 'w:delText' : 'w:t';
    return htmlToRuns(html)
      .map((run) => {
        const props = `${run.italic ? '<w:i/>' : ''}${run.bold ? '<w:b/>' : ''}${run.smallcaps ? '<w:smallCaps/>' : ''}${run.sup ? '<w:vertAlign w:val="superscript"/>' : run.sub ? '<w:vertAlign w:val="subscript"/>' : ''}`;
        return `<w:r>${this.runProps(marks, props)}<${tag} xml:space="preserve">${escapeXml(run.text)}</${tag}></w:r>`;
      })
      .join('');
  }

  /** A revision element (w:ins, w:del, w:cellIns, ...) of a tracked-change mark, around `content` or empty. */
  private revisionOf(tag: string, mark: Mark, content?: string): string {
    this.tracked = true;
    const attrs = `w:id="${this.revision++}" w:author="${escapeXml(String(mark.attrs.username))}" w:date="${isoDate(Number(mark.attrs.date))}"`;
    return content === undefined ? `<${tag} ${attrs}/>` : `<${tag} ${attrs}>${content}</${tag}>`;
  }

  /** Wraps content in the revision its tracked-change marks say. */
  private tracked_(content: string, marks: readonly Mark[]): string {
    let out = content;
    const deletion = marks.find((mark) => mark.type.name === 'deletion');
    const insertion = marks.find((mark) => mark.type.name === 'insertion' && !mark.attrs.approved);
    if (deletion) out = this.revisionOf('w:del', deletion, out);
    if (insertion) out = this.revisionOf('w:ins', insertion, out);
    return out;
  }

  /**
   * The revisions of a paragraph mark (w:ins, then w:del, as CT_ParaRPr orders them): those of
   * the whole blocks around it and a suggested split or join after the paragraph. Its w:rPr, the
   * last of w:pPr's properties.
   */
  private paragraphMark(marks: readonly Mark[]): string {
    const changes = changeMarks(marks);
    const insertion = changes.find((mark) => mark.type.name === 'insertion');
    const deletion = changes.find((mark) => mark.type.name === 'deletion');
    if (!insertion && !deletion) return '';
    return `<w:rPr>${insertion ? this.revisionOf('w:ins', insertion) : ''}${deletion ? this.revisionOf('w:del', deletion) : ''}</w:rPr>`;
  }

  /** A paragraph of generated content (a caption, a code line, a figure) in the whole blocks' revisions. */
  private generatedParagraph(props: string, runs: string, own: readonly Mark[] = []): string {
    const mark = this.paragraphMark([...withInherited(own, this.inherited)]);
    const content = this.tracked_(runs, this.inherited);
    return `<w:p>${props || mark ? `<w:pPr>${props}${mark}</w:pPr>` : ''}${content}</w:p>`;
  }

  private inline(node: PMNode): string {
    const marks = this.marksOf(node);
    const deleted = marks.some((mark) => mark.type.name === 'deletion');
    let out = '';
    // Comment ranges start before the first text they mark and end after the last.
    for (const mark of marks) {
      const id = Number(mark.attrs.id);
      if (mark.type.name === 'comment' && this.lastCommentNode.has(id) && !this.openedComments.has(id)) {
        this.openedComments.add(id);
        // Every comment of the thread spans the range, as Word writes a thread's answers.
        for (const commentId of this.threadCommentIds(id))
          out += `<w:commentRangeStart w:id="${commentId}"/>`;
      }
    }
    let content = '';
    switch (node.type.name) {
      case 'text': {
        const link = marks.find((mark) => mark.type.name === 'link');
        content = this.textRun(node.text ?? '', marks, deleted);
        if (link) {
          const href = String(link.attrs.href);
          content = href.startsWith('#')
            ? `<w:hyperlink w:anchor="${bookmarkName(href.slice(1))}">${content}</w:hyperlink>`
            : `<w:hyperlink r:id="${this.relation('hyperlink', href)}">${content}</w:hyperlink>`;
        }
        break;
      }
      case 'hard_break':
        content = '<w:r><w:br/></w:r>';
        break;
      case 'equation': {
        const math = this.omml(String(node.attrs.equation), false);
        content = math ?? this.textRun(`$${node.attrs.equation}$`, marks, deleted);
        break;
      }
      case 'citation': {
        const rendered = this.prepared.citations.get(node) || '';
        const author = this.prepared.citationAuthors?.get(node);
        const asNote =
          (this.prepared.noteCitations?.has(node) ?? this.prepared.noteStyle) && rendered && !this.inNote;
        // The note's text stands in the notes part, outside the w:del around this run: not deleted.
        const runs = (inDeletion: boolean) =>
          rendered
            ? this.styledRuns(rendered, marks, inDeletion)
            : this.textRun(citationFallback(node), marks, inDeletion);
        content = asNote
          ? // A note style's text citation keeps its author in the sentence ("LeCun and Bottou¹").
            `${author ? this.styledRuns(author, marks, deleted) : ''}${this.noteXml(`<w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr>${this.citationField(node, runs(false), this.footnotes.length + 1, false, author)}</w:p>`)}`
          : this.citationField(node, runs(deleted), this.inNote ? this.footnotes.length + 1 : 0, deleted);
        break;
      }
      case 'cross_reference': {
        const target = this.prepared.numbering.byId.get(String(node.attrs.id));
        const text = target?.label ?? String(node.attrs.title || '??');
        const name = bookmarkName(String(node.attrs.id));
        // A figure's, table's or equation's number: a REF field to the bookmark over its label and
        // SEQ number, so Word renumbers it (F9). A section's: a link to the heading's bookmark (a
        // REF would show the heading's text: Word numbers no headings of ours).
        const pieces = target
          ? crossReferencePieces(text, crossReferenceForm(node.attrs.form), this.prepared.language)
          : { number: text, pageWords: null };
        content = pieces.number
          ? target && target.kind !== 'heading'
            ? complexField(`REF ${name} \\h`, this.textRun(pieces.number, marks, deleted), deleted)
            : `<w:hyperlink w:anchor="${name}">${this.textRun(pieces.number, marks, deleted)}</w:hyperlink>`
          : '';
        // A page form: the words, then a PAGEREF field marked dirty (Word and LibreOffice
        // compute the page on opening; its result until then is the placeholder).
        if (pieces.pageWords !== null)
          content += `${this.textRun(pieces.pageWords, marks, deleted)}${complexField(
            `PAGEREF ${name} \\h`,
            this.textRun(PAGE_PLACEHOLDER, marks, deleted),
            deleted,
          ).replace('w:fldCharType="begin"/>', 'w:fldCharType="begin" w:dirty="true"/>')}`;
        break;
      }
      default:
        // A feature's node (common/src/features/registry.ts).
        content = writeNode(this, node);
    }
    out += this.tracked_(content, marks);
    for (const mark of node.marks) {
      const id = Number(mark.attrs.id);
      if (mark.type.name === 'comment' && this.lastCommentNode.get(id) === node) out += this.commentEnd(id);
    }
    return out;
  }

  /** The w:ids of a thread's comments, numbered in the order the ranges begin. */
  private threadCommentIds(id: number): number[] {
    let ids = this.commentIds.get(id);
    if (!ids) {
      const count = this.prepared.threads.get(id)?.comments.length ?? 0;
      ids = Array.from({ length: count }, () => this.nextCommentId++);
      this.commentIds.set(id, ids);
    }
    return ids;
  }

  /**
   * The end of a thread's range: one Word comment per comment of the thread, each with its author
   * and date; in commentsExtended.xml the answers name the first comment's last paragraph as their
   * parent, and a resolved thread's comments are done (Word shows the thread resolved).
   */
  private commentEnd(id: number): string {
    const thread = this.prepared.threads.get(id);
    if (!thread) return '';
    const ids = this.threadCommentIds(id);
    let parent = '';
    let out = '';
    thread.comments.forEach((comment, index) => {
      const commentId = ids[index];
      const lines = comment.text.split(/\n+/).filter(Boolean);
      if (!lines.length) lines.push('');
      const paraIds = lines.map(() => paraIdHex(++this.nextParaId));
      const paragraphs = lines
        .map(
          (line, n) =>
            `<w:p w14:paraId="${paraIds[n]}" w14:textId="77777777"><w:pPr><w:pStyle w:val="CommentText"/></w:pPr>${n === 0 ? '<w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:annotationRef/></w:r>' : ''}<w:r><w:t xml:space="preserve">${escapeXml(line)}</w:t></w:r></w:p>`,
        )
        .join('');
      this.comments.push(
        `<w:comment w:id="${commentId}" w:author="${escapeXml(comment.name)}" w:date="${isoDate(comment.created)}" w:initials="${escapeXml(initials(comment.name))}">${paragraphs}</w:comment>`,
      );
      const last = paraIds[paraIds.length - 1];
      this.commentsExtended.push(
        `<w15:commentEx w15:paraId="${last}"${parent ? ` w15:paraIdParent="${parent}"` : ''} w15:done="${thread.resolved ? 1 : 0}"/>`,
      );
      if (index === 0) parent = last;
      out += `<w:commentRangeEnd w:id="${commentId}"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="${commentId}"/></w:r>`;
    });
    return out;
  }

  /** A note holding `node`'s paragraphs (InlineWriter); a note style's citation in it is part of it. */
  note(node: PMNode): string {
    const outer = this.inNote;
    this.inNote = true;
    try {
      return this.noteXml(this.blocks(node));
    } finally {
      this.inNote = outer;
    }
  }

  private noteXml(content: string): string {
    const id = this.footnotes.length + 1;
    const withReference = content.replace(
      /^<w:p>(<w:pPr>.*?<\/w:pPr>)?/,
      (_, props: string | undefined) =>
        `<w:p>${props ?? '<w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr>'}<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r>`,
    );
    this.footnotes.push(`<w:footnote w:id="${id}">${withReference}</w:footnote>`);
    return `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r>`;
  }

  private relation(type: 'hyperlink' | 'image', target: string): string {
    this.rels.push(`${type}\u0000${target}`);
    return `rId${100 + this.rels.length}`;
  }

  // Blocks ----------------------------------------------------------------------------------

  private paragraph(node: PMNode, style = '', extraProps = '', prefix = '', propsChange = ''): string {
    let inner = '';
    node.forEach((child) => {
      inner += this.inline(child);
    });
    const mark = this.paragraphMark(withInherited(this.blockChanges.breakAfter(node), this.inherited));
    const props = `${style ? `<w:pStyle w:val="${style}"/>` : ''}${extraProps}${mark}${propsChange}`;
    return `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}${prefix}${inner}</w:p>`;
  }

  /**
   * A paragraph of a list item: the first numbered, the others indented as its continuation. An
   * item suggested joined with the one before, keeping its paragraphs, has its first paragraph a
   * continuation, the numbering it had kept in w:pPrChange (rejecting gives it back); a split
   * the other way round.
   */
  private listParagraph(node: PMNode, list: ListPlace, index: number): string {
    const numbered = `<w:numPr><w:ilvl w:val="${list.level}"/><w:numId w:val="${list.numId}"/></w:numPr>`;
    const continued = `<w:ind w:left="${720 * (list.level + 1)}"/>`;
    const change = index === 0 ? changeMarks(list.above ?? [])[0] : undefined;
    if (!change) return this.paragraph(node, 'ListParagraph', index === 0 ? numbered : continued);
    const [now, before] = change.type.name === 'deletion' ? [continued, numbered] : [numbered, continued];
    const record = this.revisionOf(
      'w:pPrChange',
      change,
      `<w:pPr><w:pStyle w:val="ListParagraph"/>${before}</w:pPr>`,
    );
    return this.paragraph(node, 'ListParagraph', now, '', record);
  }

  private bookmarked(id: string, content: string): string {
    if (!id) return content;
    const n = this.bookmark++;
    return `<w:bookmarkStart w:id="${n}" w:name="${bookmarkName(id)}"/>${content}<w:bookmarkEnd w:id="${n}"/>`;
  }

  private linked(id: string, runs: string): string {
    return id ? `<w:hyperlink w:anchor="${bookmarkName(id)}">${runs}</w:hyperlink>` : runs;
  }

  /**
   * A TOC field over headings 1 to 3 (Word updates it), filled with the headings and links to
   * them so that it reads before that.
   */
  private tableOfContents(title: string): string {
    const entries = tocEntries(this.prepared.body)
      .map(
        (entry) =>
          `<w:p><w:pPr><w:pStyle w:val="TOC${entry.level}"/></w:pPr>${this.linked(entry.id, `<w:r><w:t xml:space="preserve">${escapeXml(entry.text)}</w:t></w:r>`)}</w:p>`,
      )
      .join('');
    return `<w:p><w:pPr><w:pStyle w:val="TOCHeading"/></w:pPr><w:r><w:t xml:space="preserve">${escapeXml(title)}</w:t></w:r></w:p><w:p><w:r><w:fldChar w:fldCharType="begin" w:dirty="true"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h \\z \\u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r></w:p>${entries}<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
  }

  blocks(parent: PMNode, list?: ListPlace): string {
    if (parent.type.name === 'toc_part' || parent.type.name === 'separator_part')
      return this.block(parent, list, 0);
    this.blockChanges.scan(parent);
    let out = '';
    parent.forEach((node, _offset, index) => {
      out += this.block(node, list, index);
    });
    return out;
  }

  /** Writes `node` with the changes recorded on it as a whole inherited by its content. */
  private block(node: PMNode, list: ListPlace | undefined, index: number): string {
    return this.withChanges(node, () => this.blockContent(node, list, index));
  }

  private blockContent(node: PMNode, list: ListPlace | undefined, index: number): string {
    switch (node.type.name) {
      case 'paragraph':
        return list ? this.listParagraph(node, list, index) : this.paragraph(node);
      case 'heading': {
        // Numbered by Word's own numbering (numbering.xml), as the document's heading numbering says.
        const numbered = !this.prepared.book && Boolean(this.prepared.numbers.get(node)?.display);
        const paragraph = this.paragraph(
          node,
          `Heading${Math.min(Number(node.attrs.level) + this.headingShift, 6)}`,
          numbered
            ? `<w:numPr><w:ilvl w:val="${Number(node.attrs.level) - 1}"/><w:numId w:val="${HEADINGS_NUM_ID}"/></w:numPr>`
            : '',
        );
        const id = String(node.attrs.id);
        return id
          ? paragraph
              .replace(
                /(<\/w:pPr>)/,
                `$1<w:bookmarkStart w:id="${this.bookmark}" w:name="${bookmarkName(id)}"/>`,
              )
              .replace(/<\/w:p>$/, `<w:bookmarkEnd w:id="${this.bookmark++}"/></w:p>`)
          : paragraph;
      }
      case 'blockquote':
        return withDefaultStyle(this.blocks(node), 'BlockText');
      case 'code_block': {
        const lines = (node.textContent || '').split('\n');
        const tag = this.textTag();
        return lines
          .map((line, index) =>
            this.generatedParagraph(
              '<w:pStyle w:val="SourceCode"/>',
              `<w:r><${tag} xml:space="preserve">${escapeXml(line)}</${tag}></w:r>`,
              index === lines.length - 1 ? this.blockChanges.breakAfter(node) : [],
            ),
          )
          .join('');
      }
      case 'horizontal_rule':
      case 'separator_part':
        return this.generatedParagraph(
          '<w:pBdr><w:bottom w:val="single" w:sz="6" w:space="1" w:color="auto"/></w:pBdr>',
          '',
        );
      case 'toc_part':
        return this.tableOfContents(String(node.attrs.title));
      case 'bullet_list':
      case 'ordered_list': {
        const level = list ? list.level + 1 : 0;
        let numId = list?.numId ?? 0;
        if (!list || node.type.name === 'ordered_list') {
          numId = this.nums.length + 1;
          this.nums.push({
            id: numId,
            ordered: node.type.name === 'ordered_list',
            start: Number(node.attrs.start ?? 1),
          });
        }
        this.blockChanges.scan(node);
        let out = '';
        node.forEach((item) => {
          out += this.withChanges(item, () =>
            this.blocks(item, { numId, level: Math.min(level, 8), above: this.blockChanges.aboveText(item) }),
          );
        });
        return out;
      }
      case 'table':
        return this.table(node);
      case 'figure':
        return this.figure(node);
      default:
        return '';
    }
  }

  /** The tag of text runs: w:delText inside a whole deleted block. */
  private textTag(): 'w:delText' | 'w:t' {
    return this.inherited.some((mark) => mark.type.name === 'deletion') ? 'w:delText' : 'w:t';
  }

  /**
   * A caption paragraph as Word writes one: the bookmark (the target of REF cross-references)
   * over the label and its SEQ number ("Figure {SEQ Figure}"), then the text.
   */
  private caption(node: PMNode, text: string): string {
    const line = captionText(this.prepared, node, text);
    if (!line) return '';
    const tag = this.textTag();
    const run = (value: string) => `<w:r><${tag} xml:space="preserve">${escapeXml(value)}</${tag}></w:r>`;
    const target = this.prepared.numbers.get(node);
    const label = target && target.kind !== 'equation' ? target.label : '';
    // No label (an unnumbered figure): no SEQ field, whose empty name Word refuses and an import
    // reads as a numbered figure's.
    const runs =
      label && target?.number && label.endsWith(target?.number ?? '')
        ? this.bookmarked(
            String(node.attrs.id),
            `${run(label.slice(0, label.length - (target?.number.length ?? 0)))}${this.sequence(target?.category ?? '', target?.number ?? '')}`,
          ) + run(line.slice(label.length))
        : this.bookmarked(String(node.attrs.id), run(line));
    return this.generatedParagraph('<w:pStyle w:val="Caption"/>', runs);
  }

  /** A SEQ field, w:delInstrText and w:delText inside a deleted block. */
  private sequence(category: string, number: string): string {
    return sequenceField(category, number, '', this.textTag() === 'w:delText');
  }

  private table(node: PMNode): string {
    const map = TableMap.get(node);
    const columnWidth = Math.floor((this.page.width - 2 * this.page.margin) / map.width);
    // The leading header rows repeat on each page.
    const headerRows = headerRowCount(node, map);
    // A suggested row: w:ins/w:del in its w:trPr (after w:tblHeader); a suggested cell (a column):
    // w:cellIns/w:cellDel last in its w:tcPr. Their paragraphs and text carry the change too.
    const outer = this.inherited;
    let rows = '';
    for (let row = 0; row < map.height; row++) {
      const rowNode = node.child(row);
      const rowChanges = [...withInherited(this.blockChanges.whole(rowNode), outer)];
      this.inherited = rowChanges;
      let cells = '';
      for (const { cell, span, rowspan, starts } of rowCells(node, map, row)) {
        const props = `<w:tcW w:w="${columnWidth * span}" w:type="dxa"/>${span > 1 ? `<w:gridSpan w:val="${span}"/>` : ''}`;
        if (starts) {
          const merge = rowspan > 1 ? '<w:vMerge w:val="restart"/>' : '';
          const own = this.blockChanges.whole(cell);
          const insertion = own.find((mark) => mark.type.name === 'insertion');
          const deletion = own.find((mark) => mark.type.name === 'deletion');
          const cellChange = deletion
            ? this.revisionOf('w:cellDel', deletion)
            : insertion
              ? this.revisionOf('w:cellIns', insertion)
              : '';
          const content = this.withChanges(cell, () => this.blocks(cell)) || this.generatedParagraph('', '');
          cells += `<w:tc><w:tcPr>${props}${merge}${cellChange}</w:tcPr>${content}</w:tc>`;
        } else cells += `<w:tc><w:tcPr>${props}<w:vMerge/></w:tcPr>${this.generatedParagraph('', '')}</w:tc>`;
      }
      const rowInsertion = rowChanges.find((mark) => mark.type.name === 'insertion');
      const rowDeletion = rowChanges.find((mark) => mark.type.name === 'deletion');
      const rowProps = `${row < headerRows ? '<w:tblHeader/>' : ''}${rowInsertion ? this.revisionOf('w:ins', rowInsertion) : ''}${rowDeletion ? this.revisionOf('w:del', rowDeletion) : ''}`;
      rows += `<w:tr>${rowProps ? `<w:trPr>${rowProps}</w:trPr>` : ''}${cells}</w:tr>`;
    }
    this.inherited = outer;
    const grid = Array.from({ length: map.width }, () => `<w:gridCol w:w="${columnWidth}"/>`).join('');
    const caption = this.caption(node, String(node.attrs.caption));
    return `${caption}<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr><w:tblGrid>${grid}</w:tblGrid>${rows}</w:tbl><w:p/>`;
  }

  /** An inline picture run of an image of the package, `width` percent of the text width. */
  private picture(src: string, width: number, description: string): string {
    const file = this.images.get(src);
    if (!file) return '';
    const size = imageSize(file.image) ?? { width: 1, height: 1 };
    const textWidth = (this.page.width - 2 * this.page.margin) * EMU_PER_TWIP;
    const cx = Math.round((textWidth * width) / 100);
    const cy = Math.round((cx * size.height) / size.width);
    const rid = `rIdImage${[...this.images.keys()].indexOf(src) + 1}`;
    const n = this.drawing++;
    return `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${n}" name="Figure ${n}" descr="${escapeXml(description)}"/><wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="${n}" name="${file.name}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  }

  private figure(node: PMNode): string {
    const caption = String(node.attrs.caption);
    if (isEquationFigure(node)) {
      const math = this.omml(String(node.attrs.equation), true);
      const target = this.prepared.numbers.get(node);
      const tag = this.textTag();
      const run = (value: string) => `<w:r><${tag} xml:space="preserve">${escapeXml(value)}</${tag}></w:r>`;
      // The number "(n)" a SEQ field, bookmarked for REF cross-references.
      const number = target
        ? `<w:r><w:tab/></w:r>${this.bookmarked(String(node.attrs.id), `${run('(')}${this.sequence('equation', target.number)}${run(')')}`)}`
        : '';
      const body = math ? `<m:oMathPara>${math}</m:oMathPara>` : run(String(node.attrs.equation));
      return `${this.generatedParagraph('<w:pStyle w:val="Equation"/>', target ? body + number : this.bookmarked(String(node.attrs.id), body))}${caption ? this.caption(node, caption) : ''}`;
    }
    const picture = this.picture(String(node.attrs.src), Number(node.attrs.width || 100), caption);
    const align =
      node.attrs.aligned === 'left' ? 'left' : node.attrs.aligned === 'right' ? 'right' : 'center';
    return `${this.generatedParagraph(`<w:pStyle w:val="Figure"/><w:jc w:val="${align}"/>`, picture)}${this.caption(node, caption)}`;
  }

  // The whole package ------------------------------------------------------------------------

  front(): string {
    const p = this.prepared;
    return `<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr>${this.inlineChildren(p.doc.firstChild)}</w:p>${this.frontMatter(p)}`;
  }

  /** Subtitle, authors, abstract and keywords of the article or of a book's chapter. */
  private frontMatter(p: Pick<PreparedChapter, 'subtitle' | 'authors' | 'abstract' | 'keywords'>): string {
    let out = '';
    if (p.subtitle)
      out += `<w:p><w:pPr><w:pStyle w:val="Subtitle"/></w:pPr><w:r><w:t xml:space="preserve">${escapeXml(p.subtitle)}</w:t></w:r></w:p>`;
    for (const person of p.authors) {
      const line = [authorName(person), person.institution].filter(Boolean).join(', ');
      out += `<w:p><w:pPr><w:pStyle w:val="Author"/></w:pPr><w:r><w:t xml:space="preserve">${escapeXml(line)}</w:t></w:r></w:p>`;
    }
    if (p.abstract) {
      out += `<w:p><w:pPr><w:pStyle w:val="AbstractTitle"/></w:pPr><w:r><w:t xml:space="preserve">${escapeXml(String(p.abstract.attrs.title || 'Abstract'))}</w:t></w:r></w:p>`;
      out += withDefaultStyle(this.blocks(p.abstract), 'Abstract');
    }
    if (p.keywords.length)
      out += `<w:p><w:pPr><w:pStyle w:val="Keywords"/></w:pPr><w:r><w:t xml:space="preserve">${escapeXml(p.keywords.join(', '))}</w:t></w:r></w:p>`;
    return out;
  }

  /**
   * A book (issue 21): title page with the cover, the copyright page, the contents (a TOC field
   * filled with the chapters, so that it reads before Word updates it), parts, and the chapters,
   * each on a new page under "Chapter n" with its title as Heading 1.
   */
  book(book: BookStructure): string {
    const p = this.prepared;
    const language = p.language;
    const text = (style: string, value: string, props = '') =>
      `<w:p><w:pPr><w:pStyle w:val="${style}"/>${props}</w:pPr><w:r><w:t xml:space="preserve">${escapeXml(value)}</w:t></w:r></w:p>`;
    const newPage = '<w:pageBreakBefore/>';
    this.headingShift = 1;
    let out = '';
    if (book.cover)
      out += `<w:p><w:pPr><w:jc w:val="center"/></w:pPr>${this.picture(COVER_SRC, 70, p.title)}</w:p>`;
    out += text('Title', p.title);
    for (const person of p.authors) out += text('Author', authorName(person));
    if (book.publisher) out += text('Subtitle', book.publisher);
    if (book.copyright || book.isbn) {
      out += text('Normal', book.copyright, newPage);
      if (book.isbn) out += text('Normal', `ISBN ${book.isbn}`);
    }
    const chapterLabel = documentLabel('chapter', language);
    const entries = book.chapters
      .map(
        (chapter) =>
          `<w:p><w:pPr><w:pStyle w:val="TableContents"/></w:pPr><w:hyperlink w:anchor="${bookmarkName(chapter.anchor)}"><w:r><w:t xml:space="preserve">${escapeXml(`${chapterLabel} ${chapter.number}: ${chapter.title}`)}</w:t></w:r></w:hyperlink></w:p>`,
      )
      .join('');
    out += text('Title', documentLabel('contents', language), newPage);
    out += `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-1" \\h \\z \\u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r></w:p>${entries}<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
    for (const group of groupParts(book.chapters)) {
      if (group.part) out += text('Title', group.part, newPage);
      for (const chapter of group.chapters) {
        out += text('Subtitle', `${chapterLabel} ${chapter.number}`, newPage);
        out += `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${this.bookmarked(chapter.anchor, this.inlineChildren(chapter.titleNode))}</w:p>`;
        out += this.frontMatter(chapter);
        for (const part of chapter.body) out += this.blocks(part);
        out += this.bibliography(chapter.bibliography, 'Heading2');
      }
    }
    return (
      out +
      this.bibliography().replace('<w:pStyle w:val="Heading1"/>', `<w:pStyle w:val="Heading1"/>${newPage}`)
    );
  }

  private inlineChildren(node: PMNode | null): string {
    let out = '';
    node?.forEach((child) => {
      out += this.inline(child);
    });
    return out;
  }

  /** The bibliography (a book's chapter's own when given) under a heading of `style`. */
  bibliography(entries = this.prepared.bibliography, style = 'Heading1'): string {
    const p = this.prepared;
    if (!entries.length) return '';
    const title = documentLabel('bibliography', p.language);
    const layout = p.bibliographyLayout ?? DEFAULT_LAYOUT;
    // One ZOTERO_BIBL field over the entries (Zotero refreshes it), begun in the first, ended in the last.
    return `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr><w:r><w:t xml:space="preserve">${escapeXml(title)}</w:t></w:r></w:p>${entries
      .map((entry, index) => {
        const parts = splitLabel(entry);
        const runs = parts
          ? `${this.styledRuns(parts.label, [], false)}<w:r><w:tab/></w:r>${this.styledRuns(parts.text, [], false)}`
          : this.styledRuns(entry, [], false);
        const begin = index === 0 ? fieldBegin(ZOTERO_BIBLIOGRAPHY_INSTRUCTION) : '';
        const end = index === entries.length - 1 ? fieldEnd() : '';
        return `<w:p><w:pPr><w:pStyle w:val="Bibliography"/>${docxEntryProperties(layout, Boolean(parts))}</w:pPr>${begin}${runs}${end}</w:p>`;
      })
      .join('')}`;
  }

  files(body: string): Record<string, Uint8Array> {
    const p = this.prepared;
    const encoder = new TextEncoder();
    const page = this.page;
    const reference = this.reference;
    const setup = reference?.pageSetup;
    const pageXml = setup
      ? `${setup.pgSz}${setup.pgMar}`
      : `<w:pgSz w:w="${page.width}" w:h="${page.height}"/><w:pgMar w:top="${twips(this.house.margins.top)}" w:right="${twips(this.house.margins.right)}" w:bottom="${twips(this.house.margins.bottom)}" w:left="${twips(this.house.margins.left)}" w:header="708" w:footer="708" w:gutter="0"/>`;
    let numbering = referenceNumbering(this.nums, p.book ? 'none' : headingNumbering(p.doc));
    let numIdShift = 0;
    if (reference?.numbering) ({ numbering, numIdShift } = reference.numbering(numbering));
    // Our style ids that the reference has under other ids, and our lists after its own.
    const content = (xml: string) =>
      shiftNumIds(renameStyleIds(xml, reference?.renames ?? new Map()), numIdShift);
    // The reference's headers and footers; our page number footer unless it has footers.
    const headersFooters = reference?.headersFooters;
    // Zotero's document preferences, when its fields have a style to refresh with.
    const zotero = customProperties(
      p.citationStyle ? zoteroPrefs(p.citationStyle, p.language, p.noteStyle) : null,
      this.equationSources,
      p.book ? 'none' : headingNumbering(p.doc),
    );
    const ownFooter = !headersFooters?.footer;
    const sectionReferences = `${headersFooters?.references ?? ''}${ownFooter ? '<w:footerReference w:type="default" r:id="rIdFooter"/>' : ''}`;
    const document = content(
      `${XML_HEAD}<w:document ${NS}><w:body>${body}<w:sectPr>${sectionReferences}<w:footnotePr><w:numFmt w:val="decimal"/></w:footnotePr>${pageXml}${headersFooters?.titlePg ? '<w:titlePg/>' : ''}</w:sectPr></w:body></w:document>`,
    );
    const footnotes = content(
      `${XML_HEAD}<w:footnotes ${NS}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>${this.footnotes.join('')}</w:footnotes>`,
    );
    const comments = content(
      `${XML_HEAD}<w:comments ${NS} ${COMMENT_NS}>${this.comments.join('')}</w:comments>`,
    );
    const commentsExtended = `${XML_HEAD}<w15:commentsEx ${COMMENT_NS}>${this.commentsExtended.join('')}</w15:commentsEx>`;
    const extraRels = `${reference?.theme ? `<Relationship Id="rIdTheme" Type="${REL}/theme" Target="theme/theme1.xml"/>` : ''}${reference?.fontTable ? `<Relationship Id="rIdFontTable" Type="${REL}/fontTable" Target="fontTable.xml"/>` : ''}`;
    const extraTypes = `${reference?.theme ? '<Override PartName="/word/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>' : ''}${reference?.fontTable ? '<Override PartName="/word/fontTable.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.fontTable+xml"/>' : ''}`;
    const footer = `${XML_HEAD}<w:ftr ${NS}><w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:ftr>`;
    const imageRels = [...this.images.values()].map(
      (file, index) =>
        `<Relationship Id="rIdImage${index + 1}" Type="${REL}/image" Target="media/${file.name}"/>`,
    );
    const linkRels = this.rels
      .map((rel, index) => ({ rel, id: `rId${101 + index}` }))
      .filter(({ rel }) => rel.startsWith('hyperlink\u0000'))
      .map(
        ({ rel, id }) =>
          `<Relationship Id="${id}" Type="${REL}/hyperlink" Target="${escapeXml(rel.split('\u0000')[1])}" TargetMode="External"/>`,
      );
    const documentRels = `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rIdNumbering" Type="${REL}/numbering" Target="numbering.xml"/><Relationship Id="rIdSettings" Type="${REL}/settings" Target="settings.xml"/><Relationship Id="rIdFootnotes" Type="${REL}/footnotes" Target="footnotes.xml"/><Relationship Id="rIdComments" Type="${REL}/comments" Target="comments.xml"/><Relationship Id="rIdCommentsExtended" Type="http://schemas.microsoft.com/office/2011/relationships/commentsExtended" Target="commentsExtended.xml"/>${ownFooter ? `<Relationship Id="rIdFooter" Type="${REL}/footer" Target="footer1.xml"/>` : ''}${headersFooters?.relationships ?? ''}${extraRels}${imageRels.join('')}${linkRels.join('')}</Relationships>`;
    const types = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="jpg" ContentType="image/jpeg"/><Default Extension="gif" ContentType="image/gif"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/><Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/><Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/><Override PartName="/word/commentsExtended.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"/>${ownFooter ? '<Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/>' : ''}<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>${zotero ? '<Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>' : ''}${extraTypes}${headersFooters?.types ?? ''}</Types>`;
    const rootRels = `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="${REL}/extended-properties" Target="docProps/app.xml"/>${zotero ? `<Relationship Id="rId4" Type="${REL}/custom-properties" Target="docProps/custom.xml"/>` : ''}</Relationships>`;
    const abstract = p.abstract ? p.abstract.textContent : '';
    const now = isoDate(Date.now());
    const core = `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${escapeXml(p.title)}</dc:title><dc:creator>${escapeXml(p.authors.map(authorName).join('; '))}</dc:creator><dc:description>${escapeXml(abstract)}</dc:description><dc:language>${escapeXml(p.language)}</dc:language><cp:keywords>${escapeXml(p.keywords.join(', '))}</cp:keywords><dcterms:created xsi:type="dcterms:W3CDTF">${now}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${now}</dcterms:modified></cp:coreProperties>`;
    const app = `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Scriptorium</Application></Properties>`;
    const files: Record<string, Uint8Array> = {
      '[Content_Types].xml': encoder.encode(types),
      '_rels/.rels': encoder.encode(rootRels),
      'docProps/core.xml': encoder.encode(core),
      'docProps/app.xml': encoder.encode(app),
      ...(zotero ? { 'docProps/custom.xml': encoder.encode(zotero) } : {}),
      'word/document.xml': encoder.encode(document),
      'word/_rels/document.xml.rels': encoder.encode(documentRels),
      'word/styles.xml': encoder.encode(reference?.styles ?? referenceStyles(p.language, this.house)),
      'word/numbering.xml': encoder.encode(numbering),
      'word/settings.xml': encoder.encode(
        reference?.settings
          ? reference.settings(referenceSettings(p.language, this.tracked))
          : referenceSettings(p.language, this.tracked),
      ),
      'word/footnotes.xml': encoder.encode(footnotes),
      'word/comments.xml': encoder.encode(comments),
      'word/commentsExtended.xml': encoder.encode(commentsExtended),
      ...(ownFooter ? { 'word/footer1.xml': encoder.encode(footer) } : {}),
      ...headersFooters?.files,
    };
    if (reference?.theme) files['word/theme/theme1.xml'] = reference.theme;
    if (reference?.fontTable) files['word/fontTable.xml'] = reference.fontTable;
    for (const file of this.images.values()) files[`word/media/${file.name}`] = file.image.data;
    return files;
  }
}

export function exportDocx(prepared: PreparedDocument): Uint8Array {
  const writer = new DocxWriter(prepared);
  if (prepared.book) return zipSync(writer.files(writer.book(prepared.book)), { level: 6 });
  let body = writer.front();
  for (const part of prepared.body) body += writer.blocks(part);
  body += writer.bibliography();
  return zipSync(writer.files(body), { level: 6 });
}

/** Twips of one em of the bibliography's text (12 pt). */
const EM_TWIPS = 240;

/**
 * A bibliography paragraph's tabs, spacing and indent (CT_PPr's order) for the style's layout: a
 * label column is a tab stop with the text hanging at it ("margin": the label left of the text's
 * edge), otherwise a hanging indent or none; line spacing in 240ths of a line, entry spacing as
 * space after (a line of 12 pt each).
 */
export function docxEntryProperties(layout: BibliographyLayout, labelled: boolean): string {
  const spacing = `<w:spacing w:after="${Math.round(layout.entrySpacing * 240)}" w:line="${Math.round(layout.lineSpacing * 240)}" w:lineRule="auto"/>`;
  if (labelled) {
    const width = Math.round(labelWidthEm(layout) * EM_TWIPS);
    const left = layout.secondFieldAlign === 'margin' ? 0 : width;
    return `<w:tabs><w:tab w:val="left" w:pos="${left}"/></w:tabs>${spacing}<w:ind w:left="${left}" w:hanging="${width}"/>`;
  }
  const hanging = layout.hangingIndent ? 2 * EM_TWIPS : 0;
  return `${spacing}<w:ind w:left="${hanging}" w:hanging="${hanging}"/>`;
}
