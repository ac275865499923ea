import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { describe, expect, it } from 'vitest';
import { moveItems, overviewRows } from './overview-rows';
import { testDocument } from './test-documents';

function doc(id: number, path: string, title = `Doc ${id}`, updated = id): DocumentEntry {
  return testDocument(id, path, title, { created: 1, updated });
}

const docs = [doc(1, ''), doc(2, '/thesis/'), doc(3, '/thesis/drafts/'), doc(4, '/notes/x'), doc(5, '/', '')];

describe('overviewRows', () => {
  it('lists the subfolders first, then the documents of the folder', () => {
    const rows = overviewRows(docs, '/', { untitled: 'Untitled' });
    expect(rows.map((row) => row.name)).toEqual(['notes', 'thesis', 'Untitled', 'Doc 1']);
    expect(rows[1]).toMatchObject({ kind: 'folder', path: '/thesis/', count: 2 });
  });

  it('orders documents saved at the same time newest first, whatever order they came in', () => {
    const sameTime = [doc(21, '/', 'A', 7), doc(25, '/', 'B', 7), doc(23, '/', 'C', 7), doc(24, '/', 'D', 9)];
    const ids = (list: DocumentEntry[]) =>
      overviewRows(list, '/', { untitled: 'U' }).map((row) => (row.kind === 'document' ? row.doc.id : 0));
    expect(ids(sameTime)).toEqual([24, 25, 23, 21]);
    expect(ids([...sameTime].reverse())).toEqual([24, 25, 23, 21]);
  });

  it('shows a document under its file-name tail', () => {
    expect(overviewRows(docs, '/notes/', { untitled: 'U' }).map((row) => row.name)).toEqual(['x']);
  });

  it('adds empty folders made in this session and searches everywhere', () => {
    const rows = overviewRows(docs, '/thesis/', { untitled: 'U', extraFolders: ['/thesis/new/'] });
    expect(rows.map((row) => row.key)).toEqual([
      'folder:/thesis/drafts/',
      'folder:/thesis/new/',
      'document:2',
    ]);
    expect(overviewRows(docs, '/thesis/', { untitled: 'U', searching: true })).toHaveLength(5);
  });

  it('moves a selected folder with everything below it', () => {
    const rows = overviewRows(docs, '/', { untitled: 'U' }).filter((row) => row.key === 'folder:/thesis/');
    expect(moveItems(rows, docs)).toEqual([
      { id: 2, title: 'Doc 2', path: '/thesis/', keep: 'thesis/' },
      { id: 3, title: 'Doc 3', path: '/thesis/drafts/', keep: 'thesis/drafts/' },
    ]);
  });
});
