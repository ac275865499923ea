import type { Node as PMNode } from 'prosemirror-model';
import type { EntryData } from '../bibliography/types';
import { schema } from '../editor/schema';
import { createDocument, standardArticle } from '../editor/templates';
import { importedNote } from '../features/registry';
import type { Block, Inline, JsonMark } from './blocks';
import { IMAGE_PREFIX } from './model';
import { pageReferences } from './page-references';
import type { ImportReport } from './problems';

/**
 * The translation of the readers' blocks (blocks.ts) to our schema: one builder enforces the
 * schema's rules (a list item starts with a paragraph, a note holds paragraphs only, figures
 * are blocks).
 */

export type { Block, Cell, Inline, JsonMark } from './blocks';

type Json = Record<string, unknown>;

/**
 * Marks the schema takes together: nested emphasis (a span in a span, a run's style and its own
 * italic) gives one em, a link inside a link the inner one, sub and sup the first; comments may
 * overlap, one comment once.
 */
export function validMarks(marks: JsonMark[]): JsonMark[] {
  const out: JsonMark[] = [];
  for (const mark of marks) {
    if (mark.type === 'link') {
      const outer = out.findIndex((found) => found.type === 'link');
      if (outer >= 0) out.splice(outer, 1);
      out.push(mark);
    } else if (mark.type === 'comment') {
      if (!out.some((found) => found.type === 'comment' && found.attrs?.id === mark.attrs?.id))
        out.push(mark);
    } else if (
      !out.some(
        (found) => found.type === mark.type || (/^su[bp]$/.test(mark.type) && /^su[bp]$/.test(found.type)),
      )
    )
      out.push(mark);
  }
  return out;
}

function sameMarks(a: JsonMark[], b: JsonMark[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The insertion a paragraph was made by as a whole, when all its text is one author's insertion
 * and so is one of the breaks around it: the break before it (`boundary`; Word's Enter at the end
 * of the paragraph before, then typing), or else the break after it (`after`, its paragraph mark;
 * Word's record of pasted or inserted items). `takesAfter`: the break after it is part of it, not
 * the split before the next block.
 */
export function insertedAsWhole(
  inlines: Inline[],
  boundary: JsonMark[] | undefined,
  after: JsonMark[],
): { mark: JsonMark; takesAfter: boolean } | null {
  const before = boundary?.find((change) => change.type === 'insertion');
  const mark = before ?? (after.length === 1 && after[0].type === 'insertion' ? after[0] : null);
  if (!mark) return null;
  const author = mark.attrs?.username;
  const byAuthor = (marks: JsonMark[]) =>
    marks.some((m) => m.type === 'insertion' && m.attrs?.username === author) &&
    !marks.some((m) => m.type === 'deletion');
  const whole = inlines.every((item) =>
    item.kind === 'text' || item.kind === 'equation'
      ? byAuthor(item.marks)
      : item.kind === 'break' || item.kind === 'anchor',
  );
  return whole ? { mark, takesAfter: !before } : null;
}

/** The same suggester's insertion (the times of Word's revisions of one paste or typing differ). */
const sameInsertion = (a: JsonMark | null | undefined, b: JsonMark | null | undefined) =>
  !!a && !!b && a.type === b.type && a.attrs?.username === b.attrs?.username;

/** The insertion an item was made by, when it is new as a whole (its paragraphs, its nested lists). */
function insertedItem(blocks: Block[]): JsonMark | null {
  const first = blocks[0];
  const mark = first?.kind === 'paragraph' ? first.inserted : undefined;
  if (!mark) return null;
  const same = (other: JsonMark | null | undefined) => sameInsertion(other, mark);
  const rest = blocks
    .slice(1)
    .every((block) =>
      block.kind === 'paragraph' ? same(block.inserted) : block.kind === 'list' && same(insertedWhole(block)),
    );
  return rest ? mark : null;
}

/** The insertion a whole list was made by: every item of it new as a whole, by the same one. */
function insertedWhole(list: Extract<Block, { kind: 'list' }>): JsonMark | null {
  const marks = list.items.map(insertedItem);
  const first = marks[0];
  return first && marks.every((mark) => sameInsertion(mark, first)) ? first : null;
}

/** The front matter a reader found by its styles: the parts of the standard article. */
export interface FrontMatter {
  subtitle?: string;
  authors?: { firstname: string; lastname: string; email: string; institution: string; orcid: string }[];
  abstract?: Block[];
  keywords?: string[];
}

/**
 * An author line as our exports write it and title pages often do: "Ada Lovelace, Analytical
 * Society, ada@example.org, https://orcid.org/0000-0002-1825-0097" (e-mail and ORCID found by
 * their shape anywhere after the name).
 */
export function parseAuthorLine(line: string): FrontMatter['authors'] {
  const pieces = line
    .split(/\s*[,;]\s*/)
    .map((piece) => piece.trim())
    .filter(Boolean);
  const name = pieces.shift();
  if (!name) return [];
  let email = '';
  let orcid = '';
  const institution: string[] = [];
  for (const piece of pieces) {
    const orcidMatch = /(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/.exec(piece);
    if (/^\S+@\S+\.\S+$/.test(piece.replace(/^mailto:/, ''))) email = piece.replace(/^mailto:/, '');
    else if (orcidMatch && /^(https?:\/\/orcid\.org\/|orcid:?\s*)?\d{4}-/i.test(piece)) orcid = orcidMatch[1];
    else institution.push(piece);
  }
  const words = name.split(/\s+/);
  const lastname = words.length > 1 ? (words.pop() ?? '') : '';
  return [{ firstname: words.join(' '), lastname, email, institution: institution.join(', '), orcid }];
}

export class DocumentBuilder {
  private noteDepth = 0;
  /**
   * A note of nothing but one citation is that citation (a note style's note: Zotero's and ours);
   * false when the file says its style is not a note style, where such a note is the author's own.
   */
  citationNotes = true;
  /** Building the content of a list inserted whole: its items and lists carry nothing of their own. */
  private insideInserted = false;

  constructor(private readonly report: ImportReport) {}

  /** Inline content of a paragraph, and the figures lifted out of it (to follow the paragraph). */
  private inlines(items: Inline[]): { content: Json[]; lifted: Json[] } {
    const content: Json[] = [];
    const lifted: Json[] = [];
    for (const item of pageReferences(items)) {
      if ('marks' in item && item.marks) item.marks = validMarks(item.marks);
      switch (item.kind) {
        case 'text': {
          if (!item.text) break;
          const last = content[content.length - 1];
          if (last?.type === 'text' && sameMarks((last.marks as JsonMark[]) ?? [], item.marks)) {
            last.text = `${last.text}${item.text}`;
          } else {
            content.push(
              item.marks.length
                ? { type: 'text', text: item.text, marks: item.marks }
                : { type: 'text', text: item.text },
            );
          }
          break;
        }
        case 'break':
          content.push({ type: 'hard_break' });
          break;
        case 'equation':
          if (item.latex)
            content.push({
              type: 'equation',
              attrs: { equation: item.latex },
              ...(item.marks.length ? { marks: item.marks } : {}),
            });
          break;
        case 'citation':
          if (item.references.length)
            content.push({
              type: 'citation',
              attrs: { format: item.format ?? 'autocite', references: item.references },
              ...(item.marks?.length ? { marks: item.marks } : {}),
            });
          break;
        case 'cross_reference':
          content.push({
            type: 'cross_reference',
            attrs: { id: targetId(item.target), title: item.text, ...(item.form ? { form: item.form } : {}) },
            ...(item.marks.length ? { marks: item.marks } : {}),
          });
          break;
        case 'anchor':
        case 'sequence':
          break;
        case 'note': {
          const cited = onlyCitation(item.blocks);
          if (cited && this.noteDepth === 0 && this.citationNotes) {
            // A note style's citation: the note is the citation's (Zotero's and our own notes);
            // a text citation's author before it is the citation's too.
            const last = content[content.length - 1];
            if (cited.author && last?.type === 'text' && String(last.text).endsWith(cited.author)) {
              last.text = String(last.text).slice(0, -cited.author.length);
              if (!last.text) content.pop();
            }
            // The note's suggestion (a note style's citation deleted or inserted) is the citation's.
            const marks = item.marks?.length ? item.marks : (cited.marks ?? []);
            content.push({
              type: 'citation',
              attrs: { format: cited.format ?? 'autocite', references: cited.references },
              ...(marks.length ? { marks } : {}),
            });
            break;
          }
          if (this.noteDepth > 0) {
            this.report.note('nested_footnote');
            break;
          }
          this.noteDepth++;
          const paragraphs = this.noteParagraphs(item.blocks);
          this.noteDepth--;
          // The node feature that takes notes makes the node (features/registry.ts).
          const note = importedNote(paragraphs);
          if (note) {
            // Of the reference's marks, those the note may carry (its suggestion).
            const type = schema.nodes[String(note.type)];
            const marks = (item.marks ?? []).filter((mark) => type?.allowsMarkType(schema.marks[mark.type]));
            content.push(marks.length ? { ...note, marks } : note);
          }
          break;
        }
        case 'image':
          if (this.noteDepth > 0) this.report.note('unsupported_element', 'image in footnote');
          else
            lifted.push({
              type: 'figure',
              attrs: {
                id: item.id ?? '',
                category: item.category ?? 'figure',
                src: `${IMAGE_PREFIX}${item.key}`,
                caption: item.caption,
                ...(item.aligned ? { aligned: item.aligned } : {}),
              },
            });
          break;
        case 'display_equation':
          if (this.noteDepth > 0) content.push({ type: 'equation', attrs: { equation: item.latex } });
          else
            lifted.push({
              type: 'figure',
              attrs: {
                id: item.id ?? '',
                category: 'equation',
                equation: item.latex,
                caption: item.caption ?? '',
              },
            });
          break;
        case 'join':
          break;
      }
    }
    return { content, lifted };
  }

  /** A note holds paragraphs only: other blocks are flattened to their paragraphs. */
  private noteParagraphs(blocks: Block[]): Json[] {
    const out: Json[] = [];
    const visit = (block: Block) => {
      if (block.kind === 'paragraph' || block.kind === 'heading')
        out.push(...this.block({ kind: 'paragraph', inlines: block.inlines }));
      else if (block.kind === 'list') for (const item of block.items) for (const inner of item) visit(inner);
      else if (block.kind === 'quote') for (const inner of block.blocks) visit(inner);
      else if (block.kind === 'code')
        out.push({ type: 'paragraph', content: block.text ? [{ type: 'text', text: block.text }] : [] });
      else this.report.note('unsupported_element', `${block.kind} in footnote`);
    };
    blocks.forEach(visit);
    // Word and LibreOffice put a tab or space between the note's number and its text.
    const first = (out[0]?.content as Json[] | undefined)?.[0];
    if (first?.type === 'text') first.text = String(first.text).replace(/^\s+/, '');
    if (first?.type === 'text' && first.text === '') (out[0].content as Json[]).shift();
    return out.length ? out.filter((node) => node.type === 'paragraph') : [{ type: 'paragraph' }];
  }

  /** One block becomes one or more nodes (a paragraph and the figures lifted from it). */
  block(block: Block): Json[] {
    switch (block.kind) {
      case 'paragraph':
      case 'heading': {
        // A bookmark in the paragraph of a display equation or an image (its number's) is theirs.
        const held = block.inlines.find((item) => item.kind === 'display_equation' || item.kind === 'image');
        if (held && (held.kind === 'display_equation' || held.kind === 'image') && !held.id) {
          const id = this.anchorId(block.inlines);
          if (id) held.id = id;
        }
        const { content, lifted } = this.inlines(block.inlines);
        const node: Json =
          block.kind === 'heading'
            ? {
                type: 'heading',
                attrs: { level: Math.min(Math.max(block.level, 1), 6), id: this.anchorId(block.inlines) },
              }
            : { type: 'paragraph' };
        if (content.length) node.content = content;
        if (block.boundary?.length) node.marks = block.boundary;
        // A paragraph that only held an image or a display equation is not kept empty.
        return content.length || !lifted.length ? [node, ...lifted] : lifted;
      }
      case 'list': {
        // A list all of whose items are inserted whole is a new list: it carries the insertion.
        const whole = insertedWhole(block);
        const inside = this.insideInserted;
        this.insideInserted = inside || !!whole;
        const items = block.items.map((blocks, index) => {
          const content = this.blocks(blocks);
          if (content[0]?.type !== 'paragraph') content.unshift({ type: 'paragraph' });
          // The break before an item is the item's to record; before the first there is none to
          // record (the break into a list is not a split or join of ours).
          const { marks, ...first } = content[0];
          content[0] = first;
          // Inside a list inserted whole, the breaks between its items are its own.
          if (this.insideInserted) return { type: 'list_item', content };
          const item = insertedItem(blocks);
          if (item) return { type: 'list_item', content, marks: [item] };
          return index > 0 && marks ? { type: 'list_item', content, marks } : { type: 'list_item', content };
        });
        this.insideInserted = inside;
        if (!items.length) return [];
        const list = { type: block.ordered ? 'ordered_list' : 'bullet_list', content: items };
        return [whole && !inside ? { ...list, marks: [whole] } : list];
      }
      case 'table': {
        const rows = block.rows
          .map((row, index) => ({ row, marks: block.rowChanges?.[index] ?? [] }))
          .filter(({ row }) => row.length)
          .map(({ row, marks }) => ({
            type: 'table_row',
            ...(marks.length ? { marks } : {}),
            content: row.map((cell) => {
              const content = this.blocks(cell.blocks);
              return {
                type: cell.header ? 'table_header' : 'table_cell',
                attrs: { colspan: cell.colspan, rowspan: cell.rowspan, colwidth: null },
                content: content.length ? content : [{ type: 'paragraph' }],
              };
            }),
          }));
        return rows.length
          ? [{ type: 'table', attrs: { id: block.id ?? '', caption: block.caption ?? '' }, content: rows }]
          : [];
      }
      case 'code':
        return [
          { type: 'code_block', ...(block.text ? { content: [{ type: 'text', text: block.text }] } : {}) },
        ];
      case 'quote': {
        const content = this.blocks(block.blocks);
        return content.length ? [{ type: 'blockquote', content }] : [];
      }
      case 'caption':
        return this.block({ kind: 'paragraph', inlines: block.full });
      case 'contents':
        // Only the body's own level holds one (document() makes it the contents part).
        return [];
    }
  }

  /** Bookmark names that cross-references point to (set by the reader before building). */
  referenced = new Set<string>();

  /** The id a block's bookmarks give it: the one cross-referenced, else the first of ours. */
  private anchorId(inlines: Inline[]): string {
    const names = inlines.flatMap((item) => (item.kind === 'anchor' ? [item.name] : []));
    return targetId(
      names.find((name) => this.referenced.has(name)) ?? names.find((name) => name.startsWith('ref_')) ?? '',
    );
  }

  blocks(blocks: Block[]): Json[] {
    return attachCaptions(blocks, (inlines) => this.anchorId(inlines)).flatMap((block) => this.block(block));
  }

  /**
   * The whole document: the standard article with the body filled, and the bibliography part
   * when something is cited. Checked against the schema, so a reader's mistake fails here and
   * not in the editor.
   */
  document(input: {
    title: string;
    language?: string;
    body: Block[];
    bibliography: { key: string; data: EntryData }[];
    front?: FrontMatter;
    /** The headings' numbering the file shows (HEADING_NUMBERINGS), when the reader found it. */
    headingNumbering?: string;
  }): { title: string; content: Json; node: PMNode } {
    const base = createDocument(schema, standardArticle, {
      title: input.title,
      ...(input.language ? { language: input.language } : {}),
    }).toJSON() as Json;
    if (input.headingNumbering)
      base.attrs = { ...(base.attrs as Json), heading_numbering: input.headingNumbering };
    // A table of contents is a part of its own: before the body, or after it when nothing follows it.
    const at = input.body.findIndex((block) => block.kind === 'contents');
    const contents = at >= 0 ? (input.body[at] as Extract<Block, { kind: 'contents' }>) : null;
    const after =
      contents !== null &&
      input.body.slice(0, at).some((block) => block.kind !== 'contents') &&
      input.body.slice(at + 1).every((block) => block.kind === 'contents');
    const body = this.blocks(input.body.filter((block) => block.kind !== 'contents'));
    const front = input.front;
    const parts = (base.content as Json[]).map((part): Json | Json[] => {
      const attrs = part.attrs as Json | undefined;
      switch (attrs?.id) {
        case 'body': {
          const filled = { ...part, content: body.length ? body : [{ type: 'paragraph' }] };
          if (!contents) return filled;
          const toc = {
            type: 'toc_part',
            attrs: {
              id: 'contents',
              title: contents.title || 'Contents',
              optional: true,
              hidden: false,
              elements: [],
              marks: [],
              help: '',
            },
          };
          return after ? [filled, toc] : [toc, filled];
        }
        case 'subtitle':
          return front?.subtitle
            ? {
                ...part,
                attrs: { ...attrs, hidden: false },
                content: [{ type: 'text', text: front.subtitle }],
              }
            : part;
        case 'authors':
          return front?.authors?.length
            ? { ...part, content: front.authors.map((person) => ({ type: 'contributor', attrs: person })) }
            : part;
        case 'abstract': {
          const content = front?.abstract?.length ? this.blocks(front.abstract) : [];
          return content.length ? { ...part, content } : part;
        }
        case 'keywords':
          return front?.keywords?.length
            ? {
                ...part,
                content: front.keywords.map((keyword) => ({ type: 'keyword', attrs: { keyword } })),
              }
            : part;
        default:
          return part;
      }
    });
    const flat = parts.flat();
    if (input.bibliography.length) {
      flat.push({
        type: 'bibliography_part',
        content: input.bibliography.map((entry) => ({
          type: 'bib_entry',
          attrs: { id: entry.key, data: entry.data },
        })),
      });
    }
    resolveCrossReferences(flat);
    const node = schema.nodeFromJSON({ ...base, content: flat });
    node.check();
    return { title: input.title, content: node.toJSON() as Json, node };
  }
}

/** The id of a bookmark's target: our own bookmarks are `ref_<id>`. */
export function targetId(name: string): string {
  return name.startsWith('ref_') ? name.slice(4) : name;
}

/** The one citation a note holds, and nothing else but spaces and punctuation. */
function onlyCitation(blocks: Block[]): Extract<Inline, { kind: 'citation' }> | null {
  if (blocks.length !== 1 || blocks[0].kind !== 'paragraph') return null;
  let citation: Extract<Inline, { kind: 'citation' }> | null = null;
  for (const item of blocks[0].inlines) {
    if (item.kind === 'citation') {
      if (citation) return null;
      citation = item;
    } else if (item.kind === 'text') {
      if (!/^[\s.]*$/.test(item.text)) return null;
    } else if (item.kind !== 'anchor') return null;
  }
  return citation;
}

/** The category of a caption's SEQ name in the languages Word labels captions in. */
export function sequenceCategory(name: string): string {
  const lower = name.toLowerCase();
  if (/^(table|tabelle|tableau|tabla|tabella|tabela|tabel|таблица)$/.test(lower)) return 'table';
  if (/^(equation|gleichung|formel|équation|ecuación|equazione|equação|formula)$/.test(lower))
    return 'equation';
  if (lower === 'photo' || lower === 'foto') return 'photo';
  if (lower === 'listing' || lower === 'listado' || lower === 'listato') return 'listing';
  return 'figure';
}

/**
 * Caption blocks given to what they caption: a table caption to the table after it (or before
 * it), a figure's or equation's to the image or display equation ending the paragraph before it.
 * Captions that caption nothing stay paragraphs.
 */
function attachCaptions(blocks: Block[], anchorId: (inlines: Inline[]) => string): Block[] {
  if (!blocks.some((block) => block.kind === 'caption')) return blocks;
  const out: Block[] = [];
  const used = new Set<number>();
  blocks.forEach((block, index) => {
    if (block.kind !== 'caption') return;
    const id = anchorId(block.anchors.map((name) => ({ kind: 'anchor', name })));
    const next = blocks[index + 1];
    const previous = blocks[index - 1];
    const lifted =
      previous?.kind === 'paragraph'
        ? [...previous.inlines]
            .reverse()
            .find((item) => item.kind === 'image' || item.kind === 'display_equation')
        : undefined;
    const tableNext = next?.kind === 'table' && !next.caption;
    const tablePrevious = previous?.kind === 'table' && !previous.caption;
    if (block.category === 'table' ? tableNext || tablePrevious : !lifted && tableNext) {
      const table = (tableNext ? next : previous) as Extract<Block, { kind: 'table' }>;
      table.caption = block.text;
      if (id) table.id = id;
      used.add(index);
    } else if (lifted && (lifted.kind === 'image' || lifted.kind === 'display_equation')) {
      lifted.caption = block.text;
      if (id && !lifted.id) lifted.id = id;
      if (lifted.kind === 'image' && block.category !== 'table') lifted.category = block.category;
      used.add(index);
    }
  });
  blocks.forEach((block, index) => {
    if (!used.has(index)) out.push(block);
  });
  return out;
}

/**
 * Cross-references whose target is no heading, figure or table of the document become the text
 * they read (a link to a bookmark on a plain paragraph, a target left out).
 */
function resolveCrossReferences(parts: Json[]): void {
  const ids = new Set<string>();
  const collect = (node: Json) => {
    const attrs = node.attrs as Json | undefined;
    if ((node.type === 'heading' || node.type === 'figure' || node.type === 'table') && attrs?.id)
      ids.add(String(attrs.id));
    for (const inner of (node.content as Json[] | undefined) ?? []) collect(inner);
  };
  parts.forEach(collect);
  const replace = (node: Json) => {
    const content = node.content as Json[] | undefined;
    if (!content) return;
    node.content = content.flatMap((inner) => {
      if (inner.type !== 'cross_reference') {
        replace(inner);
        return [inner];
      }
      const attrs = inner.attrs as Json;
      if (ids.has(String(attrs.id)))
        return [
          { ...inner, attrs: { id: attrs.id, title: '', ...(attrs.form ? { form: attrs.form } : {}) } },
        ];
      const text = String(attrs.title ?? '');
      return text ? [{ type: 'text', text, ...(inner.marks ? { marks: inner.marks } : {}) }] : [];
    });
  };
  parts.forEach(replace);
}
