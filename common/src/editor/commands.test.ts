import { history, undo } from 'prosemirror-history';
import { Node as PMNode } from 'prosemirror-model';
import { type Command, EditorState, TextSelection } from 'prosemirror-state';
import { describe, expect, it, vi } from 'vitest';
import { insertFootnote } from '../features/footnote/commands';
import {
  addKeywords,
  assignHeadingIds,
  insertTable,
  isValidOrcid,
  removeContributor,
  saveContributor,
  setHeading,
  setLanguage,
  setLink,
  setPaperSize,
  setPartHidden,
  toggleBulletList,
  toggleFormat,
} from './commands';
import { outline } from './outline';
import { schema } from './schema';
import { findMatches, replaceAll, replaceOne, type SearchQuery } from './search';
import { createDocument, standardArticle } from './templates';
import { partStart } from './testing';
import { countDocument, countText, countWords } from './text-stats';

const p = (...content: unknown[]) => ({ type: 'paragraph', content });
const text = (value: string, marks?: unknown[]) =>
  marks ? { type: 'text', text: value, marks } : { type: 'text', text: value };

/** A Standard article with `body` blocks and `abstract` blocks, and the cursor in the body's first text. */
function stateWith(body: unknown[], abstract?: unknown[]): EditorState {
  const json = createDocument(schema, standardArticle, { title: 'T' }).toJSON();
  json.content[json.content.length - 1].content = body;
  if (abstract) json.content[3].content = abstract;
  const doc = PMNode.fromJSON(schema, json);
  const state = EditorState.create({ doc, plugins: [history()] });
  return state.apply(state.tr.setSelection(TextSelection.create(doc, bodyStart(doc) + 1)));
}

const bodyStart = (doc: PMNode) => partStart(doc, 'body');
const abstractStart = (doc: PMNode) => partStart(doc, 'abstract');

function run(state: EditorState, command: Command): EditorState | null {
  let next: EditorState | null = null;
  const ok = command(state, (tr) => {
    next = state.apply(tr);
  });
  return ok ? next : null;
}

function select(state: EditorState, from: number, to: number): EditorState {
  return state.apply(state.tr.setSelection(TextSelection.create(state.doc, from, to)));
}

const body = (state: EditorState) => state.doc.lastChild as PMNode;

describe('commands', () => {
  it('formats the selection and refuses marks the part does not allow', () => {
    let state = stateWith([p(text('Hello world'))]);
    const start = bodyStart(state.doc) + 1;
    state = select(state, start, start + 5);
    const bold = run(state, toggleFormat('strong'));
    expect(bold?.doc.lastChild?.firstChild?.firstChild?.marks.map((m) => m.type.name)).toEqual(['strong']);
    // The title allows no code mark.
    const inTitle = select(state, 1, 2);
    expect(run(inTitle, toggleFormat('code'))).toBeNull();
  });

  it("formats text in a note's own editor, whose document is the note (it threw: a paragraph is no part)", () => {
    const note = PMNode.fromJSON(schema, { type: 'footnote', content: [p(text('A note'))] });
    const state = EditorState.create({ doc: note, selection: TextSelection.create(note, 1, 2) });
    const bold = run(state, toggleFormat('strong'));
    expect(bold?.doc.firstChild?.firstChild?.marks.map((m) => m.type.name)).toEqual(['strong']);
  });

  it('turns a paragraph into a heading only where the template allows headings', () => {
    const state = stateWith([p(text('Intro'))], [p(text('Summary'))]);
    expect(run(state, setHeading(2))?.doc.lastChild?.firstChild?.attrs.level).toBe(2);
    const inAbstract = select(state, abstractStart(state.doc) + 2, abstractStart(state.doc) + 2);
    expect(run(inAbstract, setHeading(2))).toBeNull();
  });

  it('wraps in a bullet list and lifts out again with the same command', () => {
    const state = stateWith([p(text('item'))]);
    const listed = run(state, toggleBulletList);
    expect(body(listed as EditorState).firstChild?.type.name).toBe('bullet_list');
    const back = run(listed as EditorState, toggleBulletList);
    expect(body(back as EditorState).firstChild?.type.name).toBe('paragraph');
  });

  it('inserts a footnote with a paragraph, and none inside a footnote', () => {
    const state = stateWith([p(text('claim'))]);
    const end = select(state, bodyStart(state.doc) + 6, bodyStart(state.doc) + 6);
    const withNote = run(end, insertFootnote) as EditorState;
    const note = body(withNote).firstChild?.lastChild;
    expect(note?.type.name).toBe('footnote');
    // The new footnote is selected, so that its editor opens.
    expect(withNote.doc.nodeAt(withNote.selection.from)).toBe(note);
    expect(note?.firstChild?.type.name).toBe('paragraph');
    // The cursor inside the footnote's paragraph: start of body + "claim" + into footnote + paragraph.
    const inside = select(withNote, bodyStart(state.doc) + 8, bodyStart(state.doc) + 8);
    expect(inside.selection.$from.parent.type.name).toBe('paragraph');
    expect(inside.selection.$from.node(inside.selection.$from.depth - 1).type.name).toBe('footnote');
    expect(run(inside, insertFootnote)).toBeNull();
  });

  it('inserts a table with a header row', () => {
    const state = run(stateWith([p()]), insertTable(3, 2)) as EditorState;
    const table = body(state).content.content.find((node) => node.type.name === 'table');
    expect(table?.childCount).toBe(3);
    expect(table?.firstChild?.firstChild?.type.name).toBe('table_header');
    expect(table?.lastChild?.childCount).toBe(2);
    expect(state.selection.$from.node(state.selection.$from.depth - 1).type.name).toBe('table_header');
  });

  it('sets links to the web or to a heading and refuses javascript: links', () => {
    let state = stateWith([p(text('see there'))]);
    const start = bodyStart(state.doc) + 1;
    state = select(state, start + 4, start + 9);
    expect(run(state, setLink('javascript:alert(1)'))).toBeNull();
    const linked = run(state, setLink('#Hmethods')) as EditorState;
    expect(linked.doc.rangeHasMark(start + 4, start + 9, schema.marks.link)).toBe(true);
    const unlinked = run(select(linked, start + 4, start + 9), setLink('')) as EditorState;
    expect(unlinked.doc.rangeHasMark(start + 4, start + 9, schema.marks.link)).toBe(false);
  });

  it('keeps language, paper size and hidden parts in the document', () => {
    const state = stateWith([p(text('x'))]);
    const german = run(state, setLanguage('de-DE')) as EditorState;
    expect(german.doc.attrs.language).toBe('de-DE');
    expect(run(state, setLanguage('not a language'))).toBeNull();
    expect((run(state, setPaperSize('US Letter')) as EditorState).doc.attrs.paper_size).toBe('US Letter');
    const shown = run(state, setPartHidden('subtitle', false)) as EditorState;
    expect(shown.doc.child(1).attrs.hidden).toBe(false);
    expect(run(state, setPartHidden('body', true))).toBeNull();
  });

  it('adds, edits and removes contributors and keywords', () => {
    const ada = {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.org',
      institution: 'RS',
      orcid: '',
    };
    let state = run(stateWith([p()]), saveContributor(ada, null)) as EditorState;
    state = run(state, saveContributor({ ...ada, firstname: 'Augusta' }, 0)) as EditorState;
    expect(state.doc.child(2).childCount).toBe(1);
    expect(state.doc.child(2).firstChild?.attrs.firstname).toBe('Augusta');
    expect(run(state, removeContributor(0))?.doc.child(2).childCount).toBe(0);
    state = run(state, addKeywords('ink; paper, Ink')) as EditorState;
    expect(state.doc.child(4).content.content.map((node) => node.attrs.keyword)).toEqual(['ink', 'paper']);
    expect(run(state, addKeywords('paper'))).toBeNull();
    expect(isValidOrcid('0000-0002-1825-0097')).toBe(true);
    expect(isValidOrcid('0000-0002-1825-0098')).toBe(false);
  });

  it('gives new and duplicated headings unique ids', () => {
    const state = stateWith([
      { type: 'heading', attrs: { level: 1, id: 'Ha' }, content: [text('One')] },
      { type: 'heading', attrs: { level: 1, id: 'Ha' }, content: [text('Two')] },
      { type: 'heading', attrs: { level: 2, id: '' }, content: [text('Three')] },
    ]);
    let counter = 0;
    const tr = assignHeadingIds(state, () => `Hn${++counter}`);
    const next = state.apply(tr as NonNullable<typeof tr>);
    expect(outline(next.doc).map((entry) => [entry.level, entry.text, entry.id])).toEqual([
      [1, 'One', 'Ha'],
      [1, 'Two', 'Hn1'],
      [2, 'Three', 'Hn2'],
    ]);
    expect(assignHeadingIds(next)).toBeNull();
  });
});

describe('search and replace', () => {
  const query = (text: string, options: Partial<SearchQuery> = {}): SearchQuery => ({
    text,
    caseSensitive: false,
    wholeWord: false,
    regex: false,
    ...options,
  });

  it('finds text by case, whole word and regular expression, in footnotes too', () => {
    const state = stateWith([
      p(text('Ink and ink, '), text('inky', [{ type: 'em' }]), {
        type: 'footnote',
        content: [p(text('ink note'))],
      }),
      p(text('Über über 2024-11-23')),
    ]);
    const texts = (q: SearchQuery) =>
      findMatches(state.doc, q).map((m) => state.doc.textBetween(m.from, m.to));
    expect(texts(query('ink'))).toEqual(['Ink', 'ink', 'ink', 'ink']);
    expect(texts(query('ink', { caseSensitive: true }))).toEqual(['ink', 'ink', 'ink']);
    expect(texts(query('ink', { wholeWord: true }))).toEqual(['Ink', 'ink', 'ink']);
    expect(texts(query('über', { wholeWord: true, caseSensitive: true }))).toEqual(['über']);
    expect(texts(query('\\d{4}-\\d\\d', { regex: true }))).toEqual(['2024-11']);
    expect(texts(query('(', { regex: true }))).toEqual([]);
    expect(texts(query('x*', { regex: true }))).toEqual([]);
  });

  it('replaces all in one undo step, keeping formatting and using regex groups', () => {
    const state = stateWith([p(text('cat '), text('cat', [{ type: 'strong' }]), text(' dog'))]);
    const tr = replaceAll(state, query('cat'), 'lion') as NonNullable<ReturnType<typeof replaceAll>>;
    const replaced = state.apply(tr);
    expect(body(replaced).textContent).toBe('lion lion dog');
    expect(
      body(replaced)
        .firstChild?.child(1)
        .marks.map((m) => m.type.name),
    ).toEqual(['strong']);
    const undone = run(replaced, undo) as EditorState;
    expect(body(undone).textContent).toBe('cat cat dog');
    const dated = stateWith([p(text('2024-11-23 and 1999-01-02'))]);
    const swapped = dated.apply(
      replaceAll(dated, query('(\\d{4})-(\\d\\d)-(\\d\\d)', { regex: true }), '$3.$2.$1') as NonNullable<
        ReturnType<typeof replaceAll>
      >,
    );
    expect(body(swapped).textContent).toBe('23.11.2024 and 02.01.1999');
    const first = findMatches(state.doc, query('cat'))[1];
    const one = state.apply(
      replaceOne(state, query('cat'), first, 'cow') as NonNullable<ReturnType<typeof replaceOne>>,
    );
    expect(body(one).textContent).toBe('cat cow dog');
  });
});

describe('counts and outline', () => {
  it('counts words and characters of the document and of a selection', () => {
    const state = stateWith([
      p(text('Two words'), { type: 'footnote', content: [p(text('and note'))] }),
      p(text('end')),
    ]);
    const stats = countDocument(state.doc);
    // Title "T" + body: T, Two, words, and, note, end.
    expect(stats.words).toBe(6);
    expect(stats.charactersWithoutSpaces).toBe('TTwowordsandnoteend'.length);
    const start = bodyStart(state.doc) + 1;
    expect(countDocument(state.doc, start, start + 3)).toEqual({
      words: 1,
      characters: 3,
      charactersWithoutSpaces: 3,
    });
    expect(countText('Научна статия за мастилото', 'bg').words).toBe(4);
  });

  it('counts the words of a document again from the changed textblock only', () => {
    const state = stateWith([
      p(text('Two words'), { type: 'footnote', content: [p(text('and note'))] }, text('after')),
      ...Array.from({ length: 50 }, (_, i) => p(text(`paragraph ${i} of five words`))),
    ]);
    expect(countWords(state.doc)).toBe(countDocument(state.doc).words);
    const typed = state.apply(state.tr.insertText(' three more words', bodyStart(state.doc) + 4));
    const expected = countDocument(typed.doc).words;
    expect(expected).toBe(countDocument(state.doc).words + 3);
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      expect(countWords(typed.doc)).toBe(expected);
      // The paragraph typed in (its footnote is part of its text), not the 50 others.
      const segmented = segment.mock.calls.map(([value]) => value);
      expect(segmented).toHaveLength(1);
      expect(segmented[0]).toMatch(/^Two three more words words\n+and note\n+after$/);
    } finally {
      segment.mockRestore();
    }
    const german = typed.apply(typed.tr.setDocAttribute('language', 'de-DE'));
    expect(countWords(german.doc)).toBe(countDocument(german.doc).words);
  });

  it('lists headings in order with levels and positions', () => {
    const state = stateWith([
      { type: 'heading', attrs: { level: 1, id: 'H1' }, content: [text('Intro')] },
      p(text('x')),
      { type: 'heading', attrs: { level: 3, id: 'H2' }, content: [text('Detail')] },
    ]);
    const entries = outline(state.doc);
    expect(entries.map((e) => [e.level, e.text, e.id])).toEqual([
      [1, 'Intro', 'H1'],
      [3, 'Detail', 'H2'],
    ]);
    expect(state.doc.nodeAt(entries[1].pos)?.textContent).toBe('Detail');
  });
});
