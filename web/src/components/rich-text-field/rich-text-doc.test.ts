import { normalizeRichText } from '@scriptorium/common/bibliography/rich-text';
import type { RichText } from '@scriptorium/common/bibliography/types';
import { RICH_TEXT_MARKS } from '@scriptorium/common/bibliography/validate';
import { DOMParser as PMDOMParser, Slice } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import {
  docToRichText,
  docToRichTextList,
  flattenSlice,
  joinLines,
  listSchema,
  richTextListToDoc,
  richTextToDoc,
  singleSchema,
} from './rich-text-doc';

const text = (value: string, ...marks: string[]): RichText[number] =>
  marks.length > 0
    ? { type: 'text', text: value, marks: marks.map((type) => ({ type })) }
    : { type: 'text', text: value };
const variable = (name: string): RichText[number] => ({ type: 'variable', attrs: { variable: name } });

const roundTrip = (value: RichText) => docToRichText(richTextToDoc(value));

describe('rich text <-> ProseMirror document', () => {
  it('has exactly the marks of the bibliography model, in its order', () => {
    expect(Object.keys(singleSchema.marks)).toEqual([...RICH_TEXT_MARKS]);
    expect(Object.keys(listSchema.marks)).toEqual([...RICH_TEXT_MARKS]);
  });

  it.each(RICH_TEXT_MARKS)('round-trips the %s mark', (mark) => {
    const value: RichText = [text('before '), text('marked', mark), text(' after')];
    const doc = richTextToDoc(value);
    expect(doc.firstChild?.child(1).marks.map((m) => m.type.name)).toEqual([mark]);
    expect(roundTrip(value)).toEqual(value);
  });

  it('round-trips combinations of marks', () => {
    const value: RichText = [
      text('a', 'em', 'strong'),
      text('b', 'smallcaps', 'nocase'),
      text('c', 'em', 'sup'),
      text('d', 'strong', 'sub', 'enquote'),
      text('https://example.org', 'url'),
      text('e', ...RICH_TEXT_MARKS),
    ];
    expect(roundTrip(value)).toEqual(value);
  });

  it('puts marks in the canonical order whatever order they came in', () => {
    expect(roundTrip([text('x', 'strong', 'em')])).toEqual([text('x', 'em', 'strong')]);
  });

  it('keeps unresolved @string macros as atoms, unchanged', () => {
    const value: RichText = [variable('pami'), text(' and '), text('more', 'em'), variable('ieee')];
    const doc = richTextToDoc(value);
    expect(doc.firstChild?.child(0).type.name).toBe('variable');
    expect(doc.firstChild?.child(0).isAtom).toBe(true);
    expect(roundTrip(value)).toEqual(value);
    expect(roundTrip([variable('jn')])).toEqual([variable('jn')]);
  });

  it('gives canonical output: merged neighbours, no empty text', () => {
    const value: RichText = [text('Gradient '), text(''), text('Based'), text(' x', 'em'), text('y', 'em')];
    expect(roundTrip(value)).toEqual([text('Gradient Based'), text(' xy', 'em')]);
    expect(roundTrip(value)).toEqual(normalizeRichText(value));
  });

  it('maps empty values to an empty paragraph and back', () => {
    expect(richTextToDoc([]).childCount).toBe(1);
    expect(richTextToDoc([]).firstChild?.childCount).toBe(0);
    expect(roundTrip([])).toEqual([]);
    expect(roundTrip([text('')])).toEqual([]);
    expect(docToRichTextList(richTextListToDoc([]))).toEqual([]);
    expect(docToRichTextList(richTextListToDoc([[]]))).toEqual([]);
  });

  it('drops marks the model does not know instead of failing', () => {
    expect(roundTrip([{ type: 'text', text: 'x', marks: [{ type: 'math' }, { type: 'em' }] }])).toEqual([
      text('x', 'em'),
    ]);
  });

  it('round-trips lists, one paragraph per item', () => {
    const items: RichText[] = [
      [text('Berlin')],
      [text('New '), text('York', 'em')],
      [variable('city'), text(' (', 'nocase'), text('x', 'sup')],
    ];
    const doc = richTextListToDoc(items);
    expect(doc.childCount).toBe(3);
    expect(docToRichTextList(doc)).toEqual(items);
  });

  it('keeps an empty item in the middle of a list (a line just started with Enter)', () => {
    const items: RichText[] = [[text('a')], [], [text('b')]];
    expect(docToRichTextList(richTextListToDoc(items))).toEqual(items);
  });

  it('the single-value schema holds exactly one paragraph', () => {
    const p = singleSchema.nodes.paragraph;
    expect(() => singleSchema.nodes.doc.createChecked(null, [p.create(), p.create()])).toThrow();
    const q = listSchema.nodes.paragraph;
    expect(listSchema.nodes.doc.createChecked(null, [q.create(), q.create()]).childCount).toBe(2);
  });
});

describe('pasting into a single-line field', () => {
  it('joins lines of plain text with spaces', () => {
    expect(joinLines('Deep\nlearning \r\n  in\r\rpractice')).toBe('Deep learning in practice');
    expect(joinLines('one line')).toBe('one line');
  });

  it('joins pasted paragraphs into one, keeping their marks', () => {
    const html = document.createElement('div');
    html.innerHTML = '<p>First <em>part</em></p><p><strong>second</strong> part</p>';
    const slice = PMDOMParser.fromSchema(listSchema).parseSlice(html);
    expect(slice.content.childCount).toBe(2);
    const flat = flattenSlice(slice, singleSchema);
    expect(flat.content.childCount).toBe(1);
    const doc = singleSchema.nodes.doc.create(null, flat.content);
    expect(docToRichText(doc)).toEqual([
      text('First '),
      text('part', 'em'),
      text(' '),
      text('second', 'strong'),
      text(' part'),
    ]);
  });

  it('leaves inline slices alone', () => {
    const slice = new Slice(richTextToDoc([text('x')]).content, 1, 1);
    expect(flattenSlice(slice)).toBe(slice);
  });

  it('reads marks from pasted HTML of other programs', () => {
    const html = document.createElement('div');
    html.innerHTML =
      '<p><i>i</i><b>b</b><b style="font-weight: normal">plain</b><sup>2</sup><sub>3</sub><q>q</q>' +
      '<span style="font-variant: small-caps">sc</span><span data-variable="pami">pami</span></p>';
    const doc = PMDOMParser.fromSchema(singleSchema).parse(html);
    expect(docToRichText(doc)).toEqual([
      text('i', 'em'),
      text('b', 'strong'),
      text('plain'),
      text('2', 'sup'),
      text('3', 'sub'),
      text('q', 'enquote'),
      text('sc', 'smallcaps'),
      variable('pami'),
    ]);
  });
});
