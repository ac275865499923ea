import { zipSync } from 'fflate';
import type { Mark, Node as PMNode } from 'prosemirror-model';
import { TableMap } from 'prosemirror-tables';
import { exportCslItems } from '../bibliography/export';
import { type BibliographyLayout, DEFAULT_LAYOUT, labelWidthEm, splitLabel } from '../bibliography/layout';
import { renderLatex } from '../editor/academic-math';
import { type CitationReference, crossReferenceForm } from '../editor/academic-nodes';
import {
  crossReferencePieces,
  documentLabel,
  headingNumbering,
  PAGE_PLACEHOLDER,
} from '../editor/academic-numbering';
import type { InlineWriter } from '../features/feature';
import { writeNode } from '../features/registry';
import { type BreakChange, withInherited } from './block-changes';
import {
  citationId,
  HEADING_NUMBERING_PROPERTY,
  sequenceName,
  zoteroCitationInstruction,
  zoteroPrefPieces,
  zoteroPrefs,
} from './docx-fields';
import { houseStyle } from './house-styles';
import { imageFiles, imageSize } from './images';
import {
  authorName,
  captionText,
  citationFallback,
  type ExportImage,
  isEquationFigure,
  type PreparedDocument,
  tocEntries,
} from './model';
import {
  FONT_FACES,
  ODF_NS,
  ODF_PAGES,
  ODF_XML_HEAD,
  type OdfPage,
  referenceOdfStyles,
  styleName,
} from './odt-reference';
import { readOdtReference } from './reference-merge';
import { escapeXml, htmlToRuns, type StyledRun } from './text';
import { ChangesWriter, figureSources, headerRowCount, rowCells } from './writer';

/**
 * ODT (OpenDocument text) export: the content filled into our reference styles (odt-reference.ts),
 * with the same content as the DOCX export. Equations are ODF formula objects holding Temml's
 * MathML, comments office:annotation ranges, tracked changes text:tracked-changes regions,
 * footnotes text:note, figures pictures in Pictures/.
 */

export const ODT_MIME = 'application/vnd.oasis.opendocument.text';

/** Character formatting of a run: the marks (and citeproc styles) an automatic text style carries. */
const TEXT_PROPS: Record<string, string> = {
  strong: 'fo:font-weight="bold" style:font-weight-asian="bold" style:font-weight-complex="bold"',
  em: 'fo:font-style="italic" style:font-style-asian="italic" style:font-style-complex="italic"',
  underline:
    'style:text-underline-style="solid" style:text-underline-width="auto" style:text-underline-color="font-color"',
  smallcaps: 'fo:font-variant="small-caps"',
  sup: 'style:text-position="super 58%"',
  sub: 'style:text-position="sub 58%"',
  code: 'style:font-name="Liberation Mono"',
};
const FORMAT_ORDER = Object.keys(TEXT_PROPS);

/** The office:name of each annotation of a thread: comment<id> for the first, comment<id>.<n> for answer n. */
function annotationNames(id: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => (index ? `comment${id}.${index}` : `comment${id}`));
}

function isoDate(ms: number): string {
  return new Date(ms > 0 ? ms : Date.now()).toISOString().replace(/\.\d{3}Z$/, '');
}

/** The sequences of our captions and equation numbers, as LibreOffice declares its own. */
const SEQUENCE_DECLS = `<text:sequence-decls>${['Figure', 'Photo', 'Table', 'Equation', 'Listing']
  .map((name) => `<text:sequence-decl text:display-outline-level="0" text:name="${name}"/>`)
  .join('')}</text:sequence-decls>`;

function bookmarkName(id: string): string {
  return `ref_${id.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 40);
}

/**
 * Text as ODF paragraph content: ODF collapses runs of spaces, so the second and later spaces of
 * a run (and one at the start of an element) are text:s; tabs and line ends have their elements.
 */
function odfText(text: string): string {
  return escapeXml(text)
    .replace(/^ +| {2,}/g, (spaces, offset: number) =>
      offset === 0
        ? `<text:s text:c="${spaces.length}"/>`
        : ` <text:s${spaces.length > 2 ? ` text:c="${spaces.length - 1}"` : ''}/>`,
    )
    .replace(/\t/g, '<text:tab/>')
    .replace(/\r?\n/g, '<text:line-break/>');
}

/** Temml's MathML as the content.xml of an ODF formula object. */
function formulaObject(latex: string, display: boolean): string | null {
  const result = renderLatex(latex, display);
  if (!result.ok) return null;
  const mathml = result.mathml
    // Readers take a formula without display="inline" for a display one.
    .replace(
      /^<math/,
      `<math xmlns="http://www.w3.org/1998/Math/MathML"${display ? '' : ' display="inline"'}`,
    )
    .replace(/ (class|style)="[^"]*"/g, '')
    .replace(/&nbsp;/g, '&#160;')
    // The LaTeX beside the MathML, as an annotation (LibreOffice replaces it by its own on editing).
    .replace(
      /^(<math[^>]*>)([\s\S]*)(<\/math>)$/,
      (_, open: string, inner: string, close: string) =>
        `${open}<semantics><mrow>${inner}</mrow><annotation encoding="application/x-tex">${escapeXml(latex)}</annotation></semantics>${close}`,
    );
  return `${ODF_XML_HEAD}${mathml}`;
}

type TableCellRole = 'Table_20_Contents' | 'Table_20_Heading';

interface BlockContext {
  /** The style of plain paragraphs here (a quotation's, the abstract's, a footnote's, a cell's). */
  paragraphStyle?: string;
  /** Inside a list: its items' paragraphs are list paragraphs. */
  inList?: boolean;
}

/** The paragraph style of a paragraph or heading written in `context`. */
function textStyle(node: PMNode, context: BlockContext): string {
  if (node.type.name === 'heading') return `Heading_20_${Number(node.attrs.level)}`;
  return context.paragraphStyle ?? (context.inList ? 'List_20_Paragraph' : 'Text_20_body');
}

/** An empty paragraph or heading of the style (a deletion region's record of a break). */
function emptyParagraph(node: PMNode, style: string): string {
  return node.type.name === 'heading'
    ? `<text:h text:style-name="${style}" text:outline-level="${Number(node.attrs.level)}"/>`
    : `<text:p text:style-name="${style}"/>`;
}

class OdtWriter extends ChangesWriter implements InlineWriter {
  private readonly textStyles = new Map<string, string>();
  private readonly paragraphStyles = new Map<string, string>();
  private readonly listStyles = new Map<string, string>();
  private readonly tableStyles: string[] = [];
  private readonly changes: string[] = [];
  private readonly formulas: string[] = [];
  /** Tables of contents so far (each needs its own name). */
  private tocs = 0;
  private readonly images: Map<string, { name: string; image: ExportImage }>;
  private readonly openedComments = new Set<number>();
  private readonly lastCommentNode = new Map<number, PMNode>();
  private readonly page: OdfPage;
  private noteCount = 0;
  /** Inside a note (its citations are part of it in a note style). */
  private inNote = false;
  private frame = 0;
  /** What a textblock starts with: the end of an inserted paragraph break, a deleted block's place. */
  private readonly startMarks = new Map<PMNode, string>();
  /** Blocks written inside the paragraph before them, a suggested join (textblockContent). */
  private readonly joined = new Set<PMNode>();
  /** Writing a deleted block into its changed region: its text as it was, no regions inside. */
  private plain = false;

  constructor(private readonly prepared: PreparedDocument) {
    super();
    // The template's house style: its margins set the text width pictures and tables fill.
    const { margins } = houseStyle(prepared.doc);
    this.page = { ...ODF_PAGES[prepared.paperSize], margin: (margins.left + margins.right) / 20 };
    prepared.doc.descendants((node) => {
      for (const mark of node.marks)
        if (mark.type.name === 'comment' && prepared.threads.has(Number(mark.attrs.id)))
          this.lastCommentNode.set(Number(mark.attrs.id), node);
      return true;
    });
    this.images = imageFiles(
      figureSources(prepared.doc),
      prepared.images,
      (image) => imageSize(image) !== null,
    );
  }

  // Styles made on demand (content.xml's automatic styles) ---------------------------------------

  /** The automatic text style of a set of formats ('' when plain). */
  private textStyle(formats: Iterable<string>): string {
    const key = FORMAT_ORDER.filter((format) => new Set(formats).has(format)).join(' ');
    if (!key) return '';
    let name = this.textStyles.get(key);
    if (!name) {
      name = `T${this.textStyles.size + 1}`;
      this.textStyles.set(key, name);
    }
    return name;
  }

  /** An automatic paragraph style: a named one with other alignment. */
  private alignedStyle(parent: string, align: 'start' | 'end' | 'center'): string {
    const key = `${parent}|${align}`;
    let name = this.paragraphStyles.get(key);
    if (!name) {
      name = `P${this.paragraphStyles.size + 1}`;
      this.paragraphStyles.set(key, name);
    }
    return name;
  }

  /** One list style per shape of a list tree: bullets or numbers on each level, as the tree has them. */
  private listStyle(list: PMNode): string {
    const ordered: boolean[] = [];
    const visit = (node: PMNode, depth: number) => {
      ordered[depth] ??= node.type.name === 'ordered_list';
      node.forEach((item) => {
        item.forEach((child) => {
          if (child.type.name === 'bullet_list' || child.type.name === 'ordered_list')
            visit(child, depth + 1);
        });
      });
    };
    visit(list, 0);
    const key = ordered.map((value) => (value ? 'o' : 'b')).join('');
    let name = this.listStyles.get(key);
    if (!name) {
      name = `L${this.listStyles.size + 1}`;
      this.listStyles.set(key, name);
    }
    return name;
  }

  private automaticStyles(): string {
    let out = '';
    for (const [key, name] of this.textStyles)
      out += `<style:style style:name="${name}" style:family="text"><style:text-properties ${key
        .split(' ')
        .map((format) => TEXT_PROPS[format])
        .join(' ')}/></style:style>`;
    for (const [key, name] of this.paragraphStyles) {
      const [parent, align] = key.split('|');
      out += `<style:style style:name="${name}" style:family="paragraph" style:parent-style-name="${parent}"><style:paragraph-properties fo:text-align="${align}"/></style:style>`;
    }
    for (const [key, name] of this.listStyles) {
      let levels = '';
      for (let level = 1; level <= 10; level++) {
        const ordered = key[Math.min(level, key.length) - 1] === 'o';
        const indent = (0.635 * (level + 1)).toFixed(3);
        const position = `<style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="${indent}cm" fo:text-indent="-0.635cm" fo:margin-left="${indent}cm"/></style:list-level-properties>`;
        levels += ordered
          ? `<text:list-level-style-number text:level="${level}" style:num-suffix="." style:num-format="1">${position}</text:list-level-style-number>`
          : `<text:list-level-style-bullet text:level="${level}" text:bullet-char="${['•', '◦', '▪'][(level - 1) % 3]}">${position}</text:list-level-style-bullet>`;
      }
      out += `<text:list-style style:name="${name}">${levels}</text:list-style>`;
    }
    out += odtEntryStyles(this.prepared.bibliographyLayout ?? DEFAULT_LAYOUT);
    out += this.tableStyles.join('');
    out +=
      '<style:style style:name="frInline" style:family="graphic" style:parent-style-name="Formula"><style:graphic-properties style:vertical-pos="middle" style:vertical-rel="text"/></style:style>';
    out +=
      '<style:style style:name="frFigure" style:family="graphic" style:parent-style-name="Graphics"><style:graphic-properties style:vertical-pos="top" style:vertical-rel="baseline"/></style:style>';
    return out;
  }

  // Runs ----------------------------------------------------------------------------------------

  private span(content: string, formats: Iterable<string>): string {
    const style = this.textStyle(formats);
    return style ? `<text:span text:style-name="${style}">${content}</text:span>` : content;
  }

  private markFormats(marks: readonly Mark[]): string[] {
    return marks.map((mark) => mark.type.name).filter((name) => name in TEXT_PROPS);
  }

  private styledRuns(html: string, marks: readonly Mark[]): string {
    const base = this.markFormats(marks);
    return htmlToRuns(html)
      .map((run: StyledRun) => {
        const formats = [...base];
        if (run.italic) formats.push('em');
        if (run.bold) formats.push('strong');
        if (run.smallcaps) formats.push('smallcaps');
        if (run.sup) formats.push('sup');
        else if (run.sub) formats.push('sub');
        return this.span(odfText(run.text), formats);
      })
      .join('');
  }

  private changeInfo(mark: Mark): string {
    return `<office:change-info><dc:creator>${escapeXml(String(mark.attrs.username))}</dc:creator><dc:date>${isoDate(Number(mark.attrs.date))}</dc:date></office:change-info>`;
  }

  /** A tracked change region; its id for the marks in the text. */
  private region(change: string): string {
    const id = `ct${this.changes.length + 1}`;
    this.changes.push(`<text:changed-region xml:id="${id}" text:id="${id}">${change}</text:changed-region>`);
    return id;
  }

  /** Wraps content in the tracked change its marks say: deletions keep their text in the region. */
  private tracked(content: string, marks: readonly Mark[]): string {
    if (this.plain) return content;
    const deletion = marks.find((mark) => mark.type.name === 'deletion');
    if (deletion) {
      const id = this.region(
        `<text:deletion>${this.changeInfo(deletion)}<text:p>${content}</text:p></text:deletion>`,
      );
      return `<text:change text:change-id="${id}"/>`;
    }
    let out = content;
    const change = marks.find((mark) => mark.type.name === 'format_change');
    if (change) {
      const id = this.region(`<text:format-change>${this.changeInfo(change)}</text:format-change>`);
      out = `<text:change-start text:change-id="${id}"/>${out}<text:change-end text:change-id="${id}"/>`;
    }
    const insertion = marks.find((mark) => mark.type.name === 'insertion' && !mark.attrs.approved);
    if (insertion) {
      const id = this.region(`<text:insertion>${this.changeInfo(insertion)}</text:insertion>`);
      out = `<text:change-start text:change-id="${id}"/>${out}<text:change-end text:change-id="${id}"/>`;
    }
    return out;
  }

  private inline(node: PMNode): string {
    const marks = this.marksOf(node);
    let out = '';
    // A comment is an annotation where its range starts and an annotation-end after its last text.
    for (const mark of marks) {
      const id = Number(mark.attrs.id);
      if (mark.type.name === 'comment' && this.lastCommentNode.has(id) && !this.openedComments.has(id)) {
        this.openedComments.add(id);
        out += this.annotation(id);
      }
    }
    let content = '';
    switch (node.type.name) {
      case 'text': {
        content = this.span(odfText(node.text ?? ''), this.markFormats(marks));
        const link = marks.find((mark) => mark.type.name === 'link');
        if (link) {
          const href = String(link.attrs.href);
          const target = href.startsWith('#') ? `#${bookmarkName(href.slice(1))}` : href;
          content = `<text:a xlink:type="simple" xlink:href="${escapeXml(target)}" text:style-name="Internet_20_link">${content}</text:a>`;
        }
        break;
      }
      case 'hard_break':
        content = '<text:line-break/>';
        break;
      case 'equation':
        content =
          this.formula(String(node.attrs.equation), false) ??
          this.span(odfText(`$${node.attrs.equation}$`), this.markFormats(marks));
        break;
      case 'citation': {
        const rendered = this.prepared.citations.get(node) || '';
        const runs = rendered
          ? this.styledRuns(rendered, marks)
          : this.span(odfText(citationFallback(node)), this.markFormats(marks));
        const author = this.prepared.citationAuthors?.get(node);
        const asNote =
          (this.prepared.noteCitations?.has(node) ?? this.prepared.noteStyle) && rendered && !this.inNote;
        content = asNote
          ? // A note style's text citation keeps its author in the sentence ("LeCun and Bottou¹").
            `${author ? this.styledRuns(author, marks) : ''}${this.noteXml(`<text:p text:style-name="Footnote">${this.citationMark(node, runs, this.noteCount + 1, author)}</text:p>`)}`
          : this.citationMark(node, runs, this.inNote ? this.noteCount + 1 : 0);
        break;
      }
      case 'cross_reference': {
        const id = String(node.attrs.id);
        const target = this.prepared.numbering.byId.get(id);
        const text = target?.label ?? String(node.attrs.title || '??');
        // A figure's, table's or equation's number: a bookmark reference LibreOffice updates; a
        // section's: a link to the heading (its reference would show the heading's text).
        const pieces = target
          ? crossReferencePieces(text, crossReferenceForm(node.attrs.form), this.prepared.language)
          : { number: text, pageWords: null };
        const formats = this.markFormats(marks);
        content = pieces.number
          ? target && target.kind !== 'heading'
            ? `<text:bookmark-ref text:reference-format="text" text:ref-name="${bookmarkName(id)}">${this.span(odfText(pieces.number), formats)}</text:bookmark-ref>`
            : `<text:a xlink:type="simple" xlink:href="#${bookmarkName(id)}">${this.span(odfText(pieces.number), formats)}</text:a>`
          : '';
        // A page form: the words, then a reference to the bookmark's page (LibreOffice computes it).
        if (pieces.pageWords !== null)
          content += `${this.span(odfText(pieces.pageWords), formats)}<text:bookmark-ref text:reference-format="page" text:ref-name="${bookmarkName(id)}">${this.span(PAGE_PLACEHOLDER, formats)}</text:bookmark-ref>`;
        break;
      }
      default:
        // A feature's node (common/src/features/registry.ts).
        content = writeNode(this, node);
    }
    out += this.tracked(content, marks);
    for (const mark of node.marks) {
      const id = Number(mark.attrs.id);
      if (mark.type.name === 'comment' && this.lastCommentNode.get(id) === node)
        out += annotationNames(id, this.prepared.threads.get(id)?.comments.length ?? 0)
          .reverse()
          .map((name) => `<office:annotation-end office:name="${name}"/>`)
          .join('');
    }
    return out;
  }

  /**
   * The thread as annotations on its range, one per comment with its author and date: the answers
   * name the first as their parent (loext:parent-name), and each is resolved as its thread
   * (loext:resolved, as LibreOffice writes it).
   */
  private annotation(id: number): string {
    const thread = this.prepared.threads.get(id);
    if (!thread) return '';
    const names = annotationNames(id, thread.comments.length);
    return thread.comments
      .map((comment, index) => {
        const lines = comment.text.split(/\n+/).filter(Boolean);
        const paragraphs = (lines.length ? lines : [''])
          .map((line) => `<text:p>${odfText(line)}</text:p>`)
          .join('');
        const parent = index ? ` loext:parent-name="${names[0]}"` : '';
        return `<office:annotation office:name="${names[index]}"${parent} loext:resolved="${thread.resolved}"><dc:creator>${escapeXml(comment.name)}</dc:creator><dc:date>${isoDate(comment.created)}</dc:date>${paragraphs}</office:annotation>`;
      })
      .join('');
  }

  /** The cited entries as CSL-JSON, by key (the reference marks' payload). */
  private cslItems: Map<string, Record<string, unknown>> | null = null;
  private citationCount = 0;

  /**
   * A citation as Zotero's LibreOffice plugin keeps one: a reference mark named
   * `ZOTERO_ITEM CSL_CITATION {json} RND<id>` around its rendered text.
   */
  private citationMark(node: PMNode, runs: string, noteIndex: number, author?: string): string {
    if (!this.cslItems) {
      const entries = this.prepared.entries;
      const keys = [...entries.keys()];
      const items = exportCslItems(keys.map((key) => ({ ...entries.get(key), entry_key: key }) as never));
      this.cslItems = new Map(items.map((item, index) => [keys[index], item]));
    }
    const id = citationId(++this.citationCount);
    const instruction = zoteroCitationInstruction({
      citationID: id,
      references: node.attrs.references as CitationReference[],
      items: this.cslItems,
      rendered: this.prepared.citations.get(node) || '',
      noteIndex,
      format: String(node.attrs.format),
      ...(author ? { author } : {}),
    }).replace(/^ADDIN /, '');
    const name = escapeXml(`${instruction} RND${id}`);
    return `<text:reference-mark-start text:name="${name}"/>${runs}<text:reference-mark-end text:name="${name}"/>`;
  }

  /** A note holding `node`'s paragraphs (InlineWriter); a note style's citation in it is part of it. */
  note(node: PMNode): string {
    const outer = this.inNote;
    this.inNote = true;
    try {
      return this.noteXml(this.blocks(node, { paragraphStyle: 'Footnote' }));
    } finally {
      this.inNote = outer;
    }
  }

  private noteXml(body: string): string {
    this.noteCount++;
    return `<text:note text:id="ftn${this.noteCount}" text:note-class="footnote"><text:note-citation>${this.noteCount}</text:note-citation><text:note-body>${body || '<text:p text:style-name="Footnote"/>'}</text:note-body></text:note>`;
  }

  /** An embedded formula object ('Object N/content.xml' with the MathML); null if LaTeX fails. */
  private formula(latex: string, display: boolean): string | null {
    const object = formulaObject(latex, display);
    if (!object) return null;
    this.formulas.push(object);
    const n = this.formulas.length;
    return `<draw:frame draw:style-name="frInline" draw:name="Formula${n}" text:anchor-type="as-char" draw:z-index="0"><draw:object xlink:href="./Object ${n}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/><svg:desc>${escapeXml(latex)}</svg:desc></draw:frame>`;
  }

  // Blocks --------------------------------------------------------------------------------------

  private inlineContent(node: PMNode | null): string {
    let out = '';
    node?.forEach((child) => {
      out += this.inline(child);
    });
    return out;
  }

  /**
   * A textblock's content with the block changes around it: a suggested paragraph break after it
   * is an insertion region from its end to the next textblock's start (as LibreOffice writes
   * one); a block deleted before it has its text:change at its start.
   */
  private textblockContent(node: PMNode, context: BlockContext): string {
    let out = (this.plain ? '' : this.startMarks.get(node)) ?? '';
    out += this.inlineContent(node);
    const change = this.plain ? undefined : this.blockChanges.breakChangeAfter(node);
    const insertion = change?.marks.find((mark) => mark.type.name === 'insertion');
    const join = change && !insertion ? this.joinedContext(change, context) : null;
    if (change && join) {
      // A suggested join that keeps this block's text: as LibreOffice writes one, both in one
      // paragraph, the deletion region holding the two paragraphs the break made.
      const deletion = change.marks.find((mark) => mark.type.name === 'deletion') as Mark;
      this.joined.add(change.after);
      // Two list items joined: the two paragraphs as items of a list, as LibreOffice writes them.
      const paragraphs = [
        emptyParagraph(node, textStyle(node, context)),
        emptyParagraph(change.next, textStyle(change.next, join)),
      ];
      const broken =
        change.after.type.name === 'list_item'
          ? `<text:list>${paragraphs.map((p) => `<text:list-item>${p}</text:list-item>`).join('')}</text:list>`
          : paragraphs.join('');
      const id = this.region(`<text:deletion>${this.changeInfo(deletion)}${broken}</text:deletion>`);
      const joined = this.textblockContent(change.next, join);
      out += `<text:change text:change-id="${id}"/>${change.next.type.name === 'heading' ? this.bookmarked(String(change.next.attrs.id), joined) : joined}`;
    }
    if (change && insertion) {
      const id = this.region(`<text:insertion>${this.changeInfo(insertion)}</text:insertion>`);
      out += `<text:change-start text:change-id="${id}"/>`;
      this.startMarks.set(
        change.next,
        `<text:change-end text:change-id="${id}"/>${this.startMarks.get(change.next) ?? ''}`,
      );
    }
    return out;
  }

  /**
   * Where the textblock a suggested join brings into the one before stands, when it can be written
   * inside that one's paragraph: it is the next sibling itself, or a list item holding only it.
   * Null otherwise (a join of list items that keeps their paragraphs, an item holding more): those
   * joins are not written.
   */
  private joinedContext(change: BreakChange, context: BlockContext): BlockContext | null {
    const { after, next } = change;
    if (!change.marks.some((mark) => mark.type.name === 'deletion')) return null;
    if (after === next) return context;
    if (after.type.name === 'list_item' && after.childCount === 1 && after.firstChild === next)
      return { ...context, inList: true };
    return null;
  }

  /**
   * A block deleted whole with the paragraph break after it (a list item or paragraph whose text
   * is all suggested deleted): as LibreOffice writes it, left out of the text and kept in its
   * deletion region, with a paragraph after it that the following one continues; '' for others.
   */
  private deletedBlock(node: PMNode, write: () => string): string | null {
    const change = this.plain ? undefined : this.blockChanges.deletedBefore(node);
    const deletion = change?.marks.find((mark) => mark.type.name === 'deletion');
    if (!change || !deletion) return null;
    this.plain = true;
    let xml: string;
    try {
      xml = write();
    } finally {
      this.plain = false;
    }
    const kept =
      node.type.name === 'list_item'
        ? `<text:list><text:list-item>${xml}</text:list-item><text:list-item><text:p/></text:list-item></text:list>`
        : `${xml}<text:p/>`;
    const id = this.region(`<text:deletion>${this.changeInfo(deletion)}${kept}</text:deletion>`);
    this.startMarks.set(
      change.next,
      `<text:change text:change-id="${id}"/>${this.startMarks.get(change.next) ?? ''}`,
    );
    return '';
  }

  private bookmarked(id: string, content: string): string {
    if (!id) return content;
    const name = bookmarkName(id);
    return `<text:bookmark-start text:name="${name}"/>${content}<text:bookmark-end text:name="${name}"/>`;
  }

  /** A table of contents LibreOffice updates, filled with the headings so that it reads before that. */
  private tableOfContents(title: string): string {
    const entries = tocEntries(this.prepared.body)
      .map((entry) => `<text:p text:style-name="Contents_20_${entry.level}">${odfText(entry.text)}</text:p>`)
      .join('');
    return `<text:table-of-content text:name="${escapeXml(`Contents ${++this.tocs}`)}" text:protected="true"><text:table-of-content-source text:outline-level="3"><text:index-title-template text:style-name="Contents_20_Heading">${escapeXml(title)}</text:index-title-template></text:table-of-content-source><text:index-body><text:index-title text:name="${escapeXml(`Contents ${this.tocs} title`)}"><text:p text:style-name="Contents_20_Heading">${odfText(title)}</text:p></text:index-title>${entries}</text:index-body></text:table-of-content>`;
  }

  blocks(parent: PMNode, context: BlockContext = {}): string {
    if (parent.type.name === 'toc_part' || parent.type.name === 'separator_part')
      return this.block(parent, context);
    this.blockChanges.scan(parent);
    let out = '';
    parent.forEach((node) => {
      if (this.joined.has(node)) return;
      out += this.deletedBlock(node, () => this.block(node, context)) ?? this.block(node, context);
    });
    return out;
  }

  /** Writes `node` with the changes recorded on it as a whole inherited by its content. */
  private block(node: PMNode, context: BlockContext): string {
    return this.withChanges(node, () => this.blockContent(node, context));
  }

  private blockContent(node: PMNode, context: BlockContext): string {
    switch (node.type.name) {
      case 'paragraph':
        return `<text:p text:style-name="${textStyle(node, context)}">${this.textblockContent(node, context)}</text:p>`;
      case 'heading':
        // Numbered by the outline (styles.xml), as the document's heading numbering says.
        return `<text:h text:style-name="${textStyle(node, context)}" text:outline-level="${Number(node.attrs.level)}">${this.bookmarked(String(node.attrs.id), this.textblockContent(node, context))}</text:h>`;
      case 'blockquote':
        return this.blocks(node, { ...context, paragraphStyle: 'Quotations' });
      case 'code_block':
        return (node.textContent || '')
          .split('\n')
          .map((line) => `<text:p text:style-name="Preformatted_20_Text">${odfText(line)}</text:p>`)
          .join('');
      case 'horizontal_rule':
      case 'separator_part':
        return '<text:p text:style-name="Horizontal_20_Line"/>';
      case 'toc_part':
        return this.tableOfContents(String(node.attrs.title));
      case 'bullet_list':
      case 'ordered_list':
        return this.list(node, context);
      case 'table':
        return this.table(node);
      case 'figure':
        return this.figure(node);
      default:
        return '';
    }
  }

  /** A list; a nested one takes the level styles of the outermost list's style. */
  private list(node: PMNode, context: BlockContext): string {
    const style = context.inList ? '' : ` text:style-name="${this.listStyle(node)}"`;
    const start = Number(node.attrs.start ?? 1);
    this.blockChanges.scan(node);
    let items = '';
    node.forEach((item, _offset, index) => {
      if (this.joined.has(item)) return;
      const startValue = node.type.name === 'ordered_list' && index === 0 && start !== 1;
      const write = () => this.withChanges(item, () => this.blocks(item, { ...context, inList: true }));
      const deleted = this.deletedBlock(item, write);
      if (deleted === null)
        items += `<text:list-item${startValue ? ` text:start-value="${start}"` : ''}>${write()}</text:list-item>`;
    });
    return `<text:list${style}>${items}</text:list>`;
  }

  /**
   * A caption: the bookmark (the target of bookmark references) over its label and its
   * text:sequence number ("Figure {Figure}"), then the text.
   */
  private caption(node: PMNode, text: string): string {
    const line = captionText(this.prepared, node, text);
    if (!line) return '';
    const target = this.prepared.numbers.get(node);
    const label = target && target.kind !== 'equation' ? target.label : '';
    if (!target || !label?.endsWith(target.number)) {
      const content = this.tracked(odfText(line), this.inherited);
      return `<text:p text:style-name="Caption">${this.bookmarked(String(node.attrs.id), content)}</text:p>`;
    }
    const numbered = `${odfText(label.slice(0, label.length - target.number.length))}${this.sequence(target.category, target.number)}`;
    const content = this.tracked(
      `${this.bookmarked(String(node.attrs.id), numbered)}${odfText(line.slice(label.length))}`,
      this.inherited,
    );
    return `<text:p text:style-name="Caption">${content}</text:p>`;
  }

  /** A number of a sequence (Figure, Table, Equation): LibreOffice counts it on. */
  private sequence(category: string, number: string): string {
    const name = sequenceName(category);
    return `<text:sequence text:name="${name}" text:formula="ooow:${name}+1" style:num-format="1">${escapeXml(number)}</text:sequence>`;
  }

  private table(node: PMNode): string {
    const map = TableMap.get(node);
    const name = `Table${this.tableStyles.length + 1}`;
    const width = this.page.width - 2 * this.page.margin;
    this.tableStyles.push(
      `<style:style style:name="${name}" style:family="table"><style:table-properties style:width="${width.toFixed(2)}cm" table:align="margins"/></style:style>`,
    );
    if (this.tableStyles.length === 1)
      this.tableStyles.push(
        '<style:style style:name="TableCell" style:family="table-cell"><style:table-cell-properties fo:padding="0.1cm" fo:border="0.5pt solid #000000"/></style:style>',
      );
    // Header cells are Table Heading paragraphs; the leading header rows are table:table-header-rows,
    // repeated on each page.
    const headerRows = headerRowCount(node, map);
    // A suggested row or cell (a column): its text tracked, as LibreOffice keeps such rows in ODT.
    const outer = this.inherited;
    let rows = '';
    for (let row = 0; row < map.height; row++) {
      const rowChanges = [...withInherited(this.blockChanges.whole(node.child(row)), outer)];
      let cells = '';
      for (const { cell, span, rowspan, starts } of rowCells(node, map, row)) {
        if (starts) {
          const role: TableCellRole =
            cell.type.name === 'table_header' ? 'Table_20_Heading' : 'Table_20_Contents';
          const spans = `${span > 1 ? ` table:number-columns-spanned="${span}"` : ''}${rowspan > 1 ? ` table:number-rows-spanned="${rowspan}"` : ''}`;
          this.inherited = [...withInherited(this.blockChanges.whole(cell), rowChanges)];
          const content =
            this.blocks(cell, { paragraphStyle: role }) || `<text:p text:style-name="${role}"/>`;
          this.inherited = outer;
          cells += `<table:table-cell table:style-name="TableCell" office:value-type="string"${spans}>${content}</table:table-cell>`;
          cells += '<table:covered-table-cell/>'.repeat(span - 1);
        } else cells += '<table:covered-table-cell/>'.repeat(span);
      }
      rows += `<table:table-row>${cells}</table:table-row>`;
      if (row === headerRows - 1) rows = `<table:table-header-rows>${rows}</table:table-header-rows>`;
    }
    const caption = this.caption(node, String(node.attrs.caption));
    return `${caption}<table:table table:name="${name}" table:style-name="${name}"><table:table-column table:number-columns-repeated="${map.width}"/>${rows}</table:table>`;
  }

  private figure(node: PMNode): string {
    const caption = String(node.attrs.caption);
    if (isEquationFigure(node)) {
      const latex = String(node.attrs.equation);
      const target = this.prepared.numbers.get(node);
      const number = target
        ? `<text:tab/>${this.bookmarked(String(node.attrs.id), `(${this.sequence('equation', target.number)})`)}`
        : '';
      const formula = this.formula(latex, true) ?? odfText(latex);
      return `<text:p text:style-name="Equation">${target ? formula + number : this.bookmarked(String(node.attrs.id), formula)}</text:p>${caption ? this.caption(node, caption) : ''}`;
    }
    const file = this.images.get(String(node.attrs.src));
    let picture = '';
    if (file) {
      const size = imageSize(file.image) ?? { width: 1, height: 1 };
      const textWidth = this.page.width - 2 * this.page.margin;
      const width = (textWidth * Number(node.attrs.width || 100)) / 100;
      const height = (width * size.height) / size.width;
      this.frame++;
      picture = `<draw:frame draw:style-name="frFigure" draw:name="Figure${this.frame}" text:anchor-type="as-char" svg:width="${width.toFixed(3)}cm" svg:height="${height.toFixed(3)}cm" draw:z-index="0"><draw:image xlink:href="Pictures/${file.name}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/><svg:desc>${escapeXml(caption)}</svg:desc></draw:frame>`;
    }
    const align = node.attrs.aligned === 'left' ? 'start' : node.attrs.aligned === 'right' ? 'end' : '';
    const style = align ? this.alignedStyle('Figure', align) : 'Figure';
    return `<text:p text:style-name="${style}">${picture}</text:p>${this.caption(node, caption)}`;
  }

  // The whole package ---------------------------------------------------------------------------

  front(): string {
    const p = this.prepared;
    let out = `<text:p text:style-name="Title">${this.inlineContent(p.doc.firstChild)}</text:p>`;
    if (p.subtitle) out += `<text:p text:style-name="Subtitle">${odfText(p.subtitle)}</text:p>`;
    for (const person of p.authors) {
      const line = [authorName(person), person.institution].filter(Boolean).join(', ');
      out += `<text:p text:style-name="Author">${odfText(line)}</text:p>`;
    }
    if (p.abstract) {
      out += `<text:p text:style-name="${styleName('Abstract Title')}">${odfText(String(p.abstract.attrs.title || 'Abstract'))}</text:p>`;
      out += this.blocks(p.abstract, { paragraphStyle: 'Abstract' });
    }
    if (p.keywords.length)
      out += `<text:p text:style-name="Keywords">${odfText(p.keywords.join(', '))}</text:p>`;
    return out;
  }

  bibliography(): string {
    const p = this.prepared;
    if (!p.bibliography.length) return '';
    const title = documentLabel('bibliography', p.language);
    // Paragraphs of the Bibliography style (the import knows the drawn list by it; pandoc reads
    // no text:section, so the list is not one).
    return `<text:h text:style-name="Heading_20_1" text:outline-level="1" text:is-list-header="true">${odfText(title)}</text:h>${p.bibliography
      .map((entry) => {
        const parts = splitLabel(entry);
        const runs = parts
          ? `${this.styledRuns(parts.label, [])}<text:tab/>${this.styledRuns(parts.text, [])}`
          : this.styledRuns(entry, []);
        return `<text:p text:style-name="${parts ? 'BibLabelled' : 'BibEntry'}">${runs}</text:p>`;
      })
      .join('')}`;
  }

  files(body: string): Record<string, Uint8Array> {
    const p = this.prepared;
    const encoder = new TextEncoder();
    const tracked = this.changes.length
      ? `<text:tracked-changes text:track-changes="false">${this.changes.join('')}</text:tracked-changes>`
      : '';
    const content = `${ODF_XML_HEAD}<office:document-content ${ODF_NS} office:version="1.3">${FONT_FACES}<office:automatic-styles>${this.automaticStyles()}</office:automatic-styles><office:body><office:text>${tracked}${SEQUENCE_DECLS}${body}</office:text></office:body></office:document-content>`;
    const now = isoDate(Date.now());
    const creators = p.authors.map(authorName).filter(Boolean);
    // Zotero's preferences, as in the DOCX: they say whether the notes hold the citations.
    const zoteroMeta = p.citationStyle
      ? zoteroPrefPieces(zoteroPrefs(p.citationStyle, p.language, p.noteStyle))
          .map(
            ([name, value]) =>
              `<meta:user-defined meta:name="${name}">${escapeXml(value)}</meta:user-defined>`,
          )
          .join('')
      : '';
    const meta = `${ODF_XML_HEAD}<office:document-meta ${ODF_NS} office:version="1.3"><office:meta><meta:generator>Scriptorium</meta:generator><dc:title>${escapeXml(p.title)}</dc:title>${p.subtitle ? `<dc:subject>${escapeXml(p.subtitle)}</dc:subject>` : ''}${p.abstract ? `<dc:description>${escapeXml(p.abstract.textContent)}</dc:description>` : ''}${p.keywords.map((keyword) => `<meta:keyword>${escapeXml(keyword)}</meta:keyword>`).join('')}${creators.length ? `<meta:initial-creator>${escapeXml(creators.join('; '))}</meta:initial-creator><dc:creator>${escapeXml(creators.join('; '))}</dc:creator>` : ''}<dc:language>${escapeXml(p.language)}</dc:language><meta:creation-date>${now}</meta:creation-date><dc:date>${now}</dc:date>${!p.book && headingNumbering(p.doc) === 'chapter' ? `<meta:user-defined meta:name="${HEADING_NUMBERING_PROPERTY}">chapter</meta:user-defined>` : ''}${zoteroMeta}</office:meta></office:document-meta>`;

    // A book numbers no headings of its chapters (as before); a document as its setting says.
    const ourStyles = referenceOdfStyles(
      p.language,
      this.page,
      p.book ? 'none' : headingNumbering(p.doc),
      houseStyle(p.doc),
    );
    // The template's reference document: its styles and page over ours (reference-merge.ts).
    const reference = p.reference?.odt ? readOdtReference(p.reference.odt, ourStyles) : null;
    const styles = reference?.styles ?? ourStyles;
    const entries: [string, string][] = [
      ['content.xml', 'text/xml'],
      ['styles.xml', 'text/xml'],
      ['meta.xml', 'text/xml'],
    ];
    const files: Record<string, Uint8Array> = {
      'content.xml': encoder.encode(content),
      'styles.xml': encoder.encode(styles),
      'meta.xml': encoder.encode(meta),
    };
    this.formulas.forEach((formula, index) => {
      const folder = `Object ${index + 1}`;
      entries.push([`${folder}/`, 'application/vnd.oasis.opendocument.formula']);
      entries.push([`${folder}/content.xml`, 'text/xml']);
      files[`${folder}/content.xml`] = encoder.encode(formula);
    });
    for (const [path, data] of Object.entries(reference?.pictures ?? {})) {
      entries.push([path, pictureType(path)]);
      files[path] = data;
    }
    for (const file of this.images.values()) {
      entries.push([`Pictures/${file.name}`, file.image.type]);
      files[`Pictures/${file.name}`] = file.image.data;
    }
    const manifest = `${ODF_XML_HEAD}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="${ODT_MIME}"/>${entries
      .map(
        ([path, type]) =>
          `<manifest:file-entry manifest:full-path="${escapeXml(path)}" manifest:media-type="${escapeXml(type)}"/>`,
      )
      .join('')}</manifest:manifest>`;
    files['META-INF/manifest.xml'] = encoder.encode(manifest);
    return files;
  }
}

function pictureType(path: string): string {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return extension === 'svg' ? 'image/svg+xml' : extension === 'jpg' ? 'image/jpeg' : `image/${extension}`;
}

export function exportOdt(prepared: PreparedDocument): Uint8Array {
  const writer = new OdtWriter(prepared);
  let body = writer.front();
  for (const part of prepared.body) body += writer.blocks(part);
  body += writer.bibliography();
  const files = writer.files(body);
  // The package's first entry is its MIME type, stored uncompressed, so tools can sniff it.
  return zipSync(
    {
      mimetype: [new TextEncoder().encode(ODT_MIME), { level: 0 }],
      ...files,
    },
    { level: 6 },
  );
}

/** Centimetres of one em of the bibliography's text (12 pt). */
const EM_CM = 0.423;

/**
 * The bibliography's paragraph styles for the style's layout (automatic, on Bibliography):
 * BibLabelled for entries with a label column (a tab stop, the text hanging at it; "margin": the
 * label left of the text's edge), BibEntry for the others (a hanging indent or none); line
 * spacing as a percentage, entry spacing as space below (a line of 12 pt each).
 */
export function odtEntryStyles(layout: BibliographyLayout): string {
  const spacing = `fo:line-height="${Math.round(layout.lineSpacing * 100)}%" fo:margin-bottom="${(layout.entrySpacing * EM_CM).toFixed(3)}cm"`;
  const width = labelWidthEm(layout) * EM_CM;
  const left = layout.secondFieldAlign === 'margin' ? 0 : width;
  const hanging = layout.hangingIndent ? 2 * EM_CM : 0;
  const style = (name: string, props: string, children = '') =>
    `<style:style style:name="${name}" style:family="paragraph" style:parent-style-name="Bibliography"><style:paragraph-properties ${props} ${spacing}>${children}</style:paragraph-properties></style:style>`;
  return (
    style(
      'BibLabelled',
      `fo:margin-left="${left.toFixed(3)}cm" fo:text-indent="${(-width).toFixed(3)}cm"`,
      `<style:tab-stops><style:tab-stop style:position="0cm"/></style:tab-stops>`,
    ) +
    style('BibEntry', `fo:margin-left="${hanging.toFixed(3)}cm" fo:text-indent="${(-hanging).toFixed(3)}cm"`)
  );
}
