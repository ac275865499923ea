import { normalizeRichText } from '@scriptorium/common/bibliography/rich-text';
import type { RichNode, RichText } from '@scriptorium/common/bibliography/types';
import { RICH_TEXT_MARKS } from '@scriptorium/common/bibliography/validate';
import { Fragment, type MarkSpec, type Node as PMNode, Schema, Slice } from 'prosemirror-model';

/** One of the marks of the converter's rich text, which are exactly the marks of our schemas. */
export type RichTextMark = (typeof RICH_TEXT_MARKS)[number];

// Our own classes come first so that copy and paste inside the app keeps every mark.
const MARK_SPECS: Record<RichTextMark, MarkSpec> = {
  em: {
    parseDOM: [{ tag: 'em' }, { tag: 'i' }, { style: 'font-style=italic' }],
    toDOM: () => ['em', 0],
  },
  strong: {
    parseDOM: [
      { tag: 'strong' },
      // Some word processors wrap whole documents in <b style="font-weight: normal">.
      { tag: 'b', getAttrs: (node) => (node as HTMLElement).style.fontWeight !== 'normal' && null },
      { style: 'font-weight', getAttrs: (value) => /^(bold(er)?|[6-9]00)$/.test(value as string) && null },
    ],
    toDOM: () => ['strong', 0],
  },
  smallcaps: {
    parseDOM: [
      { tag: 'span.rt-smallcaps' },
      { style: 'font-variant=small-caps' },
      { style: 'font-variant-caps=small-caps' },
    ],
    toDOM: () => ['span', { class: 'rt-smallcaps' }, 0],
  },
  sup: {
    parseDOM: [{ tag: 'sup' }, { style: 'vertical-align=super' }],
    toDOM: () => ['sup', 0],
  },
  sub: {
    parseDOM: [{ tag: 'sub' }, { style: 'vertical-align=sub' }],
    toDOM: () => ['sub', 0],
  },
  enquote: {
    parseDOM: [{ tag: 'q' }],
    toDOM: () => ['q', { class: 'rt-enquote' }, 0],
  },
  nocase: {
    parseDOM: [{ tag: 'span.rt-nocase' }],
    toDOM: () => ['span', { class: 'rt-nocase' }, 0],
  },
  // A LaTeX \url{...}: kept when present, never offered (links pasted from the web stay plain text).
  url: {
    parseDOM: [{ tag: 'span.rt-url' }],
    toDOM: () => ['span', { class: 'rt-url' }, 0],
  },
};

function createSchema(list: boolean): Schema {
  return new Schema({
    nodes: {
      // A single value is one paragraph by construction, so Enter and pasted blocks cannot split it.
      doc: { content: list ? 'paragraph+' : 'paragraph' },
      paragraph: {
        content: 'inline*',
        parseDOM: [{ tag: 'p' }],
        toDOM: () => ['p', 0],
      },
      text: { group: 'inline' },
      // An @string macro the importer could not resolve: one unit, shown by its name.
      variable: {
        group: 'inline',
        inline: true,
        atom: true,
        selectable: true,
        attrs: { variable: { default: '' } },
        parseDOM: [
          {
            tag: 'span[data-variable]',
            getAttrs: (node) => ({ variable: (node as HTMLElement).getAttribute('data-variable') ?? '' }),
          },
        ],
        toDOM: (node) => [
          'span',
          { class: 'rt-variable', 'data-variable': node.attrs.variable, contenteditable: 'false' },
          node.attrs.variable,
        ],
      },
    },
    // The order of RICH_TEXT_MARKS is the order marks get on a node, so output is canonical.
    marks: Object.fromEntries(RICH_TEXT_MARKS.map((name) => [name, MARK_SPECS[name]])),
  });
}

/** The schema of one rich-text value (a single paragraph). */
export const singleSchema = createSchema(false);
/** The schema of a list of rich texts (one paragraph per item). */
export const listSchema = createSchema(true);

function inlineNodes(schema: Schema, value: RichText): PMNode[] {
  const nodes: PMNode[] = [];
  for (const node of value) {
    if (node.type === 'variable') {
      nodes.push(schema.nodes.variable.create({ variable: node.attrs.variable }));
    } else if (node.text !== '') {
      // The validator admits only known marks; anything else is dropped rather than crashing the editor.
      const marks = (node.marks ?? [])
        .filter((mark) => Object.hasOwn(schema.marks, mark.type))
        .map((mark) => schema.marks[mark.type].create());
      nodes.push(schema.text(node.text, marks));
    }
  }
  return nodes;
}

function paragraphToRichText(paragraph: PMNode): RichText {
  const out: RichNode[] = [];
  paragraph.forEach((child) => {
    if (child.type.name === 'variable') {
      out.push({ type: 'variable', attrs: { variable: String(child.attrs.variable) } });
    } else if (child.isText) {
      const node: RichNode = { type: 'text', text: child.text ?? '' };
      if (child.marks.length > 0) node.marks = child.marks.map((mark) => ({ type: mark.type.name }));
      out.push(node);
    }
  });
  return out;
}

/** The editor document of one rich-text value. */
export function richTextToDoc(value: RichText, schema: Schema = singleSchema): PMNode {
  return schema.nodes.doc.create(null, schema.nodes.paragraph.create(null, inlineNodes(schema, value)));
}

/** The canonical rich text of a single-value document; paragraphs (if any) are joined by spaces. */
export function docToRichText(doc: PMNode): RichText {
  const out: RichNode[] = [];
  doc.forEach((paragraph, _offset, index) => {
    if (index > 0) out.push({ type: 'text', text: ' ' });
    out.push(...paragraphToRichText(paragraph));
  });
  return normalizeRichText(out);
}

/** The editor document of a list of rich texts: one paragraph per item, one empty one for none. */
export function richTextListToDoc(items: readonly RichText[], schema: Schema = listSchema): PMNode {
  const paragraphs = (items.length > 0 ? items : [[]]).map((item) =>
    schema.nodes.paragraph.create(null, inlineNodes(schema, item)),
  );
  return schema.nodes.doc.create(null, paragraphs);
}

/**
 * The canonical items of a list document, one per paragraph. Empty paragraphs stay (so a new line
 * just made with Enter survives the round trip through the form); a lone empty one is no item.
 */
export function docToRichTextList(doc: PMNode): RichText[] {
  const items: RichText[] = [];
  doc.forEach((paragraph) => {
    items.push(normalizeRichText(paragraphToRichText(paragraph)));
  });
  return items.length === 1 && items[0].length === 0 ? [] : items;
}

/** Joins the blocks of a pasted slice into one line of inline content, separated by spaces. */
export function flattenSlice(slice: Slice, schema: Schema = singleSchema): Slice {
  let blocks = 0;
  slice.content.forEach((node) => {
    if (node.isBlock) blocks++;
  });
  if (blocks <= 1) return slice;
  const inline: PMNode[] = [];
  slice.content.forEach((node) => {
    if (!node.isTextblock) return;
    if (inline.length > 0 && node.childCount > 0) inline.push(schema.text(' '));
    node.forEach((child) => {
      inline.push(child);
    });
  });
  return new Slice(Fragment.from(schema.nodes.paragraph.create(null, inline)), 1, 1);
}

/** Pasted plain text for a single-line field: line breaks become spaces. */
export function joinLines(text: string): string {
  return text.replace(/[ \t]*(?:\r\n?|\n)+[ \t]*/g, ' ');
}
