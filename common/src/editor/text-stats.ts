import type { Node as PMNode } from 'prosemirror-model';

/** Word and character counts, as shown in the word count dialog. */
export interface TextStats {
  words: number;
  characters: number;
  charactersWithoutSpaces: number;
}

/**
 * The plain text of a range, blocks and inline objects separated by a line break so that words of
 * two paragraphs (or a word and its note) never merge. A note's text counts too.
 */
export function plainText(doc: PMNode, from = 0, to = doc.content.size): string {
  const parts: string[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    if (node.isText) {
      parts.push((node.text ?? '').slice(Math.max(0, from - pos), Math.max(0, to - pos)));
      return false;
    }
    if (node.isBlock || !node.isText) parts.push('\n');
    if (node.isInline && node.content.size) {
      // A note: its own text, then a break so that the word after it stays apart.
      const start = Math.max(0, from - pos - 1);
      const end = Math.min(node.content.size, to - pos - 1);
      if (end > start) parts.push(plainText(node, start, end), '\n');
      return false;
    }
    return true;
  });
  return parts.join('');
}

const wordSegmenters = new Map<string, Intl.Segmenter>();

/** The word-like segments of `text` in the language's word segmentation (one segmenter per language). */
function wordsIn(text: string, language: string): number {
  let segmenter = wordSegmenters.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: 'word' });
    wordSegmenters.set(language, segmenter);
  }
  let words = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) words++;
  return words;
}

/** Counts words with the language's word segmentation (works for scripts without spaces too). */
export function countText(text: string, language = 'en'): TextStats {
  const words = wordsIn(text, language);
  const graphemes = new Intl.Segmenter(language, { granularity: 'grapheme' });
  let characters = 0;
  let spaces = 0;
  for (const { segment } of graphemes.segment(text.replace(/\n/g, ''))) {
    characters++;
    if (/^\s+$/u.test(segment)) spaces++;
  }
  return { words, characters, charactersWithoutSpaces: characters - spaces };
}

export function countDocument(doc: PMNode, from?: number, to?: number): TextStats {
  return countText(plainText(doc, from, to), String(doc.attrs.language ?? 'en'));
}

/**
 * Each block's word count, kept per node and language: ProseMirror keeps an unchanged block as the
 * same object, so counting again after a keystroke segments only the changed textblock (the whole
 * of a 500-paragraph paper took a task of about 20 ms after every pause in typing).
 */
const blockWords = new WeakMap<PMNode, { language: string; words: number }>();

/**
 * The document's words, as `countDocument(doc).words`. A word never crosses the edge of a block
 * (plainText breaks the line there), so a block holds the sum of its children's words.
 */
export function countWords(doc: PMNode): number {
  const language = String(doc.attrs.language ?? 'en');
  const words = (node: PMNode): number => {
    const known = blockWords.get(node);
    if (known?.language === language) return known.words;
    let count = 0;
    if (node.inlineContent) count = wordsIn(plainText(node), language);
    else
      node.forEach((child) => {
        count += words(child);
      });
    blockWords.set(node, { language, words: count });
    return count;
  };
  return words(doc);
}
