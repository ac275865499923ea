// @vitest-environment jsdom
import {
  insertCitation,
  insertCrossReference,
  insertDisplayEquation,
} from '@scriptorium/common/editor/academic-commands';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { typeInto as type } from '@scriptorium/common/editor/testing';
import { EditorState, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { FootnoteView } from '../footnote/view';
import {
  academicKey,
  academicPlugins,
  brokenReferences,
  documentCslLocale,
  noteNumber,
  type RenderedState,
  touchesAcademic,
} from './academic-plugin';
import { academicNodeViews } from './academic-views';
import { citeBook } from './testing';

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

function editor(opened: string[] = [], withFootnotes = false): EditorView {
  const doc = createDocument(schema, standardArticle, { title: 'T', language: 'de-DE' });
  let start = 0;
  doc.forEach((node, offset) => {
    if (node.attrs.id === 'body') start = offset + 2;
  });
  const state = EditorState.create({ doc, plugins: academicPlugins() });
  const view = new EditorView(document.body.appendChild(document.createElement('div')), {
    state: state.apply(state.tr.setSelection(TextSelection.create(doc, start))),
    nodeViews: {
      ...academicNodeViews({ t: (key) => `t:${key}`, edit: (kind) => opened.push(kind) }),
      ...(withFootnotes
        ? {
            footnote: (node, outer, getPos, _decorations, inner) =>
              new FootnoteView(
                node,
                outer,
                getPos,
                {
                  plugins: () => [],
                  label: () => 'Footnote',
                  backLabel: () => 'Back',
                  heading: () => 'Footnotes',
                  editable: () => true,
                  outerKeys: () => false,
                  nodeViews: academicNodeViews({ t: (key) => `t:${key}`, edit: () => {} }),
                },
                inner,
              ),
          }
        : {}),
    },
  });
  views.push(view);
  return view;
}

describe('academic node views', () => {
  it('draws equations as MathML and LaTeX errors as red source with the message', () => {
    const view = editor();
    type(view, 'a $x^2$ and $\\frac{$ ');
    const equations = view.dom.querySelectorAll('.doc-equation');
    expect(equations).toHaveLength(2);
    expect(equations[0].querySelector('math msup')).not.toBeNull();
    expect(equations[1].classList.contains('doc-math-error')).toBe(true);
    expect(equations[1].textContent).toBe('\\frac{');
    expect(equations[1].getAttribute('title')).toMatch(/end of input/);
  });

  it('numbers display equations, shows live cross-reference texts and missing targets', () => {
    const view = editor();
    insertDisplayEquation('a=b')(view.state, view.dispatch);
    expect(view.dom.querySelector('.doc-equation-number')?.textContent).toBe('(1)');
    const figurePos = view.state.selection.from - 2;
    const target = view.state.doc.nodeAt(figurePos);
    expect(target?.type.name).toBe('figure');
    insertCrossReference(String(target?.attrs.id), '(1)')(view.state, view.dispatch);
    const reference = view.dom.querySelector('.doc-cross-reference');
    expect(reference?.textContent).toBe('(1)');
    view.dispatch(view.state.tr.delete(figurePos, figurePos + 1));
    expect(view.dom.querySelector('.doc-cross-reference')?.textContent).toBe('t:academic.missingTarget');
    expect(view.dom.querySelector('.doc-cross-reference')?.classList.contains('doc-missing')).toBe(true);
    expect(brokenReferences(view.state)).toHaveLength(1);
  });

  it('shows a page cross-reference with a placeholder for the page (the editor has no pages)', () => {
    const view = editor();
    insertDisplayEquation('a=b')(view.state, view.dispatch);
    const id = String(view.state.doc.nodeAt(view.state.selection.from - 2)?.attrs.id);
    insertCrossReference(id, '(1)', 'number-page')(view.state, view.dispatch);
    insertCrossReference(id, '(1)', 'page')(view.state, view.dispatch);
    const [both, page] = [...view.dom.querySelectorAll('.doc-cross-reference')];
    // In the document's language (this one is German), not the reader's.
    expect(both.textContent).toBe('(1) auf Seite #');
    expect(page.textContent).toBe('Seite #');
    const placeholder = page.querySelector('.doc-page-placeholder');
    expect(placeholder?.textContent).toBe('#');
    expect(placeholder?.getAttribute('title')).toBe('t:academic.crossReference.pagePlaceholder');
  });

  it('maps the decorations while plain text is typed, and numbers again when a target moves', () => {
    const view = editor();
    insertDisplayEquation('a=b')(view.state, view.dispatch);
    const figurePos = view.state.selection.from - 2;
    const id = String(view.state.doc.nodeAt(figurePos)?.attrs.id);
    insertCrossReference(id, '(1)')(view.state, view.dispatch);
    const decorations = academicKey.getState(view.state)?.decorations;
    const typing = view.state.tr.insertText('plain words ');
    expect(touchesAcademic(typing)).toBe(false);
    view.dispatch(typing);
    const mapped = academicKey.getState(view.state);
    expect(mapped?.decorations).not.toBe(decorations);
    expect(view.dom.querySelector('.doc-cross-reference')?.textContent).toBe('(1)');
    // A second display equation before the first: a new number, and the reference follows it.
    let at = 0;
    view.state.doc.descendants((node, pos) => {
      if (node.type.name === 'figure') at = pos;
    });
    const insert = view.state.tr.insert(
      at,
      schema.nodes.figure.create({ category: 'equation', equation: 'c=d', id: 'Fearlier' }),
    );
    expect(touchesAcademic(insert)).toBe(true);
    view.dispatch(insert);
    expect([...view.dom.querySelectorAll('.doc-equation-number')].map((n) => n.textContent)).toEqual([
      '(1)',
      '(2)',
    ]);
    expect(view.dom.querySelector('.doc-cross-reference')?.textContent).toBe('(2)');
  });

  it('numbers note-style citations and footnotes in one sequence, and lists every note with its number', () => {
    const view = editor();
    const footnote = () =>
      view.dispatch(
        view.state.tr.replaceSelectionWith(
          schema.nodes.footnote.create(null, schema.nodes.paragraph.create(null, schema.text('note'))),
        ),
      );
    const cite = (id: string) => citeBook(view, id);
    type(view, 'a');
    footnote();
    cite('one');
    footnote();
    cite('two');
    const academic = academicKey.getState(view.state)!;
    const rendered: RenderedState = {
      signature: academic.signature,
      styleClass: 'note',
      citations: ['One, <i>T</i>.', 'Two, <i>T</i>.'],
      bySignature: new Map(),
      bibliography: [],
      failed: false,
    };
    view.dispatch(view.state.tr.setMeta(academicKey, rendered));
    // The numbers are the footnotes' CSS counter: the citations count with it and show no text.
    const notes = view.dom.querySelectorAll('.doc-citation-note');
    expect(notes).toHaveLength(2);
    expect([...notes].map((note) => note.textContent)).toEqual(['', '']);
    expect((notes[1] as HTMLElement).title).toBe('Two, T.');
    const listed = [...view.dom.querySelectorAll('.doc-citation-notes li')] as HTMLLIElement[];
    // The footnotes are in the list too, in their places: no gap in the numbers (issue 53).
    expect(listed.map((item) => [item.value, item.textContent])).toEqual([
      [1, 'note'],
      [2, 'One, T.'],
      [3, 'note'],
      [4, 'Two, T.'],
    ]);
    // The second footnote is the third note.
    const footnotes: number[] = [];
    view.state.doc.descendants((node, pos) => {
      if (node.type.name === 'footnote') footnotes.push(pos);
    });
    expect(footnotes.map((pos) => noteNumber(view.state, pos))).toEqual([1, 3]);
    // In an author-date style, footnotes count alone and citations are in the text.
    view.dispatch(view.state.tr.setMeta(academicKey, { ...rendered, styleClass: 'in-text' }));
    expect(view.dom.querySelectorAll('.doc-citation-note')).toHaveLength(0);
    expect(view.dom.querySelector('.doc-citation')?.textContent).toBe('One, T.');
    expect(footnotes.map((pos) => noteNumber(view.state, pos))).toEqual([1, 2]);
  });

  it('keeps the bibliography entries already shown when the list changes', () => {
    const view = editor();
    const entry = { bib_type: 'book', fields: { title: [{ type: 'text', text: 'T' }] } };
    insertCitation(
      'autocite',
      [{ id: 'a', prefix: '', locator: '' }],
      new Map([['a', entry as never]]),
    )(view.state, view.dispatch);
    const answer = (bibliography: string[]) => {
      const academic = academicKey.getState(view.state)!;
      const rendered: RenderedState = {
        signature: academic.signature,
        styleClass: 'in-text',
        citations: ['(A)'],
        bySignature: new Map(),
        bibliography,
        failed: false,
      };
      view.dispatch(view.state.tr.setMeta(academicKey, rendered));
      return [...view.dom.querySelectorAll('.doc-bibliography-entry')] as HTMLElement[];
    };
    const [a, b] = answer(['A.', '<i>B</i>.']);
    const section = view.dom.querySelector('.doc-bibliography') as HTMLElement;
    expect(section.hidden).toBe(false);
    const inserted = answer(['A.', 'Between.', '<i>B</i>.']);
    expect(inserted.map((item) => item.innerHTML)).toEqual(['A.', 'Between.', '<i>B</i>.']);
    expect(inserted[0]).toBe(a);
    expect(inserted[2]).toBe(b);
    const removed = answer(['<i>B</i>.', 'C.']);
    expect(removed.map((item) => item.innerHTML)).toEqual(['<i>B</i>.', 'C.']);
    expect(removed[0]).toBe(b);
    expect(section.querySelector('h2')?.textContent).toBe('Literatur');
    expect(answer([])).toEqual([]);
    expect(section.hidden).toBe(true);
  });

  it("lays the bibliography out as the style asks, and names a note style's text citation's authors", () => {
    const view = editor();
    const entry = { bib_type: 'book', fields: { title: [{ type: 'text', text: 'T' }] } };
    insertCitation(
      'textcite',
      [{ id: 'a', prefix: '', locator: '' }],
      new Map([['a', entry as never]]),
    )(view.state, view.dispatch);
    const answer = (rendered: Partial<RenderedState>) => {
      const academic = academicKey.getState(view.state)!;
      view.dispatch(
        view.state.tr.setMeta(academicKey, {
          signature: academic.signature,
          styleClass: 'in-text',
          citations: ['[1]'],
          bySignature: new Map(),
          bibliography: [],
          failed: false,
          ...rendered,
        }),
      );
    };
    // IEEE: the label "[1]" in a column beside its text (citeproc's classes kept through the
    // sanitiser, the rules of BIBLIOGRAPHY_LAYOUT_CSS on the page).
    answer({
      bibliography: [
        '<div class="csl-entry"><div class="csl-left-margin">[1]</div><div class="csl-right-inline">A. Author, <i>T</i>.</div></div>',
      ],
      layout: {
        hangingIndent: false,
        secondFieldAlign: 'flush',
        lineSpacing: 1,
        entrySpacing: 0,
        maxOffset: 3,
      },
    });
    const list = view.dom.querySelector('.doc-bibliography-entries') as HTMLElement;
    expect([...list.classList]).toEqual([
      'doc-bibliography-entries',
      'csl-bib-body',
      'csl-second-field-flush',
    ]);
    expect(list.getAttribute('style')).toBe('--csl-label-width: 2.3em; --csl-entry-spacing: 0em');
    expect(list.querySelector('.csl-entry > .csl-left-margin')?.textContent).toBe('[1]');
    expect(list.querySelector('.csl-entry > .csl-right-inline')?.textContent).toBe('A. Author, T.');
    expect(document.getElementById('csl-layout-styles')?.textContent).toContain(
      '.csl-bib-body .csl-left-margin { float: left;',
    );
    // APA: a hanging indent, double spaced.
    answer({
      bibliography: ['<div class="csl-entry">Author, A. (2020). <i>T</i>.</div>'],
      layout: { hangingIndent: true, secondFieldAlign: null, lineSpacing: 2, entrySpacing: 0, maxOffset: 0 },
    });
    expect([...list.classList]).toContain('csl-hanging-indent');
    expect(list.getAttribute('style')).toContain('line-height: 2');
    // Chicago notes: "Author" stays in the sentence, the citation is the note (number by CSS).
    answer({ styleClass: 'note', citations: ['Author, <i>T</i>.'], authors: ['Author'] });
    const citation = view.dom.querySelector('.doc-citation') as HTMLElement;
    expect(citation.classList.contains('doc-citation-note')).toBe(true);
    expect(citation.textContent).toBe('Author');
    expect(citation.title).toBe('Author, T.');
  });

  it("shows math and live cross-references in a footnote's note under the text", () => {
    const view = editor([], true);
    insertDisplayEquation('a=b')(view.state, view.dispatch);
    const figure = view.state.doc.nodeAt(view.state.selection.from - 2)!;
    const note = schema.nodes.footnote.create(
      null,
      schema.nodes.paragraph.create(null, [
        schema.text('See '),
        schema.nodes.cross_reference.create({ id: String(figure.attrs.id), title: '' }),
        schema.text(' and '),
        schema.nodes.equation.create({ equation: 'x^2' }),
      ]),
    );
    view.dispatch(view.state.tr.replaceSelectionWith(note));
    // The note is shown under the text, not only when its footnote is selected.
    const opened = document.querySelector('.doc-notes .doc-footnote-editor');
    expect(opened?.querySelector('.doc-equation math msup')).not.toBeNull();
    expect(opened?.querySelector('.doc-cross-reference')?.textContent).toBe('(1)');
    // Renumbered from outside: another display equation before it makes it (2).
    let figurePos = -1;
    view.state.doc.descendants((node, pos) => {
      if (node === figure) figurePos = pos;
    });
    view.dispatch(
      view.state.tr.insert(figurePos, figure.type.create({ ...figure.attrs, id: '' }, figure.content)),
    );
    expect([...view.dom.querySelectorAll('.doc-equation-number')].map((n) => n.textContent)).toEqual([
      '(1)',
      '(2)',
    ]);
    expect(opened?.querySelector('.doc-cross-reference')?.textContent).toBe('(2)');
  });

  it('picks the CSL locale of the document language', () => {
    expect(documentCslLocale('de-CH')).toBe('de-DE');
    expect(documentCslLocale('pt-PT')).toBe('pt-BR');
    expect(documentCslLocale('fr-FR')).toBe('fr-FR');
    expect(documentCslLocale('ja-JP')).toBe('en-US');
  });
});
