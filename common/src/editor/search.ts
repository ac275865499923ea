import type { Node as PMNode } from 'prosemirror-model';
import type { EditorState, Transaction } from 'prosemirror-state';

/** Search and replace over a document's text blocks (notes included), as pure functions. */

export interface SearchQuery {
  text: string;
  caseSensitive: boolean;
  wholeWord: boolean;
  regex: boolean;
}

export interface SearchMatch {
  from: number;
  to: number;
  /** The matched text, and its groups for `$1` in a regular-expression replacement. */
  match: RegExpExecArray;
}

/** Stands in for inline nodes (notes, breaks) so that matches never run across them. */
const OBJECT = '\ufffc';

/** The compiled pattern, or null for an empty query or an invalid regular expression. */
export function compileQuery(query: SearchQuery): RegExp | null {
  if (!query.text) return null;
  let source = query.regex ? query.text : query.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Unicode-aware word boundaries: \b only knows ASCII letters, which breaks Bulgarian or "über".
  if (query.wholeWord) source = `(?<![\\p{L}\\p{N}_])(?:${source})(?![\\p{L}\\p{N}_])`;
  try {
    const pattern = new RegExp(source, `gu${query.caseSensitive ? '' : 'i'}`);
    // A pattern that can match the empty string would match between every two characters.
    return pattern.test('') ? null : pattern;
  } catch {
    return null;
  }
}

export function findMatches(doc: PMNode, query: SearchQuery): SearchMatch[] {
  const pattern = compileQuery(query);
  if (!pattern) return [];
  const matches: SearchMatch[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    // Text of this block with one character per position, objects as OBJECT.
    let text = '';
    const offsets: number[] = [];
    node.forEach((child, offset) => {
      if (child.isText) {
        const value = child.text ?? '';
        for (let i = 0; i < value.length; i++) offsets.push(pos + 1 + offset + i);
        text += value;
      } else {
        offsets.push(pos + 1 + offset);
        text += OBJECT;
      }
    });
    offsets.push(pos + 1 + node.content.size);
    pattern.lastIndex = 0;
    for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
      if (found[0].includes(OBJECT)) continue;
      matches.push({ from: offsets[found.index], to: offsets[found.index + found[0].length], match: found });
    }
    // Notes inside this block are searched by the descent into them.
    return true;
  });
  return matches.sort((a, b) => a.from - b.from);
}

/** The text that replaces one match: `$1`, `$&` and so on work for regular expressions. */
export function replacementFor(match: SearchMatch, query: SearchQuery, replacement: string): string {
  if (!query.regex) return replacement;
  const pattern = compileQuery(query);
  if (!pattern) return replacement;
  pattern.lastIndex = 0;
  return match.match[0].replace(new RegExp(pattern.source, pattern.flags.replace('g', '')), replacement);
}

function replaceRange(tr: Transaction, from: number, to: number, text: string): void {
  const mappedFrom = tr.mapping.map(from);
  const mappedTo = tr.mapping.map(to);
  // The replacement takes the formatting of the text it replaces.
  const marks = tr.doc.resolve(mappedFrom).marksAcross(tr.doc.resolve(mappedTo)) ?? [];
  if (text) tr.replaceWith(mappedFrom, mappedTo, tr.doc.type.schema.text(text, marks));
  else tr.delete(mappedFrom, mappedTo);
}

/** Replaces one match (the current one); null when it no longer matches. */
export function replaceOne(
  state: EditorState,
  query: SearchQuery,
  target: { from: number; to: number },
  replacement: string,
): Transaction | null {
  const match = findMatches(state.doc, query).find((m) => m.from === target.from && m.to === target.to);
  if (!match) return null;
  const tr = state.tr;
  replaceRange(tr, match.from, match.to, replacementFor(match, query, replacement));
  return tr;
}

/** Replaces every match in one transaction, so that one undo brings them all back. */
export function replaceAll(state: EditorState, query: SearchQuery, replacement: string): Transaction | null {
  const matches = findMatches(state.doc, query);
  if (!matches.length) return null;
  const tr = state.tr;
  for (const match of matches)
    replaceRange(tr, match.from, match.to, replacementFor(match, query, replacement));
  return tr;
}
