import type { CrossReferenceForm } from '../editor/academic-nodes';
import { pageWordsOfAllLanguages } from '../editor/academic-numbering';
import type { Inline } from './blocks';

/**
 * Page references back to the page forms of cross-references (DOCX PAGEREF, ODT bookmark-ref of
 * format "page"). Our exports write a page form as its words and a page field: "page {PAGEREF}",
 * "{REF} on page {PAGEREF}"; Word users write "see page {PAGEREF}" alike. The words before a page
 * reference become part of it ("page 4" is the page form), and a number reference to the same
 * target before " on page " joins it (the number and page form). The text read stays the title,
 * shown if the target is not found.
 */

const WORDS = pageWordsOfAllLanguages();

function endsWithWords(text: string, words: readonly string[]): string | null {
  const lower = text.toLowerCase();
  for (const word of words) if (lower.endsWith(`${word} `)) return text.slice(text.length - word.length - 1);
  return null;
}

export function pageReferences(items: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (
      item.kind === 'text' &&
      last?.kind === 'text' &&
      JSON.stringify(last.marks) === JSON.stringify(item.marks)
    ) {
      // Text read in pieces (runs, ODF's text:s): one text, so that the words are found whole.
      out[out.length - 1] = { ...last, text: `${last.text}${item.text}` };
      continue;
    }
    if (item.kind !== 'cross_reference' || item.form !== 'page') {
      out.push(item);
      continue;
    }
    const before = out[out.length - 1];
    const number = out[out.length - 2];
    if (
      before?.kind === 'text' &&
      number?.kind === 'cross_reference' &&
      number.target === item.target &&
      (number.form ?? 'number') === 'number' &&
      WORDS.onPage.includes(before.text.trim().toLowerCase())
    ) {
      // "Figure 2" + " on page " + "4": one cross-reference in the number and page form.
      out.length -= 2;
      out.push({
        ...number,
        form: 'number-page' as CrossReferenceForm,
        text: `${number.text}${before.text}${item.text}`,
      });
      continue;
    }
    const words = before?.kind === 'text' ? endsWithWords(before.text, WORDS.page) : null;
    if (before?.kind === 'text' && words) {
      // "page " + "4": the page form; the text before the words stays.
      const rest = before.text.slice(0, before.text.length - words.length);
      if (rest) out[out.length - 1] = { ...before, text: rest };
      else out.pop();
      out.push({ ...item, text: `${words}${item.text}` });
      continue;
    }
    out.push(item);
  }
  return out;
}
