import { describe, expect, it } from 'vitest';
import { importDocument } from './index';
import type { ImportedDocument } from './model';
import { base64, docxOf, field, oneAuthorCitationsDocx, paragraph, pieces, run } from './testing/word';

/**
 * The citations reference managers leave in a DOCX, written the way each one writes them (our own
 * payloads of their shapes): Mendeley Desktop's and Mendeley Cite's CSL-JSON, EndNote's XML inline
 * or in base64 field data, Citavi's base64 Json.NET with $id/$ref.
 */

type Json = Record<string, unknown>;

const p = paragraph;

function body(doc: ImportedDocument): Json[] {
  const part = (doc.content.content as Json[]).find((p) => (p.attrs as Json | undefined)?.id === 'body');
  return (part?.content as Json[]) ?? [];
}

function citations(doc: ImportedDocument): unknown[] {
  const found: unknown[] = [];
  const visit = (node: Json) => {
    if (node.type === 'citation') found.push((node.attrs as Json).references);
    for (const child of (node.content as Json[] | undefined) ?? []) visit(child);
  };
  body(doc).forEach(visit);
  return found;
}

const plain = (doc: ImportedDocument) =>
  JSON.stringify(body(doc))
    .match(/"text":"[^"]*"/g)
    ?.map((t) => t.slice(8, -1))
    .join('') ?? '';

/** An entry of the imported bibliography, reduced to what the tests compare. */
function summary(doc: ImportedDocument) {
  return doc.bibliography.map(({ key, data }) => ({
    key,
    type: data.bib_type,
    title: data.fields.title,
    author: data.fields.author,
    date: data.fields.date,
  }));
}

const text = (value: string) => [{ type: 'text', text: value }];
const person = (family: string, given: string) => ({ family: text(family), given: text(given) });

describe('Mendeley citations', () => {
  const roe = {
    id: 'ITEM-1',
    itemData: {
      id: 'ITEM-1',
      type: 'book',
      title: 'Old Roads',
      author: [
        {
          family: 'Roe',
          given: 'Rick',
          'parse-names': false,
          'dropping-particle': '',
          'non-dropping-particle': '',
        },
      ],
      issued: { 'date-parts': [['2018']] },
      publisher: 'Press',
    },
    uris: ['http://www.mendeley.com/documents/?uuid=0a1b2c3d-0000-4000-8000-000000000001'],
    locator: '45',
    label: 'page',
    prefix: 'see',
  };
  // Mendeley Desktop numbers the items of each citation from ITEM-1: the same number is another
  // work in the next citation, and an item without uris is known by what it is.
  const poe = (id: string) => ({
    id,
    itemData: {
      id,
      type: 'article-journal',
      title: 'New Paths',
      author: [{ family: 'Poe', given: 'Pat' }],
      'container-title': 'Journal of Ways',
      issued: { 'date-parts': [[2019, 3]] },
      DOI: '10.1000/paths',
    },
    locator: '2',
    label: 'chapter',
  });
  const desktop = (items: unknown[], rendered: string) =>
    JSON.stringify({
      citationItems: items,
      mendeley: {
        formattedCitation: rendered,
        plainTextFormattedCitation: rendered,
        previouslyFormattedCitation: rendered,
      },
      properties: { noteIndex: 0 },
      schema: 'https://github.com/citation-style-language/schema/raw/master/csl-citation.json',
    });

  it('reads Mendeley Desktop fields: several items, prefix and locator, items numbered per citation', () => {
    const first = desktop([roe, poe('ITEM-2')], '(see Roe 2018, 45; Poe 2019, chap. 2)');
    const second = desktop([poe('ITEM-1')], '(Poe 2019, chap. 2)');
    const doc = importDocument(
      docxOf(
        p(
          run('As argued '),
          field(pieces(` ADDIN CSL_CITATION ${first} `, 120), '(see Roe 2018, 45; Poe 2019, chap. 2)'),
          run(' and '),
          field([` ADDIN CSL_CITATION ${second}`], '(Poe 2019, chap. 2)'),
          run('.'),
        ) + p(field([' ADDIN Mendeley Bibliography CSL_BIBLIOGRAPHY '], 'Roe, R. (2018). Old Roads. Press.')),
      ),
      'mendeley.docx',
    );
    const [roeKey, poeKey] = doc.bibliography.map((entry) => entry.key);
    expect(summary(doc)).toEqual([
      { key: roeKey, type: 'book', title: text('Old Roads'), author: [person('Roe', 'Rick')], date: '2018' },
      {
        key: poeKey,
        type: 'article-journal',
        title: text('New Paths'),
        author: [person('Poe', 'Pat')],
        date: '2019-03',
      },
    ]);
    expect(citations(doc)).toEqual([
      [
        { id: roeKey, prefix: 'see', locator: '45' },
        { id: poeKey, prefix: '', locator: 'chapter 2' },
      ],
      [{ id: poeKey, prefix: '', locator: 'chapter 2' }],
    ]);
    expect(plain(doc)).toBe('As argued  and .');
    expect(doc.notes).toEqual([]);
  });

  it('reads Mendeley Cite content controls and drops its rendered bibliography', () => {
    const payload = {
      citationID: 'MENDELEY_CITATION_5b7c1d2e-0000-4000-8000-00000000000a',
      properties: { noteIndex: 0 },
      isEdited: false,
      manualOverride: {
        isManuallyOverridden: false,
        citeprocText: '(cf. Ng, 2021, pp. 3–4)',
        manualOverrideText: '',
      },
      citationItems: [
        {
          id: '7e0c5a1f-0000-4000-8000-0000000000b1',
          itemData: {
            type: 'article-journal',
            id: '7e0c5a1f-0000-4000-8000-0000000000b1',
            title: 'Ünïcode Matters',
            author: [
              {
                family: 'Ng',
                given: 'Ann',
                'parse-names': false,
                'dropping-particle': '',
                'non-dropping-particle': '',
              },
            ],
            'container-title': 'Letters',
            issued: { 'date-parts': [[2021]] },
            volume: '4',
          },
          isTemporary: false,
          locator: '3-4',
          label: 'page',
          prefix: 'cf.',
        },
      ],
    };
    const cite = (tag: string, rendered: string) =>
      `<w:sdt><w:sdtPr><w:tag w:val="${tag}"/><w:id w:val="-1"/></w:sdtPr><w:sdtContent>${run(rendered)}</w:sdtContent></w:sdt>`;
    const doc = importDocument(
      docxOf(
        p(
          run('Known '),
          cite(`MENDELEY_CITATION_v3_${base64(JSON.stringify(payload))}`, '(cf. Ng, 2021, pp. 3–4)'),
          run('.'),
        ) +
          `<w:sdt><w:sdtPr><w:tag w:val="MENDELEY_BIBLIOGRAPHY"/></w:sdtPr><w:sdtContent>${p(run('Ng, A. (2021). Ünïcode Matters.'))}</w:sdtContent></w:sdt>` +
          p(run('Broken '), cite('MENDELEY_CITATION_v3_not*base64', '(Kept 1999)')),
      ),
      'mendeley-cite.docx',
    );
    const [key] = doc.bibliography.map((entry) => entry.key);
    expect(summary(doc)).toEqual([
      {
        key,
        type: 'article-journal',
        title: text('Ünïcode Matters'),
        author: [person('Ng', 'Ann')],
        date: '2021',
      },
    ]);
    expect(citations(doc)).toEqual([[{ id: key, prefix: 'cf.', locator: '3-4' }]]);
    // The unreadable one keeps its text and is reported.
    expect(plain(doc)).toBe('Known .Broken (Kept 1999)');
    expect(doc.notes).toEqual([{ code: 'citation_unreadable', detail: 'Mendeley', count: 1 }]);
  });
});

describe('EndNote citations', () => {
  const lee =
    '<Cite><Author>Lee</Author><Year>2015</Year><RecNum>42</RecNum><Prefix>see`</Prefix><Pages>7</Pages>' +
    '<DisplayText>(see Lee 2015, 7)</DisplayText><record><rec-number>42</rec-number>' +
    '<foreign-keys><key app="EN" db-id="x9x9x9">42</key></foreign-keys><ref-type name="Book Section">5</ref-type>' +
    '<contributors><authors><author>Lee, Kim</author></authors><secondary-authors><author>Editor, Erin</author>' +
    '</secondary-authors></contributors><titles><title><style face="normal" font="default" size="100%">A Chapter</style>' +
    '</title><secondary-title>The Book</secondary-title></titles><dates><year>2015</year></dates></record></Cite>';
  const park =
    '<Cite><Author>Park</Author><Year>2010</Year><RecNum>7</RecNum><record><rec-number>7</rec-number>' +
    '<ref-type name="Journal Article">17</ref-type><contributors><authors><author>Park, Jin</author>' +
    '<author>Kim, Lee</author></authors></contributors><titles><title>Fast Things</title>' +
    '<secondary-title>Science Letters</secondary-title></titles><periodical><full-title>Science Letters</full-title>' +
    '</periodical><pages>1-9</pages><volume>12</volume><dates><year>2010</year></dates></record></Cite>';

  it('reads the XML inline (split over runs) and in base64 field data, nested EN.CITE.DATA included', () => {
    // EndNote's data: the XML in base64 on the field's begin, and on the nested EN.CITE.DATA field.
    const bytes = new TextEncoder().encode(`<EndNote>${lee}${park}</EndNote>`);
    const data = base64(new Uint8Array([...bytes, 0, 0]));
    const nested =
      `<w:r><w:fldChar w:fldCharType="begin"><w:fldData xml:space="preserve">${data}</w:fldData></w:fldChar></w:r>` +
      '<w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE </w:instrText></w:r>' +
      `<w:r><w:fldChar w:fldCharType="begin"><w:fldData xml:space="preserve">${data}</w:fldData></w:fldChar></w:r>` +
      '<w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE.DATA </w:instrText></w:r>' +
      '<w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>' +
      `${run('(see Lee 2015, 7; Park and Kim 2010)')}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    // Only the nested field carries the data.
    const inner =
      '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE </w:instrText></w:r>' +
      `<w:r><w:fldChar w:fldCharType="begin"><w:fldData xml:space="preserve">${base64(`<EndNote>${park}</EndNote>`)}</w:fldData></w:fldChar></w:r>` +
      '<w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE.DATA </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>' +
      `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${run('(Park and Kim 2010)')}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    const doc = importDocument(
      docxOf(
        p(
          run('One '),
          field(pieces(` ADDIN EN.CITE <EndNote>${lee}</EndNote>`, 60), '(see Lee 2015, 7)'),
          run('.'),
        ) +
          p(run('Two '), nested, run('.')) +
          p(run('Three '), inner, run('.')) +
          p(run('Four '), field([' ADDIN EN.CITE '], '[9]', base64('no xml here')), run('.')) +
          p(field([' ADDIN EN.REFLIST '], 'Lee, K. 2015. A Chapter.')),
      ),
      'endnote.docx',
    );
    const [leeKey, parkKey] = doc.bibliography.map((entry) => entry.key);
    expect(summary(doc)).toEqual([
      { key: leeKey, type: 'inbook', title: text('A Chapter'), author: [person('Lee', 'Kim')], date: '2015' },
      {
        key: parkKey,
        type: 'article-journal',
        title: text('Fast Things'),
        author: [person('Park', 'Jin'), person('Kim', 'Lee')],
        date: '2010',
      },
    ]);
    expect(doc.bibliography[1].data.fields.journaltitle).toEqual(text('Science Letters'));
    const lee7 = { id: leeKey, prefix: 'see', locator: '7' };
    const park0 = { id: parkKey, prefix: '', locator: '' };
    expect(citations(doc)).toEqual([[lee7], [lee7, park0], [park0]]);
    expect(plain(doc)).toBe('One .Two .Three .Four [9].');
    expect(doc.notes).toEqual([{ code: 'citation_unreadable', detail: 'EndNote', count: 1 }]);
  });
});

describe('Citavi citations', () => {
  const citavi = (entries: unknown[], rendered: string) =>
    JSON.stringify({
      $id: '1',
      $type: 'SwissAcademic.Citavi.Citations.WordPlaceholder, SwissAcademic.Citavi',
      Entries: entries,
      Tag: 'CitaviPlaceholder#3f2e1d0c-0000-4000-8000-00000000c001',
      Text: rendered,
      WAIVersion: '6.10.0.0',
    });
  const range = (from: string, to: string) =>
    `<sp>\r\n  <n>${from}</n>\r\n  <in>true</in>\r\n  <os>${from}</os>\r\n  <ps>${from}</ps>\r\n</sp>\r\n` +
    `<ep>\r\n  <n>${to}</n>\r\n  <in>true</in>\r\n  <os>${to}</os>\r\n  <ps>${to}</ps>\r\n</ep>\r\n<os>${from}-${to}</os>`;
  const entries = [
    {
      $id: '2',
      $type: 'SwissAcademic.Citavi.Citations.WordPlaceholderEntry, SwissAcademic.Citavi',
      Id: 'a0000000-0000-4000-8000-0000000000e1',
      PageRange: range('12', '15'),
      Prefix: 'vgl.',
      ReferenceId: 'b0000000-0000-4000-8000-0000000000r1',
      Reference: {
        $id: '3',
        $type: 'SwissAcademic.Citavi.Reference, SwissAcademic.Citavi',
        Id: 'b0000000-0000-4000-8000-0000000000r1',
        ReferenceType: 'JournalArticle',
        Authors: [
          {
            $id: '4',
            $type: 'SwissAcademic.Citavi.Person, SwissAcademic.Citavi',
            FirstName: 'Eva',
            LastName: 'Muster',
            Id: 'c0000000-0000-4000-8000-0000000000p1',
          },
        ],
        Title: 'Über Dinge',
        Periodical: {
          $id: '5',
          $type: 'SwissAcademic.Citavi.Periodical, SwissAcademic.Citavi',
          Name: 'Zeitschrift für Tests',
        },
        PageRange: range('100', '120'),
        Volume: '9',
        Year: '2017',
      },
    },
    {
      $id: '6',
      $type: 'SwissAcademic.Citavi.Citations.WordPlaceholderEntry, SwissAcademic.Citavi',
      Id: 'a0000000-0000-4000-8000-0000000000e2',
      PageRange: '',
      ReferenceId: 'b0000000-0000-4000-8000-0000000000r2',
      Reference: {
        $id: '7',
        $type: 'SwissAcademic.Citavi.Reference, SwissAcademic.Citavi',
        Id: 'b0000000-0000-4000-8000-0000000000r2',
        ReferenceType: 'Book',
        // The same person again: Json.NET writes only a reference to the first.
        Authors: [{ $ref: '4' }],
        Title: 'Ein Buch',
        Subtitle: 'Über alles',
        Publishers: [
          { $id: '8', $type: 'SwissAcademic.Citavi.Publisher, SwissAcademic.Citavi', Name: 'Verlag' },
        ],
        YearResolved: '2019',
      },
    },
  ];
  const placeholder = (payload: string, rendered: string) =>
    `<w:sdt><w:sdtPr><w:alias w:val="To edit, see citavi.com/edit"/><w:tag w:val="CitaviPlaceholder#3f2e1d0c-0000-4000-8000-00000000c001"/><w:showingPlcHdr/></w:sdtPr><w:sdtContent>` +
    field(pieces(`ADDIN CitaviPlaceholder{${payload}}`, 200), rendered) +
    '</w:sdtContent></w:sdt>';

  it('reads the base64 Json.NET payload with $id/$ref, prefixes and page ranges', () => {
    const rendered = '(vgl. Muster 2017, S. 12–15; Muster 2019)';
    const doc = importDocument(
      docxOf(
        p(run('Seen '), placeholder(base64(citavi(entries, rendered)), rendered), run('.')) +
          p(run('Bad '), placeholder('@@not base64@@', '(Muster o. J.)'), run('.')),
      ),
      'citavi.docx',
    );
    const [articleKey, bookKey] = doc.bibliography.map((entry) => entry.key);
    expect(summary(doc)).toEqual([
      {
        key: articleKey,
        type: 'article-journal',
        title: text('Über Dinge'),
        author: [person('Muster', 'Eva')],
        date: '2017',
      },
      {
        key: bookKey,
        type: 'book',
        title: text('Ein Buch: Über alles'),
        author: [person('Muster', 'Eva')],
        date: '2019',
      },
    ]);
    expect(doc.bibliography[0].data.fields.journaltitle).toEqual(text('Zeitschrift für Tests'));
    expect(doc.bibliography[0].data.fields.pages).toBeDefined();
    expect(doc.bibliography[1].data.fields.publisher).toEqual([text('Verlag')]);
    expect(citations(doc)).toEqual([
      [
        { id: articleKey, prefix: 'vgl.', locator: '12-15' },
        { id: bookKey, prefix: '', locator: '' },
      ],
    ]);
    expect(plain(doc)).toBe('Seen .Bad (Muster o. J.).');
    expect(doc.notes).toEqual([{ code: 'citation_unreadable', detail: 'Citavi', count: 1 }]);
  });
});

describe('a citation of very many works', () => {
  it('imports 10,000 works of one author in one year as 10,000 entries, each cited once', () => {
    const doc = importDocument(oneAuthorCitationsDocx(10_000), 'many.docx');
    expect(doc.bibliography).toHaveLength(10_000);
    // The readable key is the same for all; the library makes them unique when it stores them.
    expect(new Set(doc.bibliography.map((entry) => entry.data.entry_key))).toEqual(new Set(['Doe2020']));
    expect(doc.bibliography[9_999].data.fields.title).toEqual(text('Study 10000'));
    const [references] = citations(doc) as { id: string }[][];
    expect(references.map((reference) => reference.id)).toEqual(doc.bibliography.map((entry) => entry.key));
    expect(doc.notes).toEqual([]);
  });
});
