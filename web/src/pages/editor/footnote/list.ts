import type { Node as PMNode } from 'prosemirror-model';
import type { EditorView } from 'prosemirror-view';
import { academicKey } from '../academic/academic-plugin';

/** What the list needs of a footnote's view: its entry, and where it is in the document. */
export interface ListedNote {
  readonly item: HTMLLIElement;
  /** The footnote node the view shows now (ProseMirror hands every changed one to `update`). */
  readonly current: PMNode;
  /** The note's number changed (a note was added or removed before it, or the citation style). */
  setNumber(number: number): void;
}

/** The notes of each editor, listed at the foot of the page view. */
const lists = new WeakMap<EditorView, FootnoteList>();
/** A footnote's number element in the text, to its view. */
const markers = new WeakMap<Node, ListedNote>();

/** The list of `outer`'s footnotes, made (and placed after the editor) on first use. */
export function footnoteListOf(outer: EditorView, heading: () => string): FootnoteList {
  let list = lists.get(outer);
  if (!list) {
    list = new FootnoteList(outer, heading);
    lists.set(outer, list);
  }
  return list;
}

/** The list of `outer`'s footnotes if it has any footnote. */
export function existingFootnoteList(outer: EditorView): FootnoteList | undefined {
  return lists.get(outer);
}

export function registerMarker(marker: Node, note: ListedNote): void {
  markers.set(marker, note);
}

/** The view of the footnote whose number is `marker` (the node view's DOM). */
export function noteOfMarker(marker: Node | null): ListedNote | undefined {
  return marker ? markers.get(marker) : undefined;
}

const idle = (callback: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(callback, { timeout: 250 });
  else setTimeout(callback, 50);
};

/**
 * The footnotes, each editable in place, listed under the text as in a pageless word processor
 * (and on a phone, where no margin exists). Each entry belongs to its footnote's node view; this
 * keeps them in document order and numbered as their numbers in the text (which, in a note style,
 * count the citations too). The order and numbers are checked once a change is done: at once when
 * a footnote's view comes or goes, when idle after other changes of the document.
 */
export class FootnoteList {
  readonly section: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly title: HTMLElement;
  private readonly entries = new Set<ListedNote>();
  private readonly waiting = new Set<'now' | 'idle'>();

  constructor(
    private readonly outer: EditorView,
    private readonly heading: () => string,
  ) {
    this.section = document.createElement('section');
    this.section.className = 'doc-notes';
    this.section.hidden = true;
    this.title = this.section.appendChild(document.createElement('h2'));
    this.title.className = 'doc-notes-heading';
    this.list = this.section.appendChild(document.createElement('ol'));
    this.list.className = 'doc-notes-list';
  }

  add(note: ListedNote): void {
    this.entries.add(note);
    // Shown at once (a new footnote is typed into right away), put in its place by `sync`.
    if (!this.section.isConnected && this.outer.dom.parentNode) this.outer.dom.after(this.section);
    this.list.append(note.item);
    this.section.hidden = false;
    this.schedule('now');
  }

  remove(note: ListedNote): void {
    this.entries.delete(note);
    note.item.remove();
    this.schedule('now');
  }

  /** Orders and numbers the entries after the current change: `now` in a microtask, or when idle. */
  schedule(when: 'now' | 'idle'): void {
    // Nothing listed and nothing shown: nothing to put in order.
    if (!this.entries.size && (this.section.hidden || !this.section.isConnected)) return;
    if (this.waiting.has(when)) return;
    this.waiting.add(when);
    const run = () => {
      this.waiting.delete(when);
      this.sync();
    };
    if (when === 'now') queueMicrotask(run);
    else idle(run);
  }

  /** Puts the entries in document order with their numbers; touches only what changed. */
  sync(): void {
    const outer = this.outer;
    if (outer.isDestroyed) return;
    if (!this.section.isConnected && outer.dom.parentNode) outer.dom.after(this.section);
    const heading = this.heading();
    if (this.title.textContent !== heading) this.title.textContent = heading;
    const noteStyle = academicKey.getState(outer.state)?.rendered?.styleClass === 'note';
    const wanted: HTMLLIElement[] = [];
    // Found by node, not by position: looking up each view by position scans the blocks before it.
    const byNode = new Map<PMNode, ListedNote[]>();
    for (const note of this.entries) {
      const same = byNode.get(note.current);
      if (same) same.push(note);
      else byNode.set(note.current, [note]);
    }
    let number = 0;
    outer.state.doc.descendants((node) => {
      const name = node.type.name;
      if (name === 'footnote') {
        number++;
        const note = byNode.get(node)?.shift();
        if (note) {
          note.setNumber(number);
          wanted.push(note.item);
        }
        return false;
      }
      if (name === 'citation') {
        if (noteStyle) number++;
        return false;
      }
      return !node.isText;
    });
    // Moves only entries out of place: an entry being typed in keeps its focus.
    let cursor = this.list.firstElementChild;
    for (const item of wanted) {
      if (cursor === item) cursor = cursor.nextElementSibling;
      else this.list.insertBefore(item, cursor);
    }
    while (cursor) {
      const next = cursor.nextElementSibling;
      cursor.remove();
      cursor = next;
    }
    this.section.hidden = wanted.length === 0;
  }

  destroy(): void {
    this.section.remove();
    lists.delete(this.outer);
  }
}
