import MarkdownIt, { type PluginSimple } from 'markdown-it';
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import footnotePlugin from 'markdown-it-footnote';
import { MarkdownParser } from 'prosemirror-markdown';
import { Fragment, type Node as PMNode, Schema } from 'prosemirror-model';
import type { CitationReference } from '../editor/academic-nodes';
import { schema } from '../editor/schema';

/**
 * Pandoc's Markdown read into blocks of our schema (issue 57: the API appends or replaces a
 * document's body by Markdown; the writer is export/markdown.ts): CommonMark with pipe tables,
 * footnotes (`[^1]`, `^[inline]`), `$math$` and `$$display math$$`, citations (`[@key, p. 3]`,
 * `[see @a; @b]`, textual `@key`, pandoc's braced `@{key}`), `^sup^`, `~sub~`, `[text]{.underline}` and `{.smallcaps}`.
 * A citation key or image the caller cannot resolve stays as the text it was written as and is
 * reported: nothing written is lost.
 */
export interface MarkdownResolvers {
  /** The citation id (`<owner>-<entry id>`) of a citation key, or null when there is no such entry. */
  citation(key: string): string | null;
  /** A figure's image for an image address (one of the caller's library images), or null. */
  image(src: string): { image: number; src: string } | null;
}

export interface MarkdownBlocks {
  content: Fragment;
  /** Citation keys no entry answered to (left as text). */
  unknownCitations: string[];
  /** Image addresses that are no library image (their description was kept as text). */
  unknownImages: string[];
}

interface ParseEnv {
  resolvers: MarkdownResolvers;
  unknownCitations: Set<string>;
  unknownImages: Set<string>;
}

// Our schema with a root that holds blocks: prosemirror-markdown parses into the schema's top node.
const blockSchema = new Schema({
  nodes: schema.spec.nodes.addToEnd('markdown_blocks', { content: 'block+' }),
  marks: schema.spec.marks,
  topNode: 'markdown_blocks',
});

/** A key as pandoc writes it: `key` of word characters and inner punctuation, or `{any key}` in braces. */
const KEY = /^(?:\{([^{}]+)\}|([\w][\w:.#$%&+?<>~/-]*))/;
const CLUSTER_ITEM = /^\s*(.*?)-?@(?:\{([^{}]+)\}|([\w][\w:.#$%&+?<>~/-]*))(?:\s*,\s*(.*?))?\s*$/s;

/** The items of a bracketed citation: split at `;` outside the braces of a `@{key}`. */
function splitItems(label: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < label.length; at++) {
    const char = label[at];
    if (char === '{') depth++;
    else if (char === '}') depth = Math.max(0, depth - 1);
    else if (char === ';' && depth === 0) {
      parts.push(label.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(label.slice(start));
  return parts;
}

/** `[prefix @key, locator; ...]` (or `@{key}`): each part must name a key, or it is no citation. */
function clusterItems(label: string): { prefix: string; key: string; locator: string }[] | null {
  const items = [];
  for (const part of splitItems(label)) {
    const match = CLUSTER_ITEM.exec(part);
    if (!match || /@/.test(match[1])) return null;
    items.push({ prefix: match[1].trim(), key: match[2] ?? match[3], locator: (match[4] ?? '').trim() });
  }
  return items.length ? items : null;
}

function resolveAll(env: ParseEnv, keys: string[]): string[] | null {
  const ids = keys.map((key) => env.resolvers.citation(key));
  if (ids.some((id) => id === null)) {
    for (const [index, key] of keys.entries()) if (ids[index] === null) env.unknownCitations.add(key);
    return null;
  }
  return ids as string[];
}

function citationToken(state: StateInline, references: CitationReference[], format: string): void {
  const token = state.push('citation', '', 0);
  token.meta = { references, format };
}

/** `[see @a, p. 3; @b]` before markdown-it's own link rule (a citation is no link). */
function bracketCitation(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5b /* [ */) return false;
  const end = state.md.helpers.parseLinkLabel(state, state.pos, false);
  if (end < 0) return false;
  const after = state.src.charAt(end + 1);
  if (after === '(' || after === '[' || after === '{') return false;
  const items = clusterItems(state.src.slice(state.pos + 1, end));
  if (!items) return false;
  const env = state.env as ParseEnv;
  const ids = resolveAll(
    env,
    items.map((item) => item.key),
  );
  if (!ids) return false;
  if (!silent)
    citationToken(
      state,
      items.map((item, index) => ({ id: ids[index], prefix: item.prefix, locator: item.locator })),
      'autocite',
    );
  state.pos = end + 1;
  return true;
}

/** A textual citation `@key` (or `@key [p. 3]`), where `@` starts a word. */
function textualCitation(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
  if (state.pos > 0 && /[\w@]/.test(state.src.charAt(state.pos - 1))) return false;
  const match = KEY.exec(state.src.slice(state.pos + 1));
  if (!match) return false;
  // A bare key does not end in punctuation (the sentence's); a key in braces is all of it.
  const key = match[1] ?? match[2].replace(/[.:,?]+$/, '');
  const env = state.env as ParseEnv;
  const ids = resolveAll(env, [key]);
  if (!ids) return false;
  let next = state.pos + 1 + (match[1] === undefined ? key.length : match[0].length);
  let locator = '';
  const bracket = /^ \[([^\]@]*)\]/.exec(state.src.slice(next));
  if (bracket && state.src.charAt(next + bracket[0].length) !== '(') {
    locator = bracket[1].trim();
    next += bracket[0].length;
  }
  if (!silent) citationToken(state, [{ id: ids[0], prefix: '', locator }], 'textcite');
  state.pos = next;
  return true;
}

/** `$x^2$` (no space inside the dollars, as pandoc reads it) and `$$...$$` within a line. */
function inlineMath(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x24 /* $ */) return false;
  const display = state.src.charCodeAt(state.pos + 1) === 0x24;
  const open = display ? 2 : 1;
  const start = state.pos + open;
  if (!display && /\s/.test(state.src.charAt(start))) return false;
  let end = start;
  for (; end < state.posMax; end++) {
    const char = state.src.charAt(end);
    if (char === '\\') end++;
    else if (char === '$' && (!display || state.src.charAt(end + 1) === '$')) break;
  }
  if (end >= state.posMax || end === start) return false;
  if (!display && (/\s/.test(state.src.charAt(end - 1)) || /\d/.test(state.src.charAt(end + 1))))
    return false;
  if (!silent) state.push('equation', '', 0).content = state.src.slice(start, end).trim();
  state.pos = end + open;
  return true;
}

/** `$$` on its own line(s): a displayed equation (a figure of the equation category). */
function blockMath(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const lineStart = state.bMarks[startLine] + state.tShift[startLine];
  const first = state.src.slice(lineStart, state.eMarks[startLine]).trim();
  if (!first.startsWith('$$') || state.sCount[startLine] - state.blkIndent >= 4) return false;
  let latex = first.slice(2);
  let line = startLine;
  let closed = latex.trimEnd().endsWith('$$') && latex.trim().length >= 2;
  if (closed) latex = latex.trimEnd().slice(0, -2);
  while (!closed && ++line < endLine) {
    const text = state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
    if (text.trimEnd().endsWith('$$')) {
      latex += `\n${text.trimEnd().slice(0, -2)}`;
      closed = true;
    } else latex += `\n${text}`;
  }
  if (!closed || !latex.trim()) return false;
  if (silent) return true;
  state.line = line + 1;
  const token = state.push('display_math', '', 0);
  token.content = latex.trim();
  token.map = [startLine, state.line];
  return true;
}

/** `^sup^` and `~sub~` (no spaces inside, as pandoc reads them). */
function scriptRule(marker: string, name: 'sup' | 'sub') {
  return (state: StateInline, silent: boolean): boolean => {
    if (state.src.charAt(state.pos) !== marker || state.src.charAt(state.pos + 1) === marker) return false;
    const end = state.src.indexOf(marker, state.pos + 1);
    if (end < 0 || end > state.posMax) return false;
    const inner = state.src.slice(state.pos + 1, end);
    if (!inner || /\s/.test(inner)) return false;
    if (!silent) {
      state.push(`${name}_open`, name, 1);
      state.push('text', '', 0).content = inner.replace(/\\(.)/g, '$1');
      state.push(`${name}_close`, name, -1);
    }
    state.pos = end + 1;
    return true;
  };
}

/** `[text]{.underline}` and `[text]{.smallcaps}`: pandoc's bracketed spans for these two. */
function spanRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5b /* [ */) return false;
  const end = state.md.helpers.parseLinkLabel(state, state.pos, false);
  if (end < 0) return false;
  const attr = /^\{\.(underline|smallcaps)\}/.exec(state.src.slice(end + 1));
  if (!attr) return false;
  if (!silent) {
    const max = state.posMax;
    state.push(`${attr[1]}_open`, 'span', 1);
    state.pos += 1;
    state.posMax = end;
    state.md.inline.tokenize(state);
    state.posMax = max;
    state.push(`${attr[1]}_close`, 'span', -1);
  }
  state.pos = end + 1 + attr[0].length;
  return true;
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token('text', '', 0);
  token.content = content;
  return token;
}

/**
 * Token shapes our schema wants: footnotes inline where they are referenced (holding their
 * paragraphs), table cells holding a paragraph, a table's caption from the `: caption` paragraph
 * after it, a paragraph of one library image as a figure, other images as their description,
 * inline code as text (the schema has no code mark).
 */
function reshape(state: StateCore): void {
  const env = state.env as ParseEnv;
  const notes = new Map<number, Token[]>();
  const tokens: Token[] = [];
  let note: Token[] | null = null;
  let inBlock = false;
  for (const token of state.tokens) {
    if (token.type === 'footnote_block_open') inBlock = true;
    else if (token.type === 'footnote_block_close') inBlock = false;
    else if (token.type === 'footnote_open') {
      note = [];
      notes.set(token.meta.id as number, note);
    } else if (token.type === 'footnote_close') note = null;
    else if (token.type === 'footnote_anchor') continue;
    else if (note) note.push(token);
    else if (!inBlock) tokens.push(token);
  }
  const inlineChildren = (children: Token[]): Token[] =>
    children.flatMap((child) => {
      if (child.type === 'footnote_ref') {
        const open = new state.Token('footnote_open', '', 1);
        const close = new state.Token('footnote_close', '', -1);
        const body = notes.get(child.meta.id as number) ?? [];
        return [open, ...body.map((t) => (t.type === 'inline' && t.children ? withChildren(t) : t)), close];
      }
      if (child.type === 'code_inline') return [textToken(state, child.content)];
      if (child.type === 'image') {
        env.unknownImages.add(child.attrGet('src') ?? '');
        return [textToken(state, child.content)];
      }
      return [child];
    });
  const withChildren = (token: Token): Token => {
    token.children = inlineChildren(token.children ?? []);
    return token;
  };
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const next = tokens[i + 1];
    const image = next?.type === 'inline' && next.children?.length === 1 ? next.children[0] : null;
    if (
      token.type === 'paragraph_open' &&
      image?.type === 'image' &&
      tokens[i + 2]?.type === 'paragraph_close'
    ) {
      const src = image.attrGet('src') ?? '';
      const found = env.resolvers.image(src);
      if (found) {
        const figure = new state.Token('figure', '', 0);
        figure.meta = { ...found, caption: image.content };
        out.push(figure);
        i += 2;
        continue;
      }
    }
    if (token.type === 'inline') out.push(withChildren(token));
    else if (token.type === 'th_open' || token.type === 'td_open') {
      out.push(token, new state.Token('paragraph_open', 'p', 1));
    } else if (token.type === 'th_close' || token.type === 'td_close') {
      out.push(new state.Token('paragraph_close', 'p', -1), token);
    } else if (token.type === 'table_close') {
      out.push(token);
      const caption = /^(?:Table)?:\s+(.+)$/s.exec(
        tokens[i + 1]?.type === 'paragraph_open' ? (tokens[i + 2]?.content ?? '') : '',
      );
      if (caption) {
        const open = out.findLast((t) => t.type === 'table_open');
        if (open) open.meta = { caption: caption[1].replace(/\s+/g, ' ').trim() };
        i += 3;
      }
    } else out.push(token);
  }
  state.tokens = out;
}

function tokenizer(): MarkdownIt {
  const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  md.disable('strikethrough');
  // The plugin's types are written against markdown-it's CommonJS types; it is the same object.
  md.use(footnotePlugin as unknown as PluginSimple);
  md.block.ruler.before('fence', 'display_math', blockMath, { alt: ['paragraph'] });
  md.inline.ruler.before('link', 'span', spanRule);
  md.inline.ruler.before('link', 'bracket_citation', bracketCitation);
  md.inline.ruler.before('emphasis', 'math', inlineMath);
  md.inline.ruler.before('emphasis', 'textual_citation', textualCitation);
  md.inline.ruler.before('emphasis', 'sup', scriptRule('^', 'sup'));
  md.inline.ruler.before('emphasis', 'sub', scriptRule('~', 'sub'));
  md.core.ruler.after('footnote_tail', 'scriptorium_shape', reshape);
  return md;
}

const parser = new MarkdownParser(blockSchema, tokenizer(), {
  blockquote: { block: 'blockquote' },
  paragraph: { block: 'paragraph' },
  list_item: { block: 'list_item' },
  bullet_list: { block: 'bullet_list' },
  ordered_list: { block: 'ordered_list', getAttrs: (tok) => ({ start: Number(tok.attrGet('start')) || 1 }) },
  heading: { block: 'heading', getAttrs: (tok) => ({ level: Math.min(6, Number(tok.tag.slice(1)) || 1) }) },
  code_block: { block: 'code_block', noCloseToken: true },
  fence: {
    block: 'code_block',
    getAttrs: (tok) => ({ language: tok.info.trim().split(/\s/)[0] ?? '' }),
    noCloseToken: true,
  },
  hr: { node: 'horizontal_rule' },
  hardbreak: { node: 'hard_break' },
  em: { mark: 'em' },
  strong: { mark: 'strong' },
  sup: { mark: 'sup' },
  sub: { mark: 'sub' },
  underline: { mark: 'underline' },
  smallcaps: { mark: 'smallcaps' },
  link: {
    mark: 'link',
    getAttrs: (tok) => ({ href: tok.attrGet('href') ?? '', title: tok.attrGet('title') ?? '' }),
  },
  equation: { node: 'equation', getAttrs: (tok) => ({ equation: tok.content }) },
  display_math: { node: 'figure', getAttrs: (tok) => ({ category: 'equation', equation: tok.content }) },
  citation: { node: 'citation', getAttrs: (tok) => tok.meta },
  figure: { node: 'figure', getAttrs: (tok) => ({ category: 'figure', ...tok.meta }) },
  footnote: { block: 'footnote' },
  table: { block: 'table', getAttrs: (tok) => ({ caption: tok.meta?.caption ?? '' }) },
  thead: { ignore: true },
  tbody: { ignore: true },
  tr: { block: 'table_row' },
  th: { block: 'table_header' },
  td: { block: 'table_cell' },
});

/** Markdown as blocks of our schema (at least one paragraph). */
export function parseMarkdown(text: string, resolvers: MarkdownResolvers): MarkdownBlocks {
  const env: ParseEnv = { resolvers, unknownCitations: new Set(), unknownImages: new Set() };
  const parsed = parser.parse(text, env);
  const blocks: PMNode[] = [];
  parsed.forEach((block) => {
    blocks.push(schema.nodeFromJSON(block.toJSON()));
  });
  const content = Fragment.from(blocks.length ? blocks : [schema.nodes.paragraph.create()]);
  content.forEach((block) => {
    block.check();
  });
  return { content, unknownCitations: [...env.unknownCitations], unknownImages: [...env.unknownImages] };
}
