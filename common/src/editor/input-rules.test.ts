// @vitest-environment jsdom
import { DOMParser as PMDOMParser, type Node as PMNode, Slice } from 'prosemirror-model';
import { EditorState, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { editorInputRulesPlugin, quoteMarks } from './input-rules';
import { cleanPastedHTML, fitSlice, plainTextSlice } from './paste';
import { schema } from './schema';
import { createDocument, standardArticle } from './templates';
import { typeInto as type } from './testing';

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

/** A real editor view on a Standard article, the cursor in the first (or a given) part's text. */
function editor(language = 'en-US', partId = 'body'): EditorView {
  const doc = createDocument(schema, standardArticle, { title: 'T', language });
  let start = 0;
  doc.forEach((node, offset) => {
    if (node.attrs.id === partId) start = offset + 2;
  });
  const state = EditorState.create({ doc, plugins: [editorInputRulesPlugin()] });
  const view = new EditorView(document.createElement('div'), {
    state: state.apply(state.tr.setSelection(TextSelection.create(doc, start))),
  });
  views.push(view);
  return view;
}

const part = (view: EditorView, id: string) => {
  let found: PMNode | null = null;
  view.state.doc.forEach((node) => {
    if (node.attrs.id === id) found = node;
  });
  return found as unknown as PMNode;
};

describe('input rules', () => {
  it('turns "# " .. "###### " into headings', () => {
    const view = editor();
    type(view, '### Methods');
    const block = part(view, 'body').firstChild;
    expect(block?.type.name).toBe('heading');
    expect(block?.attrs.level).toBe(3);
    expect(block?.textContent).toBe('Methods');
  });

  it.each([
    ['- one', 'bullet_list'],
    ['* one', 'bullet_list'],
    ['3. three', 'ordered_list'],
    ['> cited', 'blockquote'],
    ['```x = "a"', 'code_block'],
  ])(
    'starts bullet lists with "* " and "- ", numbered lists, quotes and code: %j makes a %s',
    (typed, block) => {
      const view = editor();
      type(view, typed);
      expect(part(view, 'body').firstChild?.type.name).toBe(block);
    },
  );

  it('starts a numbered list at its number, and puts no smart quotes inside code', () => {
    const numbered = editor();
    type(numbered, '3. three');
    expect(part(numbered, 'body').firstChild?.attrs.start).toBe(3);
    const code = editor();
    type(code, '```x = "a"');
    expect(part(code, 'body').textContent).toBe('x = "a"');
  });

  it('makes no heading where the part does not allow one (the abstract)', () => {
    const view = editor('en-US', 'abstract');
    type(view, '# x');
    expect(part(view, 'abstract').firstChild?.type.name).toBe('paragraph');
    expect(part(view, 'abstract').textContent).toBe('# x');
  });

  it('sets quotation marks of the document language and dashes', () => {
    const english = editor('en-US');
    type(english, `She said "it's 'fine'" -- yes`);
    expect(part(english, 'body').textContent).toBe(
      'She said \u201cit\u2019s \u2018fine\u2019\u201d \u2014 yes',
    );
    const german = editor('de-DE');
    type(german, '"Hallo"');
    expect(part(german, 'body').textContent).toBe('\u201eHallo\u201c');
    const french = editor('fr-FR');
    type(french, '"Salut"');
    expect(part(french, 'body').textContent).toBe('\u00ab\u202fSalut\u202f\u00bb');
    expect(quoteMarks('pt-BR').double).toEqual(['\u201c', '\u201d']);
    expect(quoteMarks('bg').double).toEqual(['\u201e', '\u201c']);
  });
});

/** What the editor makes of pasted HTML: cleaned, then read with the schema's parse rules. */
function paste(html: string): PMNode {
  const dom = document.createElement('div');
  dom.innerHTML = cleanPastedHTML(html);
  return schema.nodes.richtext_part.create(null, PMDOMParser.fromSchema(schema).parseSlice(dom).content);
}

const shape = (node: PMNode): unknown =>
  node.isText
    ? [node.text, ...node.marks.map((m) => (m.type.name === 'link' ? `link:${m.attrs.href}` : m.type.name))]
    : [
        node.type.name === 'heading' ? `h${node.attrs.level}` : node.type.name,
        ...node.content.content.map(shape),
      ];

describe('paste cleaning', () => {
  it('reads Word lists, headings and emphasis and drops the rest', () => {
    const word = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{font-family:Calibri}</style></head><body>
<h1 style="mso-style-name:x">Results<o:p></o:p></h1>
<p class=MsoNormal><b>Bold</b> and <i>italic</i> <span style='color:red;font-family:Arial'>red</span><o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>First<o:p></o:p></p>
<p class=MsoListParagraphCxSpMiddle style='mso-list:l0 level2 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>a.<span>&nbsp; </span></span><![endif]>Inner<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>2.<span>&nbsp; </span></span><![endif]>Second<o:p></o:p></p>
<!--[if gte vml 1]><v:shape>x</v:shape><![endif]--></body></html>`;
    expect(shape(paste(word))).toEqual([
      'richtext_part',
      ['h1', ['Results']],
      ['paragraph', ['Bold', 'strong'], [' and '], ['italic', 'em'], [' red']],
      [
        'ordered_list',
        ['list_item', ['paragraph', ['First']], ['ordered_list', ['list_item', ['paragraph', ['Inner']]]]],
        ['list_item', ['paragraph', ['Second']]],
      ],
    ]);
  });

  it('reads Google Docs: its bold wrapper is not bold, styled spans are', () => {
    const docs = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234"><h2 dir="ltr"><span style="font-size:16pt;font-weight:400">Section</span></h2><p dir="ltr"><span style="font-weight:700">strong</span><span style="font-style:italic"> slanted</span> <a href="https://example.org/x"><span style="text-decoration:underline">link</span></a></p><ul><li dir="ltr"><p dir="ltr"><span>point</span></p></li></ul></b>`;
    expect(shape(paste(docs))).toEqual([
      'richtext_part',
      ['h2', ['Section']],
      [
        'paragraph',
        ['strong', 'strong'],
        [' slanted', 'em'],
        [' '],
        ['link', 'underline', 'link:https://example.org/x'],
      ],
      ['bullet_list', ['list_item', ['paragraph', ['point']]]],
    ]);
  });

  it('reads LibreOffice and web pages: tables kept, scripts, images and unsafe links dropped', () => {
    const page = `<body><nav><a href="/">Home</a></nav><script>alert(1)</script><h3>Data</h3><img src="x.png"><table><tr><th>A</th><th colspan="2">B</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table><p><font face="Liberation Serif"><a href="javascript:alert(1)">bad</a> <sup>2</sup></font></p></body>`;
    expect(shape(paste(page))).toEqual([
      'richtext_part',
      ['h3', ['Data']],
      [
        'table',
        ['table_row', ['table_header', ['paragraph', ['A']]], ['table_header', ['paragraph', ['B']]]],
        [
          'table_row',
          ['table_cell', ['paragraph', ['1']]],
          ['table_cell', ['paragraph', ['2']]],
          ['table_cell', ['paragraph', ['3']]],
        ],
      ],
      ['paragraph', ['bad '], ['2', 'sup']],
    ]);
  });

  it('keeps paragraphs of plain text', () => {
    const slice = plainTextSlice('First paragraph\nsame paragraph\r\n\r\n\nSecond');
    expect(slice.content.childCount).toBe(2);
    expect(shape(slice.content.child(0))).toEqual([
      'paragraph',
      ['First paragraph'],
      ['hard_break'],
      ['same paragraph'],
    ]);
    expect(slice.content.child(1).textContent).toBe('Second');
  });

  it('fits pasted content into what a part allows', () => {
    const pasted = paste('<h2>Head</h2><ul><li><p><strong>a</strong> <code>b</code></p></li></ul><hr>');
    const fitted = fitSlice(new Slice(pasted.content, 0, 0), ['paragraph'], ['strong']);
    expect(fitted.content.content.map(shape)).toEqual([
      ['paragraph', ['Head']],
      ['paragraph', ['a', 'strong'], [' b']],
    ]);
  });
});
