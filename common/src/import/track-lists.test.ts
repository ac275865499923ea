import type { Node as PMNode } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import { schema } from '../editor/schema';
import { checkDocument } from '../editor/templates';
import { blockSuggestions } from '../editor/testing';
import { decideChanges, trackedChanges } from '../editor/track-changes';
import { exportDocx } from '../export/docx';
import { prepareDocument } from '../export/model';
import { sofficeConvert, toolAvailable } from '../testing/office-tools';
import { importDocument } from './index';
import { docxOf, paragraph, run } from './testing/word';

/**
 * Word records the insertion of a whole list with track changes on as text and paragraph marks
 * inserted, nothing more: every run in w:ins, every item's paragraph mark (w:pPr/w:rPr/w:ins). The
 * import records such items as our editor records an inserted list item (a whole new list, or
 * items carrying the insertion), so that rejecting removes them and accepting keeps a plain list.
 */

const BY = 'w:author="Bob" w:date="2024-05-06T07:08:00Z"';
const NUMBERING =
  '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl>' +
  '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl></w:abstractNum>' +
  '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>';

let revision = 0;

/** A list paragraph as Word writes it; `inserted`: its runs and its paragraph mark are Bob's insertion. */
function item(text: string, { inserted = false, level = 0 } = {}): string {
  const mark = inserted ? `<w:rPr><w:ins w:id="${++revision}" ${BY}/></w:rPr>` : '';
  const content = inserted ? `<w:ins w:id="${++revision}" ${BY}>${run(text)}</w:ins>` : run(text);
  return (
    `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="1"/></w:numPr>${mark}</w:pPr>` +
    `${content}</w:p>`
  );
}

const read = (bytes: Uint8Array, name: string) => schema.nodeFromJSON(importDocument(bytes, name).content);
const imported = (body: string) => read(docxOf(body, NUMBERING), 'lists.docx');
const prepared = (doc: PMNode) =>
  prepareDocument({ content: doc.toJSON(), threads: [], images: {}, csl: null });

function decided(doc: PMNode, accept: boolean): PMNode {
  const tr = EditorState.create({ doc }).tr;
  decideChanges(tr, trackedChanges(doc), accept);
  return tr.doc;
}

/** The body's blocks as "type:text", lists as their items' texts. */
function outline(doc: PMNode): string[] {
  const out: string[] = [];
  doc.forEach((part) => {
    if (part.attrs.id !== 'body') return;
    part.forEach((block) => {
      if (block.type.name.endsWith('_list')) {
        const items: string[] = [];
        block.forEach((listItem) => {
          items.push(listItem.textContent);
        });
        out.push(`${block.type.name}:${items.join('|')}`);
      } else out.push(`${block.type.name}:${block.textContent}`);
    });
  });
  return out;
}

function expectSound(doc: PMNode) {
  doc.check();
  expect(checkDocument(doc)).toEqual([]);
}

describe("Word's tracked insertion of list items", () => {
  it('a whole new list: rejecting removes it, accepting keeps a plain list', () => {
    const doc = imported(
      paragraph(run('Before.')) +
        item('First', { inserted: true }) +
        item('Second', { inserted: true }) +
        item('Third', { inserted: true }) +
        paragraph(run('After.')),
    );
    expectSound(doc);
    expect(blockSuggestions(doc)).toEqual(['insertion:bullet_list:FirstSecondThird']);
    const rejected = decided(doc, false);
    const accepted = decided(doc, true);
    expectSound(rejected);
    expectSound(accepted);
    expect(outline(rejected)).toEqual(['paragraph:Before.', 'paragraph:After.']);
    expect(outline(accepted)).toEqual([
      'paragraph:Before.',
      'bullet_list:First|Second|Third',
      'paragraph:After.',
    ]);
    expect(trackedChanges(accepted)).toEqual([]);
    expect(trackedChanges(rejected)).toEqual([]);
  });

  it('items added at the end and in the middle of a list: each item carries the insertion', () => {
    const doc = imported(
      item('Alpha') +
        item('New one', { inserted: true }) +
        item('Beta') +
        item('Gamma', { inserted: true }) +
        item('Delta', { inserted: true }) +
        paragraph(run('After.')),
    );
    expectSound(doc);
    expect(blockSuggestions(doc)).toEqual([
      'insertion:list_item:New one',
      'insertion:list_item:Gamma',
      'insertion:list_item:Delta',
    ]);
    const rejected = decided(doc, false);
    const accepted = decided(doc, true);
    expectSound(rejected);
    expectSound(accepted);
    expect(outline(rejected)).toEqual(['bullet_list:Alpha|Beta', 'paragraph:After.']);
    expect(outline(accepted)).toEqual(['bullet_list:Alpha|New one|Beta|Gamma|Delta', 'paragraph:After.']);
    expect(trackedChanges(rejected)).toEqual([]);
    expect(trackedChanges(accepted)).toEqual([]);
  });

  it('a new list with a nested one is one insertion; a first item inserted alone is removed whole', () => {
    const nested = imported(
      item('Top', { inserted: true }) +
        item('Under', { inserted: true, level: 1 }) +
        item('Next', { inserted: true }) +
        paragraph(run('After.')),
    );
    expectSound(nested);
    expect(blockSuggestions(nested)).toEqual(['insertion:bullet_list:TopUnderNext']);
    expect(outline(decided(nested, false))).toEqual(['paragraph:After.']);
    const accepted = decided(nested, true);
    expectSound(accepted);
    expect(outline(accepted)).toEqual(['bullet_list:TopUnder|Next', 'paragraph:After.']);

    const first = imported(item('Added', { inserted: true }) + item('Kept') + paragraph(run('After.')));
    expect(blockSuggestions(first)).toEqual(['insertion:list_item:Added']);
    const rejected = decided(first, false);
    expectSound(rejected);
    expect(outline(rejected)).toEqual(['bullet_list:Kept', 'paragraph:After.']);
  });

  it("a list typed after Enter: the paragraph mark before it inserted, the last item's not", () => {
    // Enter at the end of "Before.": its paragraph mark is the new one; the last item's mark is
    // the one "Before." had, numbered now (w:pPrChange).
    const ins = (id: number) => `<w:rPr><w:ins w:id="${id}" ${BY}/></w:rPr>`;
    const doc = imported(
      `<w:p><w:pPr>${ins(80)}</w:pPr>${run('Before.')}</w:p>` +
        item('First', { inserted: true }) +
        item('Second')
          .replace('</w:numPr>', `</w:numPr><w:pPrChange w:id="81" ${BY}><w:pPr/></w:pPrChange>`)
          .replace(
            run('Second'),
            `<w:ins w:id="82" w:author="Bob" w:date="2024-05-06T07:09:00Z">${run('Second')}</w:ins>`,
          ) +
        paragraph(run('After.')),
    );
    expectSound(doc);
    expect(blockSuggestions(doc)).toEqual(['insertion:bullet_list:FirstSecond']);
    const rejected = decided(doc, false);
    expectSound(rejected);
    expect(outline(rejected)).toEqual(['paragraph:Before.', 'paragraph:After.']);
    expect(outline(decided(doc, true))).toEqual([
      'paragraph:Before.',
      'bullet_list:First|Second',
      'paragraph:After.',
    ]);
  });

  it('an item whose text is only partly inserted stays a split, as before', () => {
    // Enter at the end of "Alpha" and typing: Alpha's paragraph mark is the inserted one.
    const mark = `<w:rPr><w:ins w:id="90" ${BY}/></w:rPr>`;
    const doc = imported(
      item('Alpha').replace('</w:numPr>', `</w:numPr>${mark}`) +
        item('Typed', { inserted: false }).replace(
          run('Typed'),
          `<w:ins w:id="91" ${BY}>${run('Typed')}</w:ins>`,
        ),
    );
    expect(blockSuggestions(doc)).toEqual(['insertion:list_item:Typed']);
    expect(outline(decided(doc, false))).toEqual(['bullet_list:Alpha']);
  });
});

describe('the same lists through other writers', () => {
  // A new list, and items added to a list that was there.
  const body =
    paragraph(run('Before.')) +
    item('First', { inserted: true }) +
    item('Second', { inserted: true }) +
    paragraph(run('Middle.')) +
    item('Alpha') +
    item('New one', { inserted: true }) +
    item('Beta') +
    item('Gamma', { inserted: true }) +
    paragraph(run('After.'));
  const suggestions = [
    'insertion:bullet_list:FirstSecond',
    'insertion:list_item:New one',
    'insertion:list_item:Gamma',
  ];
  const rejected = ['paragraph:Before.', 'paragraph:Middle.', 'bullet_list:Alpha|Beta', 'paragraph:After.'];
  const accepted = [
    'paragraph:Before.',
    'bullet_list:First|Second',
    'paragraph:Middle.',
    'bullet_list:Alpha|New one|Beta|Gamma',
    'paragraph:After.',
  ];

  // Our exports write the template's other parts into the body too: compared from "Before." on.
  const fromBefore = (doc: PMNode) => {
    const blocks = outline(doc);
    return blocks.slice(blocks.indexOf('paragraph:Before.'));
  };

  function expectSame(doc: PMNode) {
    expectSound(doc);
    expect(blockSuggestions(doc)).toEqual(suggestions);
    expect(fromBefore(decided(doc, false))).toEqual(rejected);
    expect(fromBefore(decided(doc, true))).toEqual(accepted);
  }

  it('comes back the same from our own DOCX', () => {
    // (Our ODT closes the insertion region inside each item's paragraph: its items come back as
    // inserted text only.)
    const doc = imported(body);
    expectSame(doc);
    expectSame(read(exportDocx(prepared(doc)), 'again.docx'));
  });

  it.runIf(toolAvailable('soffice'))(
    "reads LibreOffice's ODT of Word's file (one insertion region from the first item's text on) the same",
    () => {
      expectSame(read(sofficeConvert(docxOf(body, NUMBERING), 'docx', 'odt'), 'lists.odt'));
    },
    180_000,
  );
});
