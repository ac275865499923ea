// @vitest-environment jsdom
import { inputRules } from 'prosemirror-inputrules';
import type { Node as PMNode } from 'prosemirror-model';
import { type Command, EditorState, NodeSelection, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import type { EntryData } from '../bibliography/types';
import {
  assignTargetIds,
  documentBibliography,
  insertCitation,
  insertCrossReference,
  insertDisplayEquation,
  insertEquation,
  insertFigure,
  libraryUpdates,
  mathInputRules,
  replaceInBibliography,
  setCitationStyle,
  setTableCaption,
  upgradeTemplateCopy,
} from './academic-commands';
import { renderLatex } from './academic-math';
import { documentLabel, missingCrossReferences, numberDocument } from './academic-numbering';
import { insertTable } from './commands';
import { schema } from './schema';
import { checkDocument, createDocument, standardArticle } from './templates';
import { partStart, typeInto as type } from './testing';

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

/** Position just inside the body's first block. */
const bodyStart = (doc: PMNode) => partStart(doc, 'body') + 1;

function editor(language = 'en-US'): EditorView {
  const doc = createDocument(schema, standardArticle, { title: 'T', language });
  const state = EditorState.create({ doc, plugins: [inputRules({ rules: mathInputRules() })] });
  const view = new EditorView(document.createElement('div'), {
    state: state.apply(state.tr.setSelection(TextSelection.create(doc, bodyStart(doc)))),
  });
  views.push(view);
  return view;
}

function run(view: EditorView, command: Command): boolean {
  return command(view.state, (tr) => view.dispatch(tr));
}

function nodesOf(doc: PMNode, name: string): PMNode[] {
  const found: PMNode[] = [];
  doc.descendants((node) => {
    if (node.type.name === name) found.push(node);
  });
  return found;
}

const entry = (key: string, author: string, year: string): EntryData => ({
  entry_key: key,
  bib_type: 'article',
  fields: {
    title: [{ type: 'text', text: `A study by ${author}` }],
    author: [{ family: [{ type: 'text', text: author }], given: [{ type: 'text', text: 'A.' }] }],
    date: year,
  } as unknown as EntryData['fields'],
  cats: [],
});

describe('LaTeX rendering', () => {
  it('renders MathML and reports errors without throwing', () => {
    const good = renderLatex('x^2');
    expect(good.ok).toBe(true);
    expect(good.ok && good.mathml).toContain('<msup>');
    const display = renderLatex('\\frac{a}{b}', true);
    expect(display.ok && display.mathml).toContain('display="block"');
    const bad = renderLatex('\\frac{');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/end of input/);
    expect(renderLatex('').ok).toBe(false);
    expect(renderLatex('\\href{javascript:alert(1)}{x}').ok).toBe(false);
  });
});

describe('math input rules', () => {
  it('turns $x^2$ into an inline equation and leaves prices alone', () => {
    const view = editor();
    type(view, 'Let $x^2$ be');
    const equations = nodesOf(view.state.doc, 'equation');
    expect(equations.map((n) => n.attrs.equation)).toEqual(['x^2']);
    type(view, ' $5 and $6 ');
    expect(nodesOf(view.state.doc, 'equation')).toHaveLength(1);
    expect(view.state.doc.textContent).toContain('$5 and $6');
  });

  it('turns a paragraph of $$...$$ into a numbered display equation', () => {
    const view = editor();
    type(view, '$$E = mc^2$$');
    const figures = nodesOf(view.state.doc, 'figure');
    expect(figures).toHaveLength(1);
    expect(figures[0].attrs).toMatchObject({ category: 'equation', equation: 'E = mc^2' });
    expect(figures[0].attrs.id).toMatch(/^F/);
    expect(nodesOf(view.state.doc, 'equation')).toHaveLength(0);
    expect(checkDocument(view.state.doc)).toEqual([]);
  });
});

describe('numbering and cross-references', () => {
  it('numbers figures per category, equations as (n), sections hierarchically, in the document language', () => {
    const view = editor('de-DE');
    const heading = schema.nodes.heading;
    const doc = view.state.doc;
    const start = bodyStart(doc);
    view.dispatch(
      view.state.tr.replaceWith(start - 1, start + 1, [
        heading.create({ level: 1, id: 'H1' }, schema.text('Intro')),
        heading.create({ level: 2, id: 'H2' }, schema.text('Detail')),
        schema.nodes.paragraph.create(),
      ]),
    );
    view.dispatch(
      view.state.tr.setSelection(TextSelection.near(view.state.doc.resolve(view.state.doc.content.size - 3))),
    );
    expect(run(view, insertDisplayEquation('a=b'))).toBe(true);
    expect(
      run(view, insertFigure({ category: 'figure', caption: 'A cat', src: '/media/images/x.png' })),
    ).toBe(true);
    expect(run(view, insertFigure({ category: 'figure', caption: 'A dog' }))).toBe(true);
    expect(run(view, insertDisplayEquation('c=d'))).toBe(true);
    const numbering = numberDocument(view.state.doc);
    expect(numbering.targets.map((t) => t.label)).toEqual([
      'Abschnitt 1',
      'Abschnitt 1.1',
      '(1)',
      'Abbildung 1',
      'Abbildung 2',
      '(2)',
    ]);
    expect(documentLabel('figure', 'en-US')).toBe('Figure');
    expect(documentLabel('table', 'fr-FR')).toBe('Tableau');

    // A reference to the second figure, then the first is deleted: it becomes "Abbildung 1".
    const dog = numbering.targets[4];
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, start + 3)));
    expect(run(view, insertCrossReference(dog.id, dog.label))).toBe(true);
    expect(missingCrossReferences(view.state.doc)).toEqual([]);
    const cat = numberDocument(view.state.doc).targets[3];
    view.dispatch(view.state.tr.delete(cat.pos, cat.pos + 1));
    expect(numberDocument(view.state.doc).byId.get(dog.id)?.label).toBe('Abbildung 1');
    // Deleting the target leaves a broken reference, listed for the Tools menu.
    const dogNow = numberDocument(view.state.doc).byId.get(dog.id);
    if (!dogNow) throw new Error('target lost');
    view.dispatch(view.state.tr.delete(dogNow.pos, dogNow.pos + 1));
    expect(missingCrossReferences(view.state.doc).map((b) => b.id)).toEqual([dog.id]);
    expect(checkDocument(view.state.doc)).toEqual([]);
  });

  it('gives tables an id and a caption, numbered with table figures', () => {
    const view = editor('en-US');
    expect(run(view, insertTable(2, 2))).toBe(true);
    expect(run(view, setTableCaption('Results'))).toBe(true);
    const labels = numberDocument(view.state.doc).targets.map((t) => `${t.label}: ${t.text}`);
    expect(labels).toEqual(['Table 1: Results']);
    expect(assignTargetIds(view.state)).toBeNull();
  });
});

describe('citations and the document bibliography', () => {
  it('copies cited entries into the document once, replaces the "@" and updates on request', () => {
    const view = editor();
    type(view, 'See @');
    const at = view.state.selection.from - 1;
    const entries = new Map([
      ['1-10', entry('smith', 'Smith', '2020')],
      ['1-11', entry('doe', 'Doe', '2019')],
    ]);
    const refs = [
      { id: '1-10', prefix: '', locator: '' },
      { id: '1-11', prefix: 'see', locator: '12' },
    ];
    expect(run(view, insertCitation('autocite', refs, entries, { from: at, to: at + 1 }))).toBe(true);
    const doc = view.state.doc;
    expect(doc.textContent).not.toContain('@');
    expect(nodesOf(doc, 'citation')[0].attrs.references).toEqual(refs);
    expect([...documentBibliography(doc).keys()]).toEqual(['1-10', '1-11']);
    expect(doc.lastChild?.type.name).toBe('bibliography_part');
    // Citing one again adds no second copy.
    expect(
      run(view, insertCitation('textcite', [refs[0]], new Map([['1-10', entries.get('1-10') as EntryData]]))),
    ).toBe(true);
    expect(documentBibliography(view.state.doc).size).toBe(2);
    expect(nodesOf(view.state.doc, 'bib_entry')).toHaveLength(2);
    // Update from library: only the owner's entries that changed there.
    const library = [
      { ...entry('smith', 'Smyth', '2021'), id: 10 },
      { ...(entries.get('1-11') as EntryData), id: 11 },
    ];
    expect([...libraryUpdates(view.state.doc, 2, library).keys()]).toEqual([]);
    const updates = libraryUpdates(view.state.doc, 1, library);
    expect([...updates.keys()]).toEqual(['1-10']);
    const tr = replaceInBibliography(view.state.tr, updates);
    view.dispatch(tr);
    expect(documentBibliography(view.state.doc).get('1-10')?.fields.date).toBe('2021');
    expect(checkDocument(view.state.doc)).toEqual([]);
    // The document survives a JSON round trip (what the server stores).
    const again = schema.nodeFromJSON(view.state.doc.toJSON());
    again.check();
    expect(again.eq(view.state.doc)).toBe(true);
  });

  it('sets the citation style and edits a selected equation', () => {
    const view = editor();
    expect(view.state.doc.attrs.citationstyle).toBe('apa');
    expect(run(view, setCitationStyle('ieee'))).toBe(true);
    expect(view.state.doc.attrs.citationstyle).toBe('ieee');
    expect(run(view, setCitationStyle('../etc'))).toBe(false);
    expect(run(view, insertEquation('y'))).toBe(true);
    const pos = view.state.selection.from - 1;
    view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, pos)));
    expect(run(view, insertEquation('\\sqrt{y}'))).toBe(true);
    expect(nodesOf(view.state.doc, 'equation').map((n) => n.attrs.equation)).toEqual(['\\sqrt{y}']);
  });
});

describe('documents made before the academic elements', () => {
  /** The standard article as it was before issue 17: no equations, citations, figures or references. */
  const before: typeof standardArticle = {
    ...standardArticle,
    parts: standardArticle.parts.map((part) => ({
      ...part,
      elements: part.elements.filter(
        (element) => !['equation', 'citation', 'cross_reference', 'figure'].includes(element),
      ),
    })),
  };

  it('get the academic elements their template allows now, once, and only in old copies', () => {
    const old = createDocument(schema, before, { title: 'Old' });
    const state = EditorState.create({ doc: old });
    expect(
      insertEquation('x')(state.apply(state.tr.setSelection(TextSelection.create(old, bodyStart(old))))),
    ).toBe(false);
    const tr = upgradeTemplateCopy(state);
    expect(tr).not.toBeNull();
    const upgraded = state.apply(tr as NonNullable<typeof tr>);
    const elements = (id: string) => {
      let found: string[] = [];
      upgraded.doc.forEach((part) => {
        if (part.attrs.id === id) found = part.attrs.elements as string[];
      });
      return found;
    };
    const current = (id: string) => standardArticle.parts.find((part) => part.id === id)?.elements;
    expect(elements('body')).toEqual(current('body'));
    expect(elements('abstract')).toEqual(current('abstract'));
    const at = upgraded.apply(
      upgraded.tr.setSelection(TextSelection.create(upgraded.doc, bodyStart(upgraded.doc))),
    );
    expect(insertEquation('x')(at)).toBe(true);
    // Current documents, and copies already naming an academic element, are left alone.
    expect(upgradeTemplateCopy(upgraded)).toBeNull();
    expect(
      upgradeTemplateCopy(EditorState.create({ doc: createDocument(schema, standardArticle) })),
    ).toBeNull();
  });
});
