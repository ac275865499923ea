import type { Unzipped } from 'fflate';
import { isSafeHref } from '../editor/schema';
import { citationsInNotes, EQUATIONS_PROPERTY, HEADING_NUMBERING_PROPERTY } from '../export/docx-fields';
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
  metafile,
  officeDocument,
  plain,
} from './office';
import { ommlToLatex } from './omml';
import { ImportRefused, ImportReport } from './problems';
import { attr, child, children, descendants, elements, parseXml, type XmlElement } from './xml';
import { text } from './zip';

/**
 * DOCX (Office Open XML) to our document: styles decide headings, title, code and quotes;
 * numbering decides lists; footnotes and endnotes become footnotes; OMML becomes LaTeX; comment
 * ranges and w:ins/w:del become our review marks; reference managers' fields become citations.
 */

interface Style {
  name: string;
  basedOn: string;
  outline: number | null;
  /** The list a paragraph of this style is in (Word's "List Number": w:numPr in the style). */
  numId: string;
  ilvl: number | null;
}

interface Relation {
  /** An outside address, or the part's path inside the package. */
  target: string;
  external: boolean;
}

const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A relationship's part path, resolved against the folder of the part it belongs to. */
function resolvePart(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = from.split('/').slice(0, -1);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

/** The relationships of a part (its _rels/<name>.rels). */
export function partRelations(files: Unzipped, part: string): Map<string, Relation & { type: string }> {
  const slash = part.lastIndexOf('/');
  const relsPath = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  const out = new Map<string, Relation & { type: string }>();
  const source = text(files, relsPath);
  if (source === null) return out;
  for (const rel of elements(parseXml(source))) {
    const external = attr(rel, 'TargetMode') === 'External';
    const target = attr(rel, 'Target');
    out.set(attr(rel, 'Id'), {
      target: external ? target : resolvePart(part, target),
      external,
      type: attr(rel, 'Type'),
    });
  }
  return out;
}

/** The main part of a package: the officeDocument relationship of _rels/.rels (word/document2.xml...). */
export function mainPart(files: Unzipped): string | null {
  for (const rel of partRelations(files, '').values())
    if (rel.type === `${RELATIONSHIPS}/officeDocument` && !rel.external && files[rel.target])
      return rel.target;
  return files['word/document.xml'] ? 'word/document.xml' : null;
}

interface Field {
  instruction: string;
  phase: 'code' | 'result';
  /**
   * What the result runs are: kept as text, dropped (citation, bibliography), a link, or the
   * text of a cross-reference (REF, PAGEREF, HYPERLINK \l) to `href`, the bookmark.
   */
  mode: 'keep' | 'drop' | 'link' | 'reference';
  /** A cross-reference's result text. */
  text: string;
  /** The marks of the runs of a cross-reference's result. */
  marks: JsonMark[];
  href: string;
  /** A PAGEREF: the target's page (a cross-reference's page form). */
  page?: boolean;
  /** The field's w:fldData (base64; EndNote keeps its citations there). */
  data: string;
  /** Set once the field's citation was emitted. */
  done: boolean;
  /** A TOC field: its result (the entries) is our contents part's, drawn anew. */
  contents?: boolean;
}

/** The children of that name, also those inside content controls (w:sdt/w:sdtContent). */
function unwrapped(node: XmlElement, name: string): XmlElement[] {
  return elements(node).flatMap((el) => {
    if (el.nodeName === name) return [el];
    const content = el.nodeName === 'w:sdt' ? child(el, 'w:sdtContent') : null;
    return content ? unwrapped(content, name) : [];
  });
}

function on(prop: XmlElement | null): boolean {
  if (!prop) return false;
  const value = attr(prop, 'w:val');
  return !['0', 'false', 'off', 'none'].includes(value);
}

class DocxReader {
  readonly report = new ImportReport();
  readonly citations = new CitationCollector(this.report);
  private readonly styles = new Map<string, Style>();
  /** The relationships of the part being read (the main part, the notes, the comments). */
  private relations = new Map<string, Relation>();
  private readonly partRelations = new Map<string, Map<string, Relation>>();
  /** Blocks of text boxes met in the paragraph being read, per blocks() being read: they follow it. */
  private readonly floating: Block[][] = [];
  private readonly numbering = new Map<string, Map<number, boolean>>();
  /** Per list instance, the number format (w:numFmt) of each level. */
  private readonly numberFormats = new Map<string, Map<number, string>>();
  private readonly notes = new Map<string, XmlElement>();
  private readonly endnotes = new Map<string, XmlElement>();
  private readonly commentIds = new Map<string, number>();
  readonly threads: ImportedThread[] = [];
  readonly images: ImportedImage[] = [];
  private readonly imageKeys = new Map<string, string>();
  /** Open comment ranges and fields carry across runs and paragraphs. */
  private readonly openComments = new Set<number>();
  private readonly fields: Field[] = [];
  title = '';
  /** The front matter found by the paragraph styles (our own and Word's: Subtitle, Author, Abstract, Keywords). */
  readonly front: Required<FrontMatter> = { subtitle: '', authors: [], abstract: [], keywords: [] };
  /** Bookmark names that cross-references point to. */
  readonly referenced = new Set<string>();
  /** Set when a reference manager's bibliography field begins (its heading is the bibliography's). */
  private bibliographyBegun = false;
  /** TOC fields begun so far (a paragraph in which one begins is the table of contents). */
  private contentsBegun = 0;
  /** The last "TOC Heading" paragraph read: the title of the table of contents after it. */
  private contentsTitle: { block: Block; text: string } | null = null;
  /** Per heading read, the number format of its level-1 numbering ('' when it is not numbered). */
  readonly headingFormats: string[] = [];

  constructor(
    private readonly files: Unzipped,
    private readonly main: string,
  ) {
    this.readStyles();
    this.relations = this.relationsOf(main);
    this.readNumbering();
    this.readNotes(this.partOf('footnotes', 'word/footnotes.xml'), 'w:footnote', this.notes);
    this.readNotes(this.partOf('endnotes', 'word/endnotes.xml'), 'w:endnote', this.endnotes);
    this.inPart(this.partOf('comments', 'word/comments.xml'), () => this.readComments());
    this.readDocumentProperties();
  }

  /** Our own export's LaTeX of its equations, by the text of their OMML (docProps/custom.xml). */
  private readonly equationSources = new Map<string, string>();

  /** The heading numbering our export kept in a custom property ("chapter"). */
  numberingProperty = '';

  /** Whether the notes hold the citations, as Zotero's preferences say (custom properties). */
  citationNotes: boolean | undefined;

  /** docProps: equation sources, heading numbering, whether notes hold citations. */
  private readDocumentProperties(): void {
    const root = this.xml('docProps/custom.xml');
    const application = this.xml('docProps/app.xml');
    this.citationNotes = citationsInNotes(
      (root ? children(root, 'property') : []).map((property) => ({
        name: attr(property, 'name'),
        value: property.textContent ?? '',
      })),
      Boolean(application) &&
        descendants(application as XmlElement, 'Application')[0]?.textContent === 'Scriptorium',
    );
    if (!root) return;
    for (const property of children(root, 'property')) {
      if (attr(property, 'name') === HEADING_NUMBERING_PROPERTY)
        this.numberingProperty = (property.textContent ?? '').trim();
      if (attr(property, 'name') !== EQUATIONS_PROPERTY) continue;
      try {
        const pairs: unknown = JSON.parse(property.textContent ?? '');
        if (!Array.isArray(pairs)) return;
        for (const pair of pairs)
          if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string')
            this.equationSources.set(pair[0], pair[1]);
      } catch {
        // A damaged property: the equations are read from their OMML.
      }
    }
  }

  private xml(name: string): XmlElement | null {
    const source = text(this.files, name);
    return source === null ? null : parseXml(source);
  }

  private readStyles(): void {
    const root = this.xml('word/styles.xml');
    if (!root) return;
    for (const style of children(root, 'w:style')) {
      const outline = descendants(style, 'w:outlineLvl')[0];
      const numPr = descendants(child(style, 'w:pPr') ?? style, 'w:numPr')[0] ?? null;
      const ilvl = numPr ? child(numPr, 'w:ilvl') : null;
      this.styles.set(attr(style, 'w:styleId'), {
        name: attr(child(style, 'w:name'), 'w:val').toLowerCase(),
        basedOn: attr(child(style, 'w:basedOn'), 'w:val'),
        outline: outline ? Number(attr(outline, 'w:val')) : null,
        numId: attr(numPr ? child(numPr, 'w:numId') : null, 'w:val'),
        ilvl: ilvl ? Number(attr(ilvl, 'w:val')) || 0 : null,
      });
    }
  }

  private relationsOf(part: string): Map<string, Relation> {
    let found = this.partRelations.get(part);
    if (!found) {
      found = partRelations(this.files, part);
      this.partRelations.set(part, found);
    }
    return found;
  }

  /** The main part's related part of that type (footnotes, endnotes, comments...). */
  private partOf(type: string, fallback: string): string {
    for (const rel of partRelations(this.files, this.main).values())
      if (rel.type === `${RELATIONSHIPS}/${type}` && !rel.external) return rel.target;
    return fallback;
  }

  /** Reads inside another part: its links and images resolve against its own relationships. */
  private inPart<T>(part: string, read: () => T): T {
    const outer = this.relations;
    this.relations = this.relationsOf(part);
    try {
      return read();
    } finally {
      this.relations = outer;
    }
  }

  /** The part each note came from. */
  private readonly noteParts = new Map<XmlElement, string>();

  private readNumbering(): void {
    const root = this.xml('word/numbering.xml');
    if (!root) return;
    const abstracts = new Map<string, Map<number, boolean>>();
    const formats = new Map<string, Map<number, string>>();
    for (const abstract of children(root, 'w:abstractNum')) {
      const levels = new Map<number, boolean>();
      const levelFormats = new Map<number, string>();
      for (const level of children(abstract, 'w:lvl')) {
        const format = attr(child(level, 'w:numFmt'), 'w:val');
        levels.set(Number(attr(level, 'w:ilvl')), format !== 'bullet' && format !== 'none' && format !== '');
        levelFormats.set(Number(attr(level, 'w:ilvl')), format);
      }
      abstracts.set(attr(abstract, 'w:abstractNumId'), levels);
      formats.set(attr(abstract, 'w:abstractNumId'), levelFormats);
    }
    for (const num of children(root, 'w:num')) {
      const abstractId = attr(child(num, 'w:abstractNumId'), 'w:val');
      const levels = abstracts.get(abstractId);
      if (levels) this.numbering.set(attr(num, 'w:numId'), levels);
      const levelFormats = formats.get(abstractId);
      if (levelFormats) this.numberFormats.set(attr(num, 'w:numId'), levelFormats);
    }
  }

  private readNotes(name: string, tag: string, into: Map<string, XmlElement>): void {
    const root = this.xml(name);
    if (!root) return;
    for (const note of children(root, tag)) {
      const type = attr(note, 'w:type');
      if (type === '' || type === 'normal') {
        into.set(attr(note, 'w:id'), note);
        this.noteParts.set(note, name);
      }
    }
  }

  /**
   * Comments and their threads: word/commentsExtended.xml names, by a comment's last paragraph id,
   * the comment it answers (w15:paraIdParent) and whether it is done. An answer joins its parent's
   * thread (its own range markers are left alone: the thread's mark follows the first comment's
   * range); a thread is resolved when its first comment is done.
   */
  private readComments(): void {
    const root = this.xml('word/comments.xml');
    if (!root) return;
    const extended = new Map<string, { parent: string; done: boolean }>();
    const extendedRoot = this.xml('word/commentsExtended.xml');
    for (const entry of extendedRoot ? children(extendedRoot, 'w15:commentEx') : [])
      extended.set(attr(entry, 'w15:paraId').toUpperCase(), {
        parent: attr(entry, 'w15:paraIdParent').toUpperCase(),
        done: attr(entry, 'w15:done') === '1' || attr(entry, 'w15:done') === 'true',
      });
    const threadOfParagraph = new Map<string, ImportedThread>();
    for (const comment of children(root, 'w:comment')) {
      const paragraphs = children(comment, 'w:p');
      const text = paragraphs
        .map((p) =>
          descendants(p, 'w:t')
            .map((t) => t.textContent ?? '')
            .join(''),
        )
        .join('\n')
        .trim();
      const entry = { author: attr(comment, 'w:author'), date: dateOf(attr(comment, 'w:date')), text };
      const paraId = attr(paragraphs[paragraphs.length - 1] ?? null, 'w14:paraId').toUpperCase();
      const info = paraId ? extended.get(paraId) : undefined;
      const parent = info?.parent ? threadOfParagraph.get(info.parent) : undefined;
      if (parent) {
        parent.comments.push(entry);
        threadOfParagraph.set(paraId, parent);
        continue;
      }
      const id = addCommentThread(this, entry);
      const thread = this.threads[this.threads.length - 1];
      thread.resolved = info?.done ?? false;
      if (paraId) threadOfParagraph.set(paraId, thread);
      this.commentIds.set(attr(comment, 'w:id'), id);
    }
  }

  /** The style chain's heading level, or a role. */
  private paragraphRole(styleId: string): {
    heading?: number;
    title?: boolean;
    code?: boolean;
    quote?: boolean;
    caption?: boolean;
    front?: FrontRole;
    contentsTitle?: boolean;
  } {
    for (let id = styleId, depth = 0; id && depth < 10; depth++) {
      const style = this.styles.get(id);
      const name = style?.name ?? id.toLowerCase();
      // Word's "TOC Heading" is based on "heading 1": it titles the table of contents, no section.
      if (name === 'toc heading') return { contentsTitle: true };
      const heading = /^heading\s*(\d)$/.exec(name);
      if (heading) return { heading: Number(heading[1]) };
      if (name === 'title') return { title: true };
      if (name === 'caption') return { caption: true };
      if (name === 'subtitle') return { front: 'subtitle' };
      if (name === 'author') return { front: 'author' };
      if (name === 'abstract title') return { front: 'abstractTitle' };
      if (name === 'abstract') return { front: 'abstract' };
      if (name === 'keywords') return { front: 'keywords' };
      if (/source code|html preformatted|^code$/.test(name)) return { code: true };
      if (/^(block text|quote|intense quote|quotations)$/.test(name)) return { quote: true };
      if (style?.outline !== null && style?.outline !== undefined && style.outline < 9)
        return { heading: style.outline + 1 };
      id = style?.basedOn ?? '';
    }
    return {};
  }

  /** The list of a paragraph's style chain (w:numPr in the style), if any. */
  private styleNumbering(styleId: string): { numId: string; ilvl: number } | null {
    for (let id = styleId, depth = 0; id && depth < 10; depth++) {
      const style = this.styles.get(id);
      if (!style) return null;
      if (style.numId) return { numId: style.numId, ilvl: style.ilvl ?? 0 };
      id = style.basedOn;
    }
    return null;
  }

  /** An image part, or the name of a metafile that stands in its place. */
  private image(relationId: string): ImportedImage | string | null {
    const rel = this.relations.get(relationId);
    if (!rel) return null;
    if (rel.external) {
      this.report.note('external_link', rel.target);
      return null;
    }
    const path = rel.target;
    const name = path.split('/').pop() ?? path;
    const kind = this.files[path] ? metafile(this.files[path], path) : null;
    if (kind) {
      // A browser shows no Windows metafile, and no export could use it: a placeholder names it.
      this.report.note('unsupported_element', `${kind} ${name}`);
      return name;
    }
    const known = this.imageKeys.get(path);
    if (known) return this.images.find((image) => image.key === known) ?? null;
    const bytes = this.files[path];
    if (!bytes) {
      this.report.note('image_unreadable', rel.target);
      return null;
    }
    const image = { key: String(this.images.length + 1), name, bytes };
    this.images.push(image);
    this.imageKeys.set(path, image.key);
    return image;
  }

  /** The review and link marks every run inside the current context gets. */
  private contextMarks(extra: JsonMark[]): JsonMark[] {
    const marks = [...extra];
    for (const id of this.openComments) marks.push({ type: 'comment', attrs: { id } });
    const link = this.fields.find((field) => field.mode === 'link' && field.phase === 'result');
    if (link) marks.push({ type: 'link', attrs: { href: link.href, title: '' } });
    return marks;
  }

  private runMarks(run: XmlElement): JsonMark[] {
    const props = child(run, 'w:rPr');
    if (!props) return [];
    const marks: JsonMark[] = [];
    if (on(child(props, 'w:i')) || on(child(props, 'w:iCs'))) marks.push({ type: 'em' });
    if (on(child(props, 'w:b'))) marks.push({ type: 'strong' });
    const underline = child(props, 'w:u');
    if (underline && attr(underline, 'w:val') !== 'none') marks.push({ type: 'underline' });
    const align = attr(child(props, 'w:vertAlign'), 'w:val');
    if (align === 'superscript') marks.push({ type: 'sup' });
    if (align === 'subscript') marks.push({ type: 'sub' });
    if (on(child(props, 'w:smallCaps'))) marks.push({ type: 'smallcaps' });
    const style = this.styles.get(attr(child(props, 'w:rStyle'), 'w:val'))?.name ?? '';
    if (/verbatim|code/.test(style)) marks.push({ type: 'code' });
    return marks;
  }

  private inContents(): boolean {
    return this.fields.some((field) => field.contents);
  }

  private inField(): boolean {
    return this.fields.some((field) => field.phase === 'code' || field.mode === 'drop');
  }

  /** A field's instruction is complete: decide what its result is (`marks`: its run's). */
  private resolveField(field: Field, out: Inline[], marks: JsonMark[]): void {
    if (field.done) return;
    field.done = true;
    const instruction = field.instruction.trim();
    // The fields of a table of contents' entries (PAGEREF, HYPERLINK) are drawn anew with it.
    if (this.inContents()) return;
    if (/^TOC\b/.test(instruction)) {
      field.mode = 'drop';
      field.contents = true;
      this.contentsBegun++;
      return;
    }
    if (/^ADDIN\s+EN\.CITE\.DATA\b/.test(instruction)) {
      // EndNote's data field, nested in the code of its EN.CITE field: its data is the citation's.
      const outer = this.fields[this.fields.indexOf(field) - 1];
      if (outer && !outer.data) outer.data = field.data;
      return;
    }
    const references = this.citations.fromField(instruction, field.data);
    if (references) {
      field.mode = 'drop';
      out.push({
        kind: 'citation',
        references,
        marks: marks.filter((mark) => mark.type !== 'link'),
        format: this.citations.lastFormat,
        ...(this.citations.lastAuthor ? { author: this.citations.lastAuthor } : {}),
      });
      return;
    }
    if (/^ADDIN\s+(ZOTERO_BIBL|Mendeley Bibliography|EN\.REFLIST|CitaviBibliography)/i.test(instruction)) {
      // The rendered bibliography: ours is drawn from the citations.
      field.mode = 'drop';
      this.bibliographyBegun = true;
      return;
    }
    const reference =
      /^(?:REF|PAGEREF)\s+"?([^\s"\\]+)"?/.exec(instruction) ??
      /^HYPERLINK\s+(?:\\[a-km-z]\s+)*\\l\s+"([^"]+)"/.exec(instruction);
    if (reference && !/^HYPERLINK\s+"/.test(instruction)) {
      // A cross-reference to a bookmark: its result is the text it shows until the target is known.
      field.mode = 'reference';
      field.href = reference[1];
      field.page = /^PAGEREF\b/.test(instruction);
      this.referenced.add(reference[1]);
      return;
    }
    const sequence = /^SEQ\s+([^\s\\]+)/.exec(instruction);
    if (sequence) {
      out.push({ kind: 'sequence', name: sequence[1] });
      return;
    }
    if (/^ADDIN\s+(ZOTERO|CSL_CITATION|EN\.CITE|Citavi)/i.test(instruction)) {
      // A citation we could not read: its text stays.
      return;
    }
    const hyperlink = /^HYPERLINK\s+"([^"]*)"/.exec(instruction);
    if (hyperlink) {
      // A fragment (\l "anchor") after the address is part of the link.
      const fragment = /\\l\s+"([^"]+)"/.exec(instruction)?.[1];
      const href = fragment ? `${hyperlink[1]}#${fragment}` : hyperlink[1];
      if (isSafeHref(href)) {
        field.mode = 'link';
        field.href = href;
      }
      return;
    }
    const name = instruction.split(/\s+/)[0];
    if (name && !['REF', 'PAGEREF', 'PAGE', 'NUMPAGES', 'SEQ', 'NOTEREF', 'TOC', 'DATE'].includes(name)) {
      this.report.note('field_dropped', name);
    }
  }

  /** `marks`: those of the run holding the fldChar (a field deleted as a suggestion carries it). */
  private fieldChar(node: XmlElement, out: Inline[], marks: JsonMark[]): void {
    const type = attr(node, 'w:fldCharType');
    if (type === 'begin')
      this.fields.push({
        instruction: '',
        phase: 'code',
        mode: 'keep',
        href: '',
        text: '',
        marks: [],
        data: child(node, 'w:fldData')?.textContent ?? '',
        done: false,
      });
    const field = this.fields[this.fields.length - 1];
    if (!field) return;
    if (type === 'separate') {
      this.resolveField(field, out, marks);
      field.phase = 'result';
    } else if (type === 'end') {
      this.resolveField(field, out, marks);
      this.fields.pop();
      if (field.mode === 'reference') this.pushReference(field, out);
    }
  }

  /** A cross-reference field's inline, once its result text is read. */
  private pushReference(field: Field, out: Inline[]): void {
    out.push({
      kind: 'cross_reference',
      target: field.href,
      text: field.text,
      marks: field.marks,
      ...(field.page ? { form: 'page' as const } : {}),
    });
  }

  private run(run: XmlElement, out: Inline[], review: JsonMark[]): void {
    const marks = this.contextMarks([...this.runMarks(run), ...review]);
    const reference = this.fields[this.fields.length - 1];
    if (reference?.mode === 'reference' && reference.phase === 'result' && !this.inField()) {
      // The result of a cross-reference: its text, kept for a target that is not found.
      for (const node of elements(run)) {
        if (node.nodeName === 'w:fldChar') this.fieldChar(node, out, marks);
        else if (node.nodeName === 'w:t' || node.nodeName === 'w:delText')
          reference.text += node.textContent ?? '';
      }
      if (!reference.marks.length) reference.marks = marks.filter((mark) => mark.type !== 'link');
      return;
    }
    for (const node of elements(run)) {
      const name = node.nodeName;
      if (name === 'w:fldChar') {
        this.fieldChar(node, out, marks);
        continue;
      }
      if (name === 'w:instrText' || name === 'w:delInstrText') {
        const field = this.fields[this.fields.length - 1];
        if (field && field.phase === 'code') field.instruction += node.textContent ?? '';
        continue;
      }
      if (this.inField()) continue;
      switch (name) {
        case 'w:t':
        case 'w:delText':
          out.push({ kind: 'text', text: node.textContent ?? '', marks });
          break;
        case 'w:tab':
          out.push({ kind: 'text', text: '\t', marks });
          break;
        case 'w:noBreakHyphen':
          out.push({ kind: 'text', text: '\u2011', marks });
          break;
        case 'w:br':
        case 'w:cr':
          if (attr(node, 'w:type') !== 'page') out.push({ kind: 'break' });
          break;
        case 'w:footnoteReference':
        case 'w:endnoteReference': {
          const note = (name === 'w:footnoteReference' ? this.notes : this.endnotes).get(attr(node, 'w:id'));
          if (note)
            out.push({
              kind: 'note',
              blocks: this.inPart(this.noteParts.get(note) ?? this.main, () => this.blocks(note)),
              marks: marks.filter((mark) => mark.type !== 'link'),
            });
          break;
        }
        case 'mc:AlternateContent': {
          // Word's choice (a DrawingML shape) when there is one, else its VML fallback: never both.
          const choice = child(node, 'mc:Choice') ?? child(node, 'mc:Fallback');
          if (choice) {
            const inner = node.ownerDocument.createElement('w:r');
            for (const el of elements(choice)) inner.appendChild(el.cloneNode(true));
            this.run(inner, out, review);
          }
          break;
        }
        case 'w:drawing':
        case 'w:pict':
          this.drawing(node, out, marks);
          break;
        case 'w:object':
          this.report.note('unsupported_element', 'embedded object');
          break;
        case 'w:sym':
          out.push({
            kind: 'text',
            text: String.fromCharCode(Number.parseInt(attr(node, 'w:char'), 16) || 0x25a1),
            marks,
          });
          break;
        default:
          break;
      }
    }
  }

  /**
   * A drawing: its text boxes (wps:txbx, v:textbox) become blocks after the paragraph; otherwise
   * its image, or the name of a metafile in its place.
   */
  private drawing(node: XmlElement, out: Inline[], marks: JsonMark[]): void {
    const outer = descendants(node, 'w:txbxContent').filter((box) => {
      // A text box inside another is read with it.
      for (let up = box.parentNode; up && up !== node; up = up.parentNode)
        if (up.nodeName === 'w:txbxContent') return false;
      return true;
    });
    if (outer.length) {
      const floating = this.floating[this.floating.length - 1];
      for (const box of outer) {
        const blocks = this.blocks(box);
        if (floating) floating.push(...blocks);
      }
      return;
    }
    const blip = descendants(node, 'a:blip')[0];
    const vml = descendants(node, 'v:imagedata')[0];
    const embed = blip ? attr(blip, 'r:embed') || attr(blip, 'r:link') : attr(vml ?? null, 'r:id');
    const image = embed ? this.image(embed) : null;
    const caption = attr(descendants(node, 'wp:docPr')[0] ?? null, 'descr');
    if (typeof image === 'string') out.push({ kind: 'text', text: `[${image}]`, marks });
    else if (image) out.push({ kind: 'image', key: image.key, caption });
    else if (!embed)
      this.report.note('unsupported_element', node.nodeName === 'w:pict' ? 'VML drawing' : 'drawing');
  }

  private math(node: XmlElement, out: Inline[], display: boolean): void {
    for (const math of node.nodeName === 'm:oMath' ? [node] : children(node, 'm:oMath')) {
      const shown = descendants(math, 'm:t')
        .map((t) => t.textContent ?? '')
        .join('');
      // Our own equation as it was written, unless it was edited in Word since.
      const source = this.equationSources.get(shown);
      const { latex, unknown } = source ? { latex: source, unknown: [] } : ommlToLatex(math);
      for (const name of unknown) this.report.note('equation_unconverted', name);
      if (!latex) continue;
      out.push(
        display
          ? { kind: 'display_equation', latex }
          : { kind: 'equation', latex, marks: this.contextMarks([]) },
      );
    }
  }

  /** The inline content of a paragraph (or of a container inside one). */
  private inlines(container: XmlElement, out: Inline[], review: JsonMark[]): void {
    for (const node of elements(container)) {
      switch (node.nodeName) {
        case 'w:r':
          this.run(node, out, review);
          break;
        case 'w:ins':
        case 'w:moveTo':
        case 'w:del':
        case 'w:moveFrom': {
          const type = node.nodeName === 'w:ins' || node.nodeName === 'w:moveTo' ? 'insertion' : 'deletion';
          const attrs: Record<string, unknown> = {
            user: 0,
            username: attr(node, 'w:author'),
            date: dateOf(attr(node, 'w:date')),
          };
          if (type === 'insertion') attrs.approved = false;
          this.inlines(node, out, [...review, { type, attrs }]);
          break;
        }
        case 'w:hyperlink': {
          if (this.inContents()) {
            // An entry of a table of contents: read for its fields, drawn anew.
            this.inlines(node, [], review);
            break;
          }
          const rel = this.relations.get(attr(node, 'r:id'));
          const anchor = attr(node, 'w:anchor');
          if (anchor && !rel && !anchor.startsWith('_Toc')) {
            // A link to a bookmark: a cross-reference once the bookmark is a heading's, figure's or table's.
            const linkedText: Inline[] = [];
            this.inlines(node, linkedText, review);
            const first = linkedText.find((item) => item.kind === 'text');
            this.referenced.add(anchor);
            out.push({
              kind: 'cross_reference',
              target: anchor,
              text: linkedText.map((item) => (item.kind === 'text' ? item.text : '')).join(''),
              marks: first?.kind === 'text' ? first.marks : [],
            });
            break;
          }
          // The fragment of an address is in w:anchor beside its relationship.
          const href = rel?.external ? (anchor ? `${rel.target}#${anchor}` : rel.target) : '';
          const linked: Inline[] = [];
          this.inlines(node, linked, review);
          for (const item of linked) {
            // A link inside (a HYPERLINK field in a w:hyperlink) is the one the text follows.
            if (
              item.kind === 'text' &&
              href &&
              isSafeHref(href) &&
              !item.marks.some((mark) => mark.type === 'link')
            )
              item.marks = [...item.marks, { type: 'link', attrs: { href, title: '' } }];
          }
          out.push(...linked);
          break;
        }
        case 'w:fldSimple': {
          const field: Field = {
            instruction: attr(node, 'w:instr'),
            phase: 'result',
            mode: 'keep',
            href: '',
            text: '',
            marks: [],
            data: '',
            done: false,
          };
          this.fields.push(field);
          this.resolveField(field, out, this.contextMarks(review));
          this.inlines(node, out, review);
          this.fields.pop();
          if (field.mode === 'reference') this.pushReference(field, out);
          break;
        }
        case 'w:bookmarkStart':
          out.push({ kind: 'anchor', name: attr(node, 'w:name') });
          break;
        case 'w:commentRangeStart': {
          const id = this.commentIds.get(attr(node, 'w:id'));
          if (id) this.openComments.add(id);
          break;
        }
        case 'w:commentRangeEnd': {
          const id = this.commentIds.get(attr(node, 'w:id'));
          if (id) this.openComments.delete(id);
          break;
        }
        case 'm:oMath':
          this.math(node, out, false);
          break;
        case 'm:oMathPara':
          this.math(node, out, true);
          break;
        case 'w:sdt': {
          const tag = attr(descendants(node, 'w:tag')[0] ?? null, 'w:val');
          const references = tag ? this.citations.fromContentControlTag(tag) : null;
          if (references) out.push({ kind: 'citation', references });
          else {
            const content = child(node, 'w:sdtContent');
            if (content) this.inlines(content, out, review);
          }
          break;
        }
        case 'w:smartTag':
        case 'w:customXml':
        case 'w:dir':
        case 'w:bdo':
          this.inlines(node, out, review);
          break;
        default:
          break;
      }
    }
  }

  private table(tbl: XmlElement): Block {
    const rows: Cell[][] = [];
    const rowChanges: JsonMark[][] = [];
    // Per grid column: the cell a vertical merge continues.
    const open = new Map<number, Cell>();
    for (const tr of unwrapped(tbl, 'w:tr')) {
      const header =
        on(descendants(child(tr, 'w:trPr') ?? tr, 'w:tblHeader')[0] ?? null) && !!child(tr, 'w:trPr');
      const row: Cell[] = [];
      let column = 0;
      for (const tc of unwrapped(tr, 'w:tc')) {
        const props = child(tc, 'w:tcPr');
        const span = Number(attr(props ? child(props, 'w:gridSpan') : null, 'w:val')) || 1;
        const merge = props ? child(props, 'w:vMerge') : null;
        if (merge && attr(merge, 'w:val') !== 'restart' && open.has(column)) {
          const above = open.get(column);
          if (above) above.rowspan++;
        } else {
          const cell: Cell = { blocks: this.blocks(tc), colspan: span, rowspan: 1, header };
          row.push(cell);
          if (merge) open.set(column, cell);
          else open.delete(column);
        }
        column += span;
      }
      rows.push(row);
      rowChanges.push(this.revisionsIn(child(tr, 'w:trPr')));
    }
    return { kind: 'table', rows, rowChanges };
  }

  /**
   * The suggestions recorded in a property element: on a paragraph's mark (w:pPr/w:rPr: Enter or
   * the join with the next suggested) or on a row (w:trPr: the row inserted or deleted).
   */
  private revisionsIn(props: XmlElement | null): JsonMark[] {
    return (props ? elements(props) : [])
      .filter((node) => node.nodeName === 'w:ins' || node.nodeName === 'w:del')
      .map((node) => {
        const attrs = { user: 0, username: attr(node, 'w:author'), date: dateOf(attr(node, 'w:date')) };
        return node.nodeName === 'w:ins'
          ? { type: 'insertion', attrs: { ...attrs, approved: false } }
          : { type: 'deletion', attrs };
      });
  }

  /**
   * The blocks of a body, a note, a comment or a table cell; lists are gathered by numbering.
   * `boundaries`: the suggested splits and joins of paragraphs are kept (the body's; elsewhere
   * our schema does not record them).
   */
  blocks(container: XmlElement, boundaries = false): Block[] {
    const out: Block[] = [];
    const floating: Block[] = [];
    this.floating.push(floating);
    try {
      this.readBlocks(container, boundaries, out, floating);
    } finally {
      this.floating.pop();
    }
    return out;
  }

  private readBlocks(container: XmlElement, boundaries: boolean, out: Block[], floating: Block[]): void {
    // A drop cap's letter (a frame of its own) begins the paragraph after it.
    let dropCap: Inline[] = [];
    // The change of the paragraph mark before the next paragraph (see Block's boundary).
    let before: JsonMark[] = [];
    const boundary = (props: XmlElement | null): { boundary?: JsonMark[] } => {
      const changes = before;
      before = boundaries && props ? this.revisionsIn(child(props, 'w:rPr')) : [];
      return changes.length ? { boundary: changes } : {};
    };
    // The open lists, one per level: [level, list block].
    let lists: { level: number; ordered: boolean; block: Extract<Block, { kind: 'list' }> }[] = [];
    const closeLists = () => {
      lists = [];
    };
    const visit = (node: XmlElement) => {
      if (node.nodeName === 'w:tbl') {
        closeLists();
        before = [];
        out.push(this.table(node));
        return;
      }
      if (node.nodeName === 'w:sdt') {
        // Mendeley Cite's and Citavi's rendered bibliography: ours is drawn from the citations.
        const tag = attr(descendants(node, 'w:tag')[0] ?? null, 'w:val');
        if (/^(MENDELEY_BIBLIOGRAPHY|CitaviBibliography)/.test(tag)) return;
        const content = child(node, 'w:sdtContent');
        const gallery = attr(
          descendants(child(node, 'w:sdtPr') ?? node, 'w:docPartGallery')[0] ?? null,
          'w:val',
        );
        if (/^table of contents$/i.test(gallery) && content) {
          // Word's table of contents (a content control around its title and TOC field).
          const heading = descendants(content, 'w:p').find(
            (p) => this.paragraphRole(attr(descendants(p, 'w:pStyle')[0] ?? null, 'w:val')).contentsTitle,
          );
          const title = heading
            ? descendants(heading, 'w:t')
                .map((t) => t.textContent ?? '')
                .join('')
                .trim()
            : '';
          closeLists();
          out.push({ kind: 'contents', title });
          return;
        }
        if (content) elements(content).forEach(visit);
        return;
      }
      if (node.nodeName === 'w:ins' || node.nodeName === 'w:customXml') {
        elements(node).forEach(visit);
        return;
      }
      if (node.nodeName === 'w:commentRangeStart' || node.nodeName === 'w:commentRangeEnd') {
        const id = this.commentIds.get(attr(node, 'w:id'));
        if (id && node.nodeName === 'w:commentRangeStart') this.openComments.add(id);
        else if (id) this.openComments.delete(id);
        return;
      }
      if (node.nodeName !== 'w:p') return;
      const props = child(node, 'w:pPr');
      const styleId = attr(props ? child(props, 'w:pStyle') : null, 'w:val');
      const role = this.paragraphRole(styleId);
      const dropped = this.fields.some((field) => field.mode === 'drop');
      const inlines: Inline[] = dropCap;
      dropCap = [];
      const bibliographyBefore = this.bibliographyBegun;
      const contentsOpen = this.inContents();
      const contentsBefore = this.contentsBegun;
      this.inlines(node, inlines, []);
      if (contentsOpen || this.contentsBegun !== contentsBefore) {
        // The paragraphs of a TOC field's entries: the table of contents, once, titled by the
        // "TOC Heading" paragraph right before it.
        if (this.contentsBegun === contentsBefore) return;
        let title = '';
        if (this.contentsTitle && out[out.length - 1] === this.contentsTitle.block) {
          out.pop();
          title = this.contentsTitle.text;
        }
        closeLists();
        out.push({ kind: 'contents', title });
        return;
      }
      const frame = props ? child(props, 'w:framePr') : null;
      if (frame && /^(drop|margin)$/.test(attr(frame, 'w:dropCap'))) {
        dropCap = inlines;
        return;
      }
      if (!bibliographyBefore && this.bibliographyBegun && out[out.length - 1]?.kind === 'heading') {
        // The heading right before a reference manager's bibliography is the bibliography's own.
        out.pop();
      }
      const droppedNow = dropped || this.fields.some((field) => field.mode === 'drop');
      if (droppedNow && inlines.every((item) => item.kind === 'anchor')) return;
      // The empty paragraph Word needs after a table (our export writes one) is no content.
      if (!node.firstChild && out[out.length - 1]?.kind === 'table') return;
      const marked = boundary(props);
      if (boundaries && role.front && frontMatterParagraph(this.front, role.front, inlines)) return;
      const sequence = inlines.find((item) => item.kind === 'sequence');
      const display = inlines.some((item) => item.kind === 'display_equation');
      if (display && sequence) {
        // An equation's number ("(3)", a SEQ field) is drawn by our figure: its text goes.
        const kept = inlines.filter((item) => item.kind !== 'text' || !/^[\s()[\]\d.]*$/.test(item.text));
        inlines.length = 0;
        inlines.push(...kept);
      } else if ((role.caption || sequence) && role.heading === undefined && !display) {
        closeLists();
        out.push(captionBlock(inlines, sequence?.kind === 'sequence' ? sequence.name : ''));
        return;
      }
      if (role.title && !this.title) {
        this.title = inlines
          .map((item) => (item.kind === 'text' ? item.text : ''))
          .join('')
          .trim();
        return;
      }
      // The paragraph's own numbering, else its style's (numId 0: no list).
      const numPr = props ? child(props, 'w:numPr') : null;
      const ownId = numPr ? child(numPr, 'w:numId') : null;
      const styled = this.styleNumbering(styleId);
      const numId = ownId ? attr(ownId, 'w:val') : (styled?.numId ?? '');
      const levels = numId && numId !== '0' ? this.numbering.get(numId) : undefined;
      if (role.heading === undefined && levels) {
        const ownLevel = numPr ? child(numPr, 'w:ilvl') : null;
        const level = ownLevel ? Number(attr(ownLevel, 'w:val')) || 0 : (styled?.ilvl ?? 0);
        const ordered = levels.get(level) ?? false;
        const paragraph: Block = { kind: 'paragraph', inlines, ...marked };
        // Word's record of an inserted item: its text and the break before or after it inserted.
        // The item carries the insertion; a paragraph mark that is part of it is not the next
        // block's split.
        const inserted = boundaries ? insertedAsWhole(inlines, marked.boundary, before) : null;
        if (inserted) {
          paragraph.inserted = inserted.mark;
          if (inserted.takesAfter) before = [];
        }
        while (lists.length && lists[lists.length - 1].level > level) lists.pop();
        let current = lists[lists.length - 1];
        if (current && current.level === level && current.ordered !== ordered) {
          lists.pop();
          current = lists[lists.length - 1];
        }
        if (!current || current.level < level) {
          const block: Extract<Block, { kind: 'list' }> = { kind: 'list', ordered, items: [] };
          if (current?.block.items.length) current.block.items[current.block.items.length - 1].push(block);
          else out.push(block);
          lists.push({ level, ordered, block });
          current = lists[lists.length - 1];
        }
        current.block.items.push([paragraph]);
        return;
      }
      if (lists.length && role.heading === undefined && inlines.length && props && child(props, 'w:ind')) {
        // An indented paragraph right after a list item continues that item.
        const current = lists[lists.length - 1];
        current.block.items[current.block.items.length - 1].push({ kind: 'paragraph', inlines, ...marked });
        return;
      }
      closeLists();
      const justified = attr(props ? child(props, 'w:jc') : null, 'w:val');
      const aligned = /^(left|start)$/.test(justified)
        ? 'left'
        : /^(right|end)$/.test(justified)
          ? 'right'
          : justified === 'center'
            ? 'center'
            : undefined;
      if (aligned)
        for (const item of inlines) if (item.kind === 'image' && !item.aligned) item.aligned = aligned;
      if (role.heading !== undefined) {
        // Numbered by its own or its style's list (numId 0: not numbered).
        const format = levels ? (this.numberFormats.get(numId)?.get(0) ?? 'decimal') : '';
        // LibreOffice writes its outline numbering without numbers as the format "none".
        this.headingFormats.push(format === 'none' ? '' : format);
        out.push({ kind: 'heading', level: role.heading, inlines, ...marked });
      } else if (role.contentsTitle) {
        const block: Block = { kind: 'paragraph', inlines, ...marked };
        this.contentsTitle = { block, text: plain(inlines).trim() };
        out.push(block);
      } else if (role.code) {
        const code = inlines
          .map((item) => (item.kind === 'text' ? item.text : item.kind === 'break' ? '\n' : ''))
          .join('');
        appendCode(out, code);
      } else if (role.quote) {
        const last = out[out.length - 1];
        if (last?.kind === 'quote') last.blocks.push({ kind: 'paragraph', inlines });
        else out.push({ kind: 'quote', blocks: [{ kind: 'paragraph', inlines }] });
      } else out.push({ kind: 'paragraph', inlines, ...marked });
    };
    for (const node of elements(container)) {
      visit(node);
      if (floating.length) {
        // Text boxes of the paragraph (or table) just read follow it.
        closeLists();
        out.push(...floating.splice(0));
      }
    }
    if (dropCap.length) out.push({ kind: 'paragraph', inlines: dropCap });
  }
}

function coreTitle(files: Unzipped): string {
  const source = text(files, 'docProps/core.xml');
  if (!source) return '';
  try {
    return (descendants(parseXml(source), 'dc:title')[0]?.textContent ?? '').trim();
  } catch {
    return '';
  }
}

/** Reads an unzipped .docx. */
export function importDocx(files: Unzipped, fallbackTitle: string): ImportedDocument {
  const main = mainPart(files);
  const source = main ? text(files, main) : null;
  if (main === null || source === null) throw new ImportRefused('corrupt');
  const reader = new DocxReader(files, main);
  const body = child(parseXml(source), 'w:body');
  if (!body) throw new ImportRefused('corrupt');
  const blocks = reader.blocks(body, true);
  const title = reader.title || coreTitle(files) || fallbackTitle;
  // The headings' numbering: none when no heading is numbered, roman when the first is in roman numerals.
  const first = reader.headingFormats.find(Boolean);
  const headingNumbering = !reader.headingFormats.length
    ? undefined
    : !first
      ? 'none'
      : /roman/i.test(first)
        ? 'roman'
        : reader.numberingProperty === 'chapter'
          ? 'chapter'
          : 'decimal';
  return officeDocument('docx', reader, title, blocks, {
    front: reader.front,
    referenced: reader.referenced,
    ...(reader.citationNotes === undefined ? {} : { citationNotes: reader.citationNotes }),
    ...(headingNumbering ? { headingNumbering } : {}),
  });
}
