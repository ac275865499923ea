import type { TrackedChange } from '@scriptorium/common/editor/track-changes';
import type { Node as PMNode } from 'prosemirror-model';

/**
 * What a suggestion card quotes: the text a change inserts, deletes or formats, shortened, so a
 * reviewer can decide without looking for it in the text. Atoms (citations, cross-references,
 * equations) are quoted as the editor shows them, through `leaf`.
 */

/** How many characters of a change a card quotes before it cuts with an ellipsis. */
export const QUOTE_MAX = 60;

/** `text` with its white space collapsed, cut after `max` characters (at a word when one ends near). */
export function shorten(text: string, max = QUOTE_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  // Cut at the last word boundary unless that throws away most of a long word.
  const kept = space >= max * 0.75 ? cut.slice(0, space) : cut;
  return `${kept.trimEnd()}…`;
}

/** The text of an atom as the editor shows it (a rendered citation, a reference's number). */
export type LeafText = (node: PMNode, pos: number) => string | null;

/** An atom's text without the editor's renderings: an equation's LaTeX, a line break's space. */
function plainLeafText(node: PMNode): string {
  if (node.type.name === 'equation') return `$${node.attrs.equation}$`;
  if (node.type.name === 'hard_break') return ' ';
  return node.type.spec.leafText?.(node) ?? '';
}

/** The text between `from` and `to`, blocks separated by a space, atoms through `leaf`. */
export function textOfRange(doc: PMNode, from: number, to: number, leaf: LeafText = () => null): string {
  let text = '';
  let textblockSeen = false;
  doc.nodesBetween(from, to, (node, pos) => {
    if (node.isText) {
      text += (node.text ?? '').slice(Math.max(from, pos) - pos, to - pos);
      return false;
    }
    if (node.isTextblock) {
      if (textblockSeen) text += ' ';
      textblockSeen = true;
      return true;
    }
    if (node.isBlock && !node.isAtom) return true;
    if (node.isLeaf || node.isAtom) {
      const shown = leaf(node, pos);
      text += shown ?? plainLeafText(node);
      // An atom with content (a note) is quoted by its text unless `leaf` said otherwise.
      return shown === null && !node.isLeaf;
    }
    return true;
  });
  return text;
}

export type QuoteKind = 'inserted' | 'deleted' | 'formatted';

/**
 * What the card of `change` quotes, or null when there is nothing to quote: a new paragraph, a
 * join and a paragraph style change name what they do; text, whole blocks (a table, a row, a
 * list) and formatting quote their text.
 */
export function changeQuote(
  doc: PMNode,
  change: TrackedChange,
  leaf?: LeafText,
  max = QUOTE_MAX,
): { kind: QuoteKind; text: string } | null {
  if (change.block && !change.whole) return null;
  const kind: QuoteKind =
    change.type === 'insertion' ? 'inserted' : change.type === 'deletion' ? 'deleted' : 'formatted';
  if (change.type === 'block_change') return null;
  const from = Math.max(0, Math.min(change.from, doc.content.size));
  const to = Math.max(from, Math.min(change.to, doc.content.size));
  const text = shorten(textOfRange(doc, from, to, leaf), max);
  return text ? { kind, text } : null;
}
