// @vitest-environment jsdom
import type { BibEntry, EntryData } from '@scriptorium/common/bibliography/types';
import { addToBibliography, documentBibliography } from '@scriptorium/common/editor/academic-commands';
import type { CitationReference } from '@scriptorium/common/editor/academic-nodes';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { typeInto as type } from '@scriptorium/common/editor/testing';
import { trackTransaction } from '@scriptorium/common/editor/track-changes';
import type { Node as PMNode } from 'prosemirror-model';
import { EditorState, NodeSelection, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { type CiteLibrary, inlineCiteKey, inlineCitePlugin } from './inline-cite';

const text = (value: string) => [{ type: 'text', text: value }];
function entry(id: number, key: string, family: string, title: string, year: string): BibEntry {
  return {
    id,
    entry_key: key,
    bib_type: 'article',
    fields: { author: [{ family: text(family), given: text('J.') }], title: text(title), date: year },
    cats: [],
  } as unknown as BibEntry;
}
const LIBRARY: CiteLibrary = {
  owner: 7,
  entries: [
    entry(1, 'smith2020', 'Smith', 'Ink on paper', '2020'),
    entry(2, 'doe2019', 'Doe', 'Quills', '2019'),
    entry(3, 'vasmith1999', 'Vasmith', 'Rivers', '1999'),
  ],
};

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

interface Options {
  library?: CiteLibrary;
  editable?: boolean;
  /** Suggestion mode, as the editor page dispatches it (a refused transaction changes nothing). */
  suggesting?: boolean;
  /** Entries of LIBRARY already in the document's bibliography. */
  inDocument?: number[];
}

function editor({ library = LIBRARY, editable = true, suggesting = false, inDocument = [] }: Options = {}) {
  const edits: string[] = [];
  const empty = createDocument(schema, standardArticle, { title: 'T', language: 'en-US' });
  const copies = new Map<string, EntryData>(
    inDocument.map((id) => {
      const { entry_key, bib_type, fields } = LIBRARY.entries[id - 1];
      return [`7-${id}`, { entry_key, bib_type, fields, cats: [] }];
    }),
  );
  const doc = addToBibliography(EditorState.create({ doc: empty }).tr, copies).doc;
  let start = 0;
  doc.forEach((node, offset) => {
    if (node.attrs.id === 'body') start = offset + 2;
  });
  const plugin = inlineCitePlugin({
    t: (key) => `t:${key}`,
    library: (found) => found(library),
    edit: () => edits.push('citation'),
  });
  const state = EditorState.create({ doc, plugins: [plugin] });
  const view: EditorView = new EditorView(document.body.appendChild(document.createElement('div')), {
    state: state.apply(state.tr.setSelection(TextSelection.create(doc, start))),
    editable: () => editable,
    dispatchTransaction(tr) {
      const tracked = suggesting ? trackTransaction(tr, view.state, { id: 3, username: 'Ann' }, 1) : tr;
      if (tracked) view.updateState(view.state.apply(tracked));
    },
  });
  views.push(view);
  return { view, edits, start };
}

/** The library answers in a microtask (never inside the view's update). */
const settled = () => new Promise<void>((resolve) => queueMicrotask(resolve));

const key = (view: EditorView, name: string) =>
  view.dom.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));

const list = () => document.querySelector<HTMLElement>('.inline-cite');
const options = () =>
  [...document.querySelectorAll('.inline-cite [role="option"]')].map((o) => o.textContent);

function citations(doc: PMNode): { references: string[]; marks: string[] }[] {
  const found: { references: string[]; marks: string[] }[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'citation')
      found.push({
        references: (node.attrs.references as CitationReference[]).map((ref) => ref.id),
        marks: node.marks.map((mark) => mark.type.name),
      });
  });
  return found;
}

function bodyText(view: EditorView, start: number): string {
  return view.state.doc.resolve(start).parent.textContent;
}

describe('inline citing', () => {
  it('opens a list at "@" at the start of a word only, filtered as the user types', async () => {
    const { view } = editor();
    type(view, 'mail a@b ');
    expect(inlineCiteKey.getState(view.state)).toBeNull();
    type(view, '(@');
    await settled();
    expect(list()?.hidden).toBe(false);
    expect(options()).toEqual(['Smith, 2020Ink on paper', 'Doe, 2019Quills', 'Vasmith, 1999Rivers']);
    type(view, 'smi');
    expect(options()).toEqual(['Smith, 2020Ink on paper', 'Vasmith, 1999Rivers']);
    const listbox = list()?.querySelector('[role="listbox"]');
    expect(listbox?.getAttribute('aria-label')).toBe('t:academic.inlineCite.label');
    expect(view.dom.getAttribute('aria-controls')).toBe(listbox?.id);
    expect(view.dom.getAttribute('aria-activedescendant')).toBe(`${listbox?.id}-0`);
    expect(list()?.querySelector('[aria-selected="true"]')?.textContent).toBe('Smith, 2020Ink on paper');
  });

  it('Enter replaces "@query" with a citation of the chosen entry in one go, and copies the entry', async () => {
    const { view, start } = editor();
    type(view, 'See @smi');
    await settled();
    key(view, 'ArrowDown');
    key(view, 'ArrowDown');
    key(view, 'ArrowUp');
    expect(list()?.querySelector('[aria-selected="true"]')?.textContent).toBe('Vasmith, 1999Rivers');
    key(view, 'Enter');
    expect(citations(view.state.doc)).toEqual([{ references: ['7-3'], marks: [] }]);
    expect(bodyText(view, start)).toBe('See ');
    expect([...documentBibliography(view.state.doc).keys()]).toEqual(['7-3']);
    expect(inlineCiteKey.getState(view.state)).toBeNull();
    expect(list()?.hidden).toBe(true);
    expect(view.dom.hasAttribute('aria-controls')).toBe(false);
    // The caret is after the citation: writing goes on.
    type(view, ' more');
    expect(bodyText(view, start)).toBe('See  more');
  });

  it('a click on an entry cites it; the press does not take the focus from the text', async () => {
    const { view } = editor();
    type(view, '@');
    await settled();
    const option = document.querySelectorAll<HTMLElement>('.inline-cite [role="option"]')[1];
    const press = new MouseEvent('mousedown', { bubbles: true, cancelable: true });
    option.dispatchEvent(press);
    expect(press.defaultPrevented).toBe(true);
    option.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(citations(view.state.doc)).toEqual([{ references: ['7-2'], marks: [] }]);
  });

  it('";" or "@" right after a citation adds the next entry to its cluster', async () => {
    const { view, start } = editor();
    type(view, '@smith');
    await settled();
    key(view, 'Enter');
    type(view, ';2019');
    expect(options()).toEqual(['Doe, 2019Quills']);
    key(view, 'Enter');
    expect(citations(view.state.doc)).toEqual([{ references: ['7-1', '7-2'], marks: [] }]);
    type(view, '@vas');
    key(view, 'Tab');
    expect(citations(view.state.doc)).toEqual([{ references: ['7-1', '7-2', '7-3'], marks: [] }]);
    expect(bodyText(view, start)).toBe('');
    // An entry already in the cluster is not cited twice.
    type(view, ';smith');
    key(view, 'Enter');
    expect(citations(view.state.doc)).toEqual([{ references: ['7-1', '7-2', '7-3'], marks: [] }]);
    expect([...documentBibliography(view.state.doc).keys()]).toEqual(['7-1', '7-2', '7-3']);
  });

  it('Escape closes the list and leaves the text; the list does not come back while typing on', async () => {
    const { view, start } = editor();
    type(view, 'x @smi');
    await settled();
    key(view, 'Escape');
    expect(inlineCiteKey.getState(view.state)).toBeNull();
    expect(list()?.hidden).toBe(true);
    type(view, 'th');
    expect(inlineCiteKey.getState(view.state)).toBeNull();
    expect(bodyText(view, start)).toBe('x @smith');
    expect(citations(view.state.doc)).toEqual([]);
  });

  it('says when nothing matches, and lets Enter split the paragraph then', async () => {
    const { view } = editor();
    type(view, '@zzz');
    await settled();
    expect(options()).toEqual([]);
    expect(list()?.querySelector('[role="status"]')?.textContent).toBe('t:academic.inlineCite.noMatches');
    // A space after a query nothing matches: the user writes on, the list goes.
    type(view, ' ');
    expect(inlineCiteKey.getState(view.state)).toBeNull();
    type(view, '@qq');
    key(view, 'Enter');
    expect(inlineCiteKey.getState(view.state)).toBeNull();
  });

  it('says when the bibliography is empty, and closes when the caret leaves the query', async () => {
    const { view, start } = editor({ library: { owner: 7, entries: [] } });
    type(view, '@');
    await settled();
    expect(list()?.textContent).toBe('t:academic.inlineCite.empty');
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, start)));
    expect(inlineCiteKey.getState(view.state)).toBeNull();
  });

  it('Enter on a selected citation opens the full dialog', async () => {
    const { view, edits } = editor();
    type(view, '@doe');
    await settled();
    key(view, 'Enter');
    let at = 0;
    view.state.doc.descendants((node, pos) => {
      if (node.type.name === 'citation') at = pos;
    });
    view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, at)));
    key(view, 'Enter');
    expect(edits).toEqual(['citation']);
    expect(citations(view.state.doc)).toHaveLength(1);
  });

  it('gives read-only users nothing', () => {
    const { view } = editor({ editable: false });
    type(view, '@');
    expect(inlineCiteKey.getState(view.state)).toBeNull();
  });

  it('suggestion mode: an entry new to the document is suggested with its citation (its data with it)', async () => {
    const { view, start } = editor({ suggesting: true });
    type(view, 'See @smi');
    await settled();
    key(view, 'Enter');
    expect(citations(view.state.doc)).toEqual([{ references: ['7-1'], marks: ['insertion'] }]);
    expect(bodyText(view, start)).toBe('See ');
    expect(documentBibliography(view.state.doc).get('7-1')?.entry_key).toBe('smith2020');
    const suggested: string[] = [];
    view.state.doc.descendants((node) => {
      if (node.type.name === 'bib_entry')
        suggested.push(`${node.attrs.id} ${node.marks.map((mark) => mark.type.name).join(' ')}`);
    });
    expect(suggested).toEqual(['7-1 insertion']);
  });

  it('suggestion mode: the citation is a tracked insertion, and a second entry joins it', async () => {
    const { view, start } = editor({ suggesting: true, inDocument: [1, 2] });
    type(view, 'See @smi');
    await settled();
    expect(inlineCiteKey.getState(view.state)?.query).toBe('smi');
    key(view, 'Enter');
    expect(citations(view.state.doc)).toEqual([{ references: ['7-1'], marks: ['insertion'] }]);
    type(view, ';doe');
    expect(inlineCiteKey.getState(view.state)?.mode).toBe('append');
    key(view, 'Enter');
    expect(citations(view.state.doc)).toEqual([{ references: ['7-1', '7-2'], marks: ['insertion'] }]);
    expect(bodyText(view, start)).toBe('See ');
  });
});
