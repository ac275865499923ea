import { insertCitation } from '@scriptorium/common/editor/academic-commands';
import type { EditorView } from 'prosemirror-view';

/** Tests of the academic layer: cites the entry `id`, a book titled "T", at the selection. */
export function citeBook(view: EditorView, id: string): void {
  const entry = { bib_type: 'book', fields: { title: [{ type: 'text', text: 'T' }] } };
  insertCitation(
    'autocite',
    [{ id, prefix: '', locator: '' }],
    new Map([[id, entry as never]]),
  )(view.state, view.dispatch);
}
