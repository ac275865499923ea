import {
  defaultMarkdownSerializer,
  MarkdownSerializer,
  type MarkdownSerializerState,
} from 'prosemirror-markdown';
import type { Node as PMNode } from 'prosemirror-model';
import { exportCslItems } from '../bibliography/export';
import type { EntryData } from '../bibliography/types';
import type { CitationReference } from '../editor/academic-nodes';
import { FEATURE_NODE_NAMES, writeNode } from '../features/registry';
import { authorName, isEquationFigure, type PreparedDocument, targetOf } from './model';

/** An equation's TeX between dollars: a bare `$` in it would end the math, so it is `\$`. */
function mathSource(equation: unknown): string {
  return String(equation)
    .trim()
    .replace(/\\?\$/g, (dollar) => (dollar === '$' ? '\\$' : dollar));
}

/**
 * Pandoc's Markdown (issue 57: documents read as Markdown through the API; also an export
 * format): a YAML header with the title, authors, keywords, abstract and the cited entries as
 * CSL items (`references:`), then the body with pandoc citations (`[@key, p. 3]`), `$math$`,
 * notes (`[^1]`) and pipe tables, so that `pandoc --citeproc` typesets it as it stands.
 * The header's values are written as JSON, which YAML reads as they are.
 */
export function exportMarkdown(prepared: PreparedDocument): Uint8Array {
  return new TextEncoder().encode(documentMarkdown(prepared));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: those are exactly what must go.
const NOT_MARKDOWN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

export function documentMarkdown(prepared: PreparedDocument): string {
  const keys = citationKeys(prepared.entries);
  const serializer = bodySerializer(prepared, keys);
  const notes: string[] = [];
  // The abstract's notes come first: pandoc finds their texts after the body as the others'.
  const header = yamlHeader(prepared, keys, serializer, notes);
  const body = prepared.body
    .filter((part) => part.type.name === 'richtext_part' || part.type.name === 'separator_part')
    .map((part) => (part.type.name === 'separator_part' ? '---' : serializeWith(serializer, part, notes)))
    .filter(Boolean)
    .join('\n\n');
  const noteTexts = notes.map((text, index) => `[^${index + 1}]: ${indentAfterFirst(text, '    ')}`);
  const markdown = `${[header, body, ...(noteTexts.length ? [noteTexts.join('\n\n')] : [])].join('\n\n')}\n`;
  // Control characters show nothing, and pandoc's YAML reader refuses the whole file for one.
  return markdown.replace(NOT_MARKDOWN_TEXT, '');
}

/** The key each cited entry gets in the Markdown: its BibTeX key, made unique; else its id. */
function citationKeys(entries: ReadonlyMap<string, EntryData>): Map<string, string> {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const [id, entry] of entries) {
    const base = /^[\w][\w:.#$%&+?<>~/-]*$/.test(entry.entry_key) ? entry.entry_key : `ref-${id}`;
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
    taken.add(key);
    keys.set(id, key);
  }
  return keys;
}

function yamlHeader(
  prepared: PreparedDocument,
  keys: Map<string, string>,
  serializer: MarkdownSerializer,
  notes: string[],
): string {
  const lines = ['---', `title: ${JSON.stringify(prepared.title)}`];
  if (prepared.subtitle) lines.push(`subtitle: ${JSON.stringify(prepared.subtitle)}`);
  if (prepared.authors.length) {
    lines.push('author:');
    for (const person of prepared.authors) {
      lines.push(`  - name: ${JSON.stringify(authorName(person))}`);
      if (person.institution) lines.push(`    affiliation: ${JSON.stringify(person.institution)}`);
      if (person.email) lines.push(`    email: ${JSON.stringify(person.email)}`);
      if (person.orcid) lines.push(`    orcid: ${JSON.stringify(person.orcid)}`);
    }
  }
  if (prepared.keywords.length) lines.push(`keywords: ${JSON.stringify(prepared.keywords)}`);
  lines.push(`lang: ${JSON.stringify(prepared.language)}`);
  if (prepared.abstract) {
    const abstract = serializeWith(serializer, prepared.abstract, notes);
    if (abstract.trim()) lines.push('abstract: |', ...abstract.split('\n').map((line) => `  ${line}`));
  }
  const ids = [...prepared.entries.keys()];
  if (ids.length) {
    const items = exportCslItems(ids.map((id) => prepared.entries.get(id) as EntryData));
    lines.push('references:');
    items.forEach((item, index) => {
      lines.push(`  - ${JSON.stringify({ ...item, id: keys.get(ids[index]) })}`);
    });
  }
  lines.push('---');
  return lines.join('\n');
}

function indentAfterFirst(text: string, indent: string): string {
  return text
    .trim()
    .split('\n')
    .map((line, index) => (index === 0 || line === '' ? line : indent + line))
    .join('\n');
}

/** Serializes a node's content; `notes` collects its notes' texts (numbered in order). */
function serializeWith(serializer: MarkdownSerializer, node: PMNode, notes: string[]): string {
  return serializer.serialize(node, { tightLists: true, notes } as { tightLists: boolean });
}

function notesOf(state: MarkdownSerializerState): string[] {
  return (state.options as { notes?: string[] }).notes ?? [];
}

function citation(
  references: CitationReference[],
  textual: boolean,
  keys: Map<string, string>,
  glued = false,
): string {
  const cite = (ref: CitationReference) => `@${keys.get(ref.id) ?? ref.id}`;
  if (textual)
    return references
      .map((ref, n) => {
        const last = n === references.length - 1;
        if (ref.locator) return `${cite(ref)} [${ref.locator}]`;
        return last && glued ? `@{${keys.get(ref.id) ?? ref.id}}` : cite(ref);
      })
      .join(', ');
  const items = references.map(
    (ref) => `${ref.prefix ? `${ref.prefix} ` : ''}${cite(ref)}${ref.locator ? `, ${ref.locator}` : ''}`,
  );
  return `[${items.join('; ')}]`;
}

function cellText(serializer: MarkdownSerializer, cell: PMNode, notes: string[]): string {
  return (
    serializeWith(serializer, cell, notes)
      .trim()
      .replace(/\s*\n+\s*/g, ' ')
      // Every pipe not yet escaped is: a nested table's cells already escape their own pipes, and a
      // second backslash would escape the first and leave the pipe a cell's end.
      .replace(/(\\*)\|/g, (pipe, slashes: string) => (slashes.length % 2 ? pipe : `${slashes}\\|`))
  );
}

function bodySerializer(prepared: PreparedDocument, keys: Map<string, string>): MarkdownSerializer {
  const base = defaultMarkdownSerializer.nodes;
  let serializer: MarkdownSerializer;
  const nodes: Record<
    string,
    (state: MarkdownSerializerState, node: PMNode, parent: PMNode, index: number) => void
  > = {
    blockquote: base.blockquote,
    heading(state, node) {
      // The document's heading numbering, as text before the heading's own.
      const display = prepared.numbers.get(node)?.display;
      state.write(`${'#'.repeat(Number(node.attrs.level))} ${display ? `${display} ` : ''}`);
      state.renderInline(node, false);
      state.closeBlock(node);
    },
    horizontal_rule: base.horizontal_rule,
    bullet_list: base.bullet_list,
    list_item: base.list_item,
    paragraph: base.paragraph,
    hard_break: base.hard_break,
    text: base.text,
    ordered_list(state, node) {
      const start = Number(node.attrs.start) || 1;
      const width = String(start + node.childCount - 1).length;
      state.renderList(node, ' '.repeat(width + 2), (index) => `${String(start + index).padStart(width)}. `);
    },
    code_block(state, node) {
      const fence = node.textContent.includes('```') ? '~~~~' : '```';
      state.write(`${fence}${String(node.attrs.language ?? '')}\n`);
      state.text(node.textContent, false);
      state.ensureNewLine();
      state.write(fence);
      state.closeBlock(node);
    },
    equation(state, node, parent, index) {
      // Two equations side by side would read "$a$$b$", and "$$" opens display math: an empty
      // span between them keeps them apart and shows nothing.
      const apart = index > 0 && parent.child(index - 1).type.name === 'equation' ? '[]{}' : '';
      const source = mathSource(node.attrs.equation);
      // An empty one is nothing: "$$" would open display math and swallow what follows.
      if (source) state.write(`${apart}$${source}$`);
    },
    citation(state, node, parent, index) {
      const references = node.attrs.references as CitationReference[];
      // Text right after `@key` would be read as more of the key: pandoc's `@{key}` ends it.
      const after = parent.maybeChild(index + 1);
      const glued = after?.isText === true && /^([\w]|[:.#$%&+?<>~/-]\w)/.test(after.text ?? '');
      if (references.length) state.write(citation(references, node.attrs.format === 'textcite', keys, glued));
    },
    cross_reference(state, node) {
      const target = targetOf(prepared, String(node.attrs.id));
      // A target that is gone: its last title, else "??" as every other format writes (never its bare id).
      state.text(target?.label ?? String(node.attrs.title || '??'));
    },
    figure(state, node) {
      const caption = String(node.attrs.caption);
      if (isEquationFigure(node)) {
        // An empty one is nothing ("$$$$" is no math: pandoc shows the dollars).
        const source = mathSource(node.attrs.equation);
        if (source) state.write(`$$${source}$$`);
        // Pandoc's display math has no caption: it follows as a paragraph of its own.
        if (caption) {
          if (source) state.closeBlock(node);
          state.text(caption);
        }
      } else if (node.attrs.src) {
        state.write(`![${state.esc(caption)}](${String(node.attrs.src).replace(/[()]/g, '\\$&')})`);
      } else if (caption) state.text(caption);
      state.closeBlock(node);
    },
    table(state, node) {
      const notes = notesOf(state);
      const rows: string[][] = [];
      node.forEach((row) => {
        const cells: string[] = [];
        row.forEach((cell) => {
          cells.push(cellText(serializer, cell, notes));
          // A merged cell stands once in its place; the columns it spans stay empty.
          for (let span = 1; span < Number(cell.attrs.colspan ?? 1); span++) cells.push('');
        });
        rows.push(cells);
      });
      const width = Math.max(1, ...rows.map((row) => row.length));
      const line = (cells: string[]) =>
        `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
      const [head = [], ...rest] = rows;
      const lines = [line(head), line(Array(width).fill('---')), ...rest.map(line)];
      if (node.attrs.caption) lines.push('', `: ${state.esc(String(node.attrs.caption))}`);
      // Line by line: each line gets the enclosing prefix ("> " in a quote, a list item's indent),
      // which a newline inside one write would not.
      lines.forEach((text, index) => {
        if (index) state.ensureNewLine();
        state.write(text);
      });
      state.closeBlock(node);
    },
  };
  // The features' nodes (common/src/features/registry.ts); a note is pandoc's `[^n]`, its text
  // collected in `notes` and written after the body.
  for (const name of FEATURE_NODE_NAMES)
    nodes[name] = (state, node) => {
      const writer = {
        note(note: PMNode) {
          const notes = notesOf(state);
          notes.push(serializeWith(serializer, note, notes));
          return `[^${notes.length}]`;
        },
      };
      state.write(writeNode(writer, node));
    };
  serializer = new MarkdownSerializer(
    nodes,
    {
      em: { open: '*', close: '*', mixable: true, expelEnclosingWhitespace: true },
      strong: { open: '**', close: '**', mixable: true, expelEnclosingWhitespace: true },
      sup: { open: '^', close: '^' },
      sub: { open: '~', close: '~' },
      underline: { open: '[', close: ']{.underline}' },
      smallcaps: { open: '[', close: ']{.smallcaps}' },
      link: defaultMarkdownSerializer.marks.link,
    },
    // Other marks (comments, tracked changes) carry nothing Markdown can say; `@`, `$`, `^` and
    // `~` in text are escaped so that pandoc reads no citation, math, sup or sub in them.
    { strict: false, escapeExtraCharacters: /[@$^~]/g },
  );
  return serializer;
}
