import { type CiteCandidate, CiteIndex } from '@scriptorium/common/bibliography/cite-search';
import type { BibEntry, EntryData } from '@scriptorium/common/bibliography/types';
import { addToBibliography, insertCitation } from '@scriptorium/common/editor/academic-commands';
import type { CitationReference } from '@scriptorium/common/editor/academic-nodes';
import { TRACKED_CHANGE_MARKS } from '@scriptorium/common/editor/review-marks';
import type { Node as PMNode } from 'prosemirror-model';
import { type EditorState, NodeSelection, Plugin, PluginKey, type Transaction } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { loadLibrary } from '../../bibliography/bibliography-api';
import './inline-cite.css';

/**
 * Inline citing (issue 55). `@` at the start of a word opens a completion list at the caret with
 * the user's library (author, year, title), searched as the user types after the `@`; Enter, Tab
 * or a click replaces `@query` with a citation of the entry. `;` or `@` typed right after a
 * citation opens the list again, and the entry picked joins that citation's cluster. Escape closes
 * the list and keeps the text. Enter on a selected citation opens the full citation dialog (as a
 * double-click does). The list is plain DOM beside the editor, an ARIA listbox the editor points
 * at with aria-activedescendant; the keys are taken before the editor's keymaps.
 */

export interface CiteLibrary {
  /** The owner's id: the document's copy of an entry is keyed `<owner>-<entry id>`. */
  owner: number;
  entries: readonly BibEntry[];
}

export interface InlineCiteContext {
  t(key: string, options?: Record<string, unknown>): string;
  /** Loads the user's library: calls back with each copy (the cached one, then the server's), or failed. */
  library(found: (library: CiteLibrary) => void, failed: () => void): void;
  /** Opens the full citation dialog on the selected citation. */
  edit(): void;
}

/** The library of the user `owner` as the bibliography page keeps it (cached copy, then the server's). */
export function userLibrary(owner: number): InlineCiteContext['library'] {
  return (found, failed) => {
    loadLibrary(owner, (cached) => found({ owner, entries: cached.entries })).then(
      (loaded) => found({ owner, entries: loaded.entries }),
      failed,
    );
  };
}

export interface InlineCiteState {
  /** Where the typed `@` (or `;`) is. */
  from: number;
  /** A new citation, or one more reference for the citation just before `from`. */
  mode: 'new' | 'append';
  query: string;
  results: CiteCandidate[];
  active: number;
}

type Meta =
  | { open: { trigger: '@' | ';'; mode: InlineCiteState['mode'] } }
  | { close: true }
  | { move: number }
  | { library: true };

export const inlineCiteKey = new PluginKey<InlineCiteState | null>('inlineCite');

const LIMIT = 10;
const MAX_QUERY = 80;
const RELOAD_AFTER_MS = 60_000;
/** An atom in the text between the trigger and the caret (the query then is no longer plain text). */
const LEAF = '\uFFFC';

function citationBefore(doc: PMNode, pos: number): PMNode | null {
  const before = doc.resolve(pos).nodeBefore;
  return before?.type.name === 'citation' ? before : null;
}

/** May a citation go at `pos` (the part allows it, not in code)? */
function citable(state: EditorState, pos: number): boolean {
  const $pos = state.doc.resolve(pos);
  if ($pos.parent.type.spec.code) return false;
  const probe: CitationReference = { id: 'probe', prefix: '', locator: '' };
  return insertCitation('autocite', [probe], new Map())(state);
}

/** The open list after a change of the document or selection, or null when it should close. */
function follow(
  value: InlineCiteState,
  tr: Transaction,
  state: EditorState,
  search: (query: string) => CiteCandidate[] | null,
): InlineCiteState | null {
  const from = tr.mapping.map(value.from, 1);
  const { selection, doc } = state;
  if (!selection.empty || selection.from <= from) return null;
  const $from = doc.resolve(from);
  if (selection.$from.parent !== $from.parent) return null;
  const typed = doc.textBetween(from, selection.from, '', LEAF);
  const trigger = value.mode === 'new' ? '@' : typed[0];
  if (typed[0] !== trigger || (trigger !== '@' && trigger !== ';')) return null;
  if (value.mode === 'append' && !citationBefore(doc, from)) return null;
  const query = typed.slice(1);
  if (query.includes(LEAF) || query.length > MAX_QUERY || /^\s/.test(query)) return null;
  if (query === value.query) return from === value.from ? value : { ...value, from };
  const results = search(query);
  // A space after a query nothing matches: the user is writing on, not citing.
  if (results && !results.length && /\s$/.test(query)) return null;
  return { ...value, from, query, results: results ?? [], active: 0 };
}

/** The reference and its entry data as the document's bibliography stores them. */
function referenceOf(owner: number, entry: BibEntry): { ref: CitationReference; data: EntryData } {
  return {
    ref: { id: `${owner}-${entry.id}`, prefix: '', locator: '' },
    data: { entry_key: entry.entry_key, bib_type: entry.bib_type, fields: entry.fields, cats: [] },
  };
}

/** Replaces the typed `@query` with a citation of `entry`, or adds it to the citation before `;query`. */
export function citeCandidate(
  state: EditorState,
  open: InlineCiteState,
  owner: number,
  entry: BibEntry,
): Transaction | null {
  const { ref, data } = referenceOf(owner, entry);
  const to = state.selection.from;
  const entries = new Map([[ref.id, data]]);
  if (open.mode === 'append') {
    const citation = citationBefore(state.doc, open.from);
    if (!citation) return null;
    const references = citation.attrs.references as CitationReference[];
    const next = references.some((known) => known.id === ref.id) ? references : [...references, ref];
    // The cluster is replaced as a whole (a tracked author's own new citation is then simply
    // replaced, someone else's becomes a suggested replacement); its formatting marks stay.
    const marks = citation.marks.filter((mark) => !TRACKED_CHANGE_MARKS.includes(mark.type.name as never));
    const replaced = citation.type.create({ ...citation.attrs, references: next }, null, marks);
    const tr = state.tr.replaceWith(open.from - citation.nodeSize, to, replaced);
    return addToBibliography(tr, entries).scrollIntoView();
  }
  let made: Transaction | null = null;
  insertCitation('autocite', [ref], entries, { from: open.from, to })(state, (tr) => {
    made = tr;
  });
  return made;
}

/** The library and its search index, shared by the plugin's state and its view. */
class LibrarySource {
  library: CiteLibrary | null = null;
  failed = false;
  private index: CiteIndex | null = null;
  private loadedAt = -Infinity;
  private loading = false;
  constructor(private readonly context: InlineCiteContext) {}

  /** Loads the library when the list opens (again after a minute: it may have changed elsewhere). */
  load(changed: () => void): void {
    if (this.loading || performance.now() - this.loadedAt < RELOAD_AFTER_MS) return;
    this.loading = true;
    this.context.library(
      (library) => {
        this.loading = false;
        this.loadedAt = performance.now();
        this.failed = false;
        this.library = library;
        // Built once per copy of the library (folding only changed entries), never on a keystroke.
        this.index = new CiteIndex(library.entries, this.index ?? undefined);
        changed();
      },
      () => {
        this.loading = false;
        this.failed = !this.library;
        changed();
      },
    );
  }

  /** The first matches, or null while the library is not there. */
  search(query: string): CiteCandidate[] | null {
    return this.index ? this.index.search(query, LIMIT) : null;
  }
}

let lists = 0;

/** The completion list: a listbox at the caret, drawn from the plugin state. */
class CiteListView {
  private readonly root: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly message: HTMLElement;
  private shown: InlineCiteState | null = null;
  private readonly place = () => this.position();

  constructor(
    private readonly view: EditorView,
    private readonly source: LibrarySource,
    private readonly context: InlineCiteContext,
    private readonly id: string,
  ) {
    this.root = document.createElement('div');
    this.root.className = 'inline-cite';
    this.root.hidden = true;
    this.list = this.root.appendChild(document.createElement('ul'));
    this.list.id = this.id;
    this.list.setAttribute('role', 'listbox');
    this.message = this.root.appendChild(document.createElement('p'));
    this.message.className = 'inline-cite-message';
    this.message.setAttribute('role', 'status');
    // The editor keeps the focus: a press on the list must not take it.
    this.root.addEventListener('mousedown', (event) => event.preventDefault());
    this.root.addEventListener('click', (event) => {
      const option = (event.target as HTMLElement).closest<HTMLElement>('[role="option"]');
      if (option) pick(this.view, this.source, Number(option.dataset.index));
    });
    document.body.appendChild(this.root);
    window.addEventListener('scroll', this.place, true);
    window.addEventListener('resize', this.place);
    this.update(view);
  }

  update(view: EditorView): void {
    const open = inlineCiteKey.getState(view.state) ?? null;
    if (open === this.shown) return;
    const opened = open && !this.shown;
    this.shown = open;
    if (!open) {
      this.root.hidden = true;
      return;
    }
    if (opened)
      this.source.load(() =>
        // Never inside this update (a cached library may answer at once).
        queueMicrotask(() => {
          if (!view.isDestroyed) view.dispatch(view.state.tr.setMeta(inlineCiteKey, { library: true }));
        }),
      );
    this.draw(open);
    this.root.hidden = false;
    this.position();
  }

  private draw(open: InlineCiteState): void {
    const { t } = this.context;
    this.list.setAttribute('aria-label', t('academic.inlineCite.label'));
    const options = open.results.map((candidate, index) => {
      const option = document.createElement('li');
      option.id = `${this.id}-${index}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', String(index === open.active));
      option.dataset.index = String(index);
      const head = option.appendChild(document.createElement('span'));
      head.className = 'inline-cite-head';
      head.textContent = [candidate.authors || candidate.entry.entry_key, candidate.year]
        .filter(Boolean)
        .join(', ');
      const title = option.appendChild(document.createElement('span'));
      title.className = 'inline-cite-title';
      title.textContent = candidate.title;
      return option;
    });
    this.list.replaceChildren(...options);
    this.list.hidden = !options.length;
    const { library, failed } = this.source;
    this.message.textContent = options.length
      ? ''
      : failed
        ? t('academic.citation.libraryFailed')
        : !library
          ? t('academic.inlineCite.loading')
          : library.entries.length
            ? t('academic.inlineCite.noMatches')
            : t('academic.inlineCite.empty');
    this.message.hidden = !this.message.textContent;
    options[open.active]?.scrollIntoView?.({ block: 'nearest' });
  }

  /** Below the `@` (above it when there is no room below), inside the window. */
  private position(): void {
    if (!this.shown || this.root.hidden) return;
    let at: { left: number; top: number; bottom: number };
    try {
      at = this.view.coordsAtPos(this.shown.from);
    } catch {
      return;
    }
    const width = this.root.offsetWidth;
    const height = this.root.offsetHeight;
    const viewport = window.visualViewport;
    const innerWidth = viewport?.width ?? window.innerWidth;
    const innerHeight = viewport?.height ?? window.innerHeight;
    const left = Math.max(8, Math.min(at.left, innerWidth - width - 8));
    const below = at.bottom + 4;
    const top = below + height > innerHeight - 8 && at.top - height - 4 > 8 ? at.top - height - 4 : below;
    this.root.style.left = `${left}px`;
    this.root.style.top = `${top}px`;
  }

  destroy(): void {
    window.removeEventListener('scroll', this.place, true);
    window.removeEventListener('resize', this.place);
    this.root.remove();
  }
}

/**
 * The meta of the transaction being dispatched. Suggestion mode dispatches another transaction
 * in its place (the same change as marks), without our meta: the plugin takes it from here.
 */
let dispatching: Meta | null = null;
function dispatchWith(view: EditorView, tr: Transaction, meta: Meta): void {
  dispatching = meta;
  try {
    view.dispatch(tr.setMeta(inlineCiteKey, meta));
  } finally {
    dispatching = null;
  }
}

function pick(view: EditorView, source: LibrarySource, index: number): boolean {
  const open = inlineCiteKey.getState(view.state);
  const candidate = open?.results[index];
  if (!open || !candidate || !source.library) return false;
  const tr = citeCandidate(view.state, open, source.library.owner, candidate.entry);
  if (!tr) return false;
  dispatchWith(view, tr, { close: true });
  return true;
}

function close(view: EditorView): void {
  view.dispatch(view.state.tr.setMeta(inlineCiteKey, { close: true }));
}

export function inlineCitePlugin(context: InlineCiteContext): Plugin<InlineCiteState | null> {
  const source = new LibrarySource(context);
  const listId = `inline-cite-${++lists}`;
  const search = (query: string) => source.search(query);
  return new Plugin<InlineCiteState | null>({
    key: inlineCiteKey,
    state: {
      init: () => null,
      apply(tr, value, _old, state) {
        const meta = (tr.getMeta(inlineCiteKey) as Meta | undefined) ?? (tr.docChanged ? dispatching : null);
        if (meta && 'close' in meta) return null;
        if (meta && 'open' in meta) {
          // The trigger is just before the caret (also when suggestion mode kept a deleted selection).
          const { selection, doc } = state;
          const from = selection.from - 1;
          if (
            !selection.empty ||
            from < 0 ||
            doc.textBetween(from, selection.from, '', LEAF) !== meta.open.trigger
          )
            return null;
          if (meta.open.mode === 'append' && !citationBefore(doc, from)) return null;
          return { from, mode: meta.open.mode, query: '', results: search('') ?? [], active: 0 };
        }
        if (!value) return null;
        if (meta && 'move' in meta) {
          const count = value.results.length;
          return count ? { ...value, active: (value.active + meta.move + count) % count } : value;
        }
        if (meta && 'library' in meta) {
          const results = search(value.query) ?? [];
          return { ...value, results, active: 0 };
        }
        if (!tr.docChanged && !tr.selectionSet) return value;
        return follow(value, tr, state, search);
      },
    },
    props: {
      handleTextInput(view, from, to, text) {
        if ((text !== '@' && text !== ';') || !view.editable) return false;
        const { state } = view;
        const after = from === to ? citationBefore(state.doc, from) : null;
        if (text === ';' && !after) return false;
        if (!after) {
          const $from = state.doc.resolve(from);
          const before = $from.parent.textBetween(
            Math.max(0, $from.parentOffset - 1),
            $from.parentOffset,
            '',
            ' ',
          );
          if (before && !/\s|\(|\[/.test(before)) return false;
        }
        if (!citable(state, from)) return false;
        dispatchWith(view, state.tr.insertText(text, from, to), {
          open: { trigger: text, mode: after ? 'append' : 'new' },
        });
        return true;
      },
      handleDOMEvents: {
        keydown(view, event) {
          if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return false;
          const open = inlineCiteKey.getState(view.state);
          if (!open) {
            // Enter on a selected citation opens the full dialog (prefix, locator, form).
            const { selection } = view.state;
            if (
              event.key === 'Enter' &&
              !event.shiftKey &&
              view.editable &&
              selection instanceof NodeSelection &&
              selection.node.type.name === 'citation'
            ) {
              event.preventDefault();
              context.edit();
              return true;
            }
            return false;
          }
          let handled = true;
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp')
            view.dispatch(view.state.tr.setMeta(inlineCiteKey, { move: event.key === 'ArrowDown' ? 1 : -1 }));
          else if (event.key === 'Escape') close(view);
          else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
            handled = pick(view, source, open.active);
            // Nothing to pick: the key does what it does, without the list.
            if (!handled) close(view);
          } else handled = false;
          if (handled) event.preventDefault();
          return handled;
        },
        blur(view, event) {
          const to = (event as FocusEvent).relatedTarget as Node | null;
          if (inlineCiteKey.getState(view.state) && !(to && view.dom.contains(to))) close(view);
          return false;
        },
      },
      attributes(state): Record<string, string> {
        const open = inlineCiteKey.getState(state);
        if (!open) return {};
        // The role the browser gives the editor anyway, named so that aria-autocomplete is allowed.
        const attributes: Record<string, string> = {
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': context.t('academic.inlineCite.editor'),
          'aria-autocomplete': 'list',
          'aria-controls': listId,
        };
        if (open.results.length) attributes['aria-activedescendant'] = `${listId}-${open.active}`;
        return attributes;
      },
    },
    view: (view) => new CiteListView(view, source, context, listId),
  });
}
