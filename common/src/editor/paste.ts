import { Fragment, type Mark, type Node as PMNode, Slice } from 'prosemirror-model';
import { isAside, schema } from './schema';
import { elementName } from './templates';

/**
 * Paste cleaning. Office suites and web pages put much into the clipboard that a paper must not
 * keep (fonts, colours, Word's own list markup, Google Docs wrappers, scripts, images until
 * figures exist). The schema's parse rules keep headings, lists, tables, emphasis and links and
 * drop what they do not know; this module fixes the markup those rules cannot read, and fits
 * the result into what the target part allows.
 */

const WORD_LIST = /mso-list:\s*(l\d+)\s+level(\d+)/i;

/** The cleaned HTML of a clipboard: a string in, a string out (needs a DOMParser: browser or jsdom). */
export function cleanPastedHTML(html: string): string {
  // Word's conditional comments hide list markers and VML; drop them before parsing.
  const stripped = html
    .replace(/<!--\[if[\s\S]*?<!\[endif\]-->/gi, '')
    .replace(/<!\[(?:if !supportLists|endif)\]>/gi, '')
    .replace(/<\/?o:p>/gi, '');
  const dom = new DOMParser().parseFromString(stripped, 'text/html');
  const root = dom.body;
  for (const node of Array.from(
    root.querySelectorAll(
      'script, style, meta, link, img, svg, iframe, object, nav, button, input, select, textarea, form',
    ),
  )) {
    node.remove();
  }
  rebuildWordLists(root);
  // Word and LibreOffice mark headings as classes on paragraphs sometimes (MsoHeading1, Heading 1).
  for (const paragraph of Array.from(root.querySelectorAll('p[class]'))) {
    const level = /(?:Mso)?Heading\s*([1-6])/i.exec(paragraph.getAttribute('class') ?? '')?.[1];
    if (level) replaceTag(paragraph, `h${level}`);
    else if (/MsoTitle/i.test(paragraph.getAttribute('class') ?? '')) replaceTag(paragraph, 'h1');
  }
  return root.innerHTML;
}

function replaceTag(element: Element, tag: string): Element {
  const replacement = element.ownerDocument.createElement(tag);
  while (element.firstChild) replacement.appendChild(element.firstChild);
  element.replaceWith(replacement);
  return replacement;
}

/**
 * Word writes lists as paragraphs with `mso-list: l0 level2` styles and the number as text.
 * Consecutive such paragraphs become nested <ol>/<ul>; the kind comes from the marker.
 */
function rebuildWordLists(root: HTMLElement): void {
  const paragraphs = Array.from(root.querySelectorAll('p')).filter((p) =>
    WORD_LIST.test(p.getAttribute('style') ?? ''),
  );
  const doc = root.ownerDocument;
  let stack: { list: HTMLElement; level: number }[] = [];
  for (const paragraph of paragraphs) {
    const level = Number(WORD_LIST.exec(paragraph.getAttribute('style') ?? '')?.[2] ?? '1');
    // The marker sits in a span styled mso-list:Ignore (or, from some versions, as leading text).
    const ignore = Array.from(paragraph.querySelectorAll('span')).find((span) =>
      /mso-list:\s*ignore/i.test(span.getAttribute('style') ?? ''),
    );
    const marker = ignore?.textContent ?? paragraph.textContent ?? '';
    ignore?.remove();
    const ordered = /^\s*(\d+|[a-z]|[ivxlc]+)[.)]/i.test(marker);
    // Only paragraphs right after the list being built continue it.
    if (!stack.length || paragraph.previousElementSibling !== stack[0].list) stack = [];
    while (stack.length && stack[stack.length - 1].level > level) stack.pop();
    const item = doc.createElement('li');
    const text = doc.createElement('p');
    while (paragraph.firstChild) text.appendChild(paragraph.firstChild);
    const first = text.firstChild;
    if (!ignore && first?.nodeType === 3)
      first.textContent = (first.textContent ?? '').replace(/^\s*(\d+[.)]|[a-z][.)]|[·•o§▪-])\s+/i, '');
    item.appendChild(text);
    const top = stack[stack.length - 1];
    if (!top || top.level < level) {
      const list = doc.createElement(ordered ? 'ol' : 'ul');
      if (top) (top.list.lastElementChild ?? top.list).appendChild(list);
      else paragraph.before(list);
      stack.push({ list, level });
    }
    stack[stack.length - 1].list.appendChild(item);
    paragraph.remove();
  }
}

/** Plain text: blank lines separate paragraphs; single line breaks stay as line breaks. */
export function plainTextSlice(text: string): Slice {
  const blocks = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((block) => block.replace(/^\n+|\n+$/g, ''))
    .filter((block) => block.trim() !== '');
  const paragraphs = blocks.map((block) => {
    const inline: PMNode[] = [];
    block.split('\n').forEach((line, index) => {
      if (index > 0) inline.push(schema.nodes.hard_break.create());
      if (line) inline.push(schema.text(line));
    });
    return schema.nodes.paragraph.create(null, inline);
  });
  return new Slice(Fragment.from(paragraphs), paragraphs.length ? 1 : 0, paragraphs.length ? 1 : 0);
}

/**
 * Fits pasted content into a part: elements it does not allow become what it does (a heading
 * a paragraph, a list or table its paragraphs), marks it does not allow are dropped. Comment and
 * tracked-change marks never travel by clipboard: they belong to threads and reviews here.
 */
export function fitSlice(slice: Slice, elements: readonly string[], marks: readonly string[]): Slice {
  const fitted = fitFragment(slice.content, elements, marks);
  // The open depth may change when a wrapper was unwrapped; keep it only when the shape is unchanged.
  if (fitted.eq(slice.content)) return slice;
  const open = fitted.firstChild?.isTextblock && fitted.lastChild?.isTextblock ? 1 : 0;
  return new Slice(fitted, Math.min(slice.openStart, open), Math.min(slice.openEnd, open));
}

function keepMarks(node: PMNode, marks: readonly string[]): Mark[] {
  return node.marks.filter((mark) => marks.includes(mark.type.name));
}

function fitFragment(fragment: Fragment, elements: readonly string[], marks: readonly string[]): Fragment {
  const out: PMNode[] = [];
  fragment.forEach((node) => {
    out.push(...fitNode(node, elements, marks));
  });
  return Fragment.from(out);
}

function fitNode(node: PMNode, elements: readonly string[], marks: readonly string[]): PMNode[] {
  if (node.isText) return [node.mark(keepMarks(node, marks))];
  const name = elementName(node);
  const allowed = name === null || elements.includes(name);
  if (allowed) {
    const content = fitFragment(node.content, elements, marks);
    try {
      return [node.type.create(node.attrs, content, keepMarks(node, marks))];
    } catch {
      return content.size ? [schema.nodes.paragraph.create(null, inlineOf(content))] : [];
    }
  }
  switch (node.type.name) {
    case 'heading':
    case 'code_block':
      return elements.includes('paragraph')
        ? [schema.nodes.paragraph.create(null, fitFragment(node.content, elements, marks))]
        : [];
    case 'hard_break':
      return [schema.text(' ')];
    case 'horizontal_rule':
      return [];
    default:
      // An aside (a note) is not part of the text it was pasted with.
      if (isAside(node)) return [];
      // Lists, quotes and tables give up their wrappers and keep the blocks inside.
      return unwrap(node.content, elements, marks);
  }
}

const WRAPPERS = new Set(['list_item', 'table_row', 'table_cell', 'table_header']);

function unwrap(fragment: Fragment, elements: readonly string[], marks: readonly string[]): PMNode[] {
  const out: PMNode[] = [];
  fragment.forEach((child) => {
    out.push(
      ...(WRAPPERS.has(child.type.name)
        ? unwrap(child.content, elements, marks)
        : fitNode(child, elements, marks)),
    );
  });
  return out;
}

function inlineOf(fragment: Fragment): PMNode[] {
  const inline: PMNode[] = [];
  fragment.descendants((node) => {
    if (node.isInline) {
      inline.push(node);
      return false;
    }
    return true;
  });
  return inline;
}
