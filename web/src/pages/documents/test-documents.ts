import type { DocumentEntry } from '@scriptorium/common/api/documents';

/** A row of the documents overview for tests: Ann's, writable, with what a test changes in `extra`. */
export function testDocument(
  id: number,
  path: string,
  title: string,
  extra: Partial<DocumentEntry> = {},
): DocumentEntry {
  return {
    id,
    title,
    path,
    owner: { id: 1, name: 'Ann Owner', username: 'ann' },
    is_owner: true,
    rights: 'write',
    created: Date.UTC(2025, 0, 1),
    updated: Date.UTC(2025, 0, 2),
    ...extra,
  };
}
