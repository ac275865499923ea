import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { fileName, folderName, folderOf, foldersOf, subfolders } from '@scriptorium/common/rules/paths';

export interface FolderRow {
  kind: 'folder';
  /** Row id for the table: 'folder:/a/b/'. */
  key: string;
  path: string;
  name: string;
  /** Documents anywhere below this folder. */
  count: number;
}

export interface DocumentRow {
  kind: 'document';
  /** Row id for the table: 'document:12'. */
  key: string;
  name: string;
  doc: DocumentEntry;
}

export type OverviewRow = FolderRow | DocumentRow;

/** The folder of a document for this user ('' counts as the top folder '/'). */
export function documentFolder(doc: Pick<DocumentEntry, 'path'>): string {
  return folderOf(doc.path);
}

/** Every folder the user's documents imply, plus folders made in this session and not yet used. */
export function knownFolders(documents: readonly DocumentEntry[], extra: readonly string[] = []): string[] {
  return foldersOf([...documents.map((doc) => doc.path), ...extra]);
}

function documentRow(doc: DocumentEntry, untitled: string): DocumentRow {
  return { kind: 'document', key: `document:${doc.id}`, name: fileName(doc, untitled), doc };
}

/**
 * The rows of one folder: its direct subfolders (first, by name) and its documents. With a search
 * the whole tree is searched: every document, wherever it is, so that thousands stay findable.
 */
export function overviewRows(
  documents: readonly DocumentEntry[],
  folder: string,
  options: { untitled: string; extraFolders?: readonly string[]; searching?: boolean },
): OverviewRow[] {
  if (options.searching) return documents.map((doc) => documentRow(doc, options.untitled));
  const folders = knownFolders(documents, options.extraFolders);
  const counts = new Map<string, number>();
  for (const doc of documents) {
    const own = documentFolder(doc);
    if (own === folder || !own.startsWith(folder)) continue;
    // The direct subfolder of `folder` that holds this document.
    const child = `${folder}${own.slice(folder.length).split('/')[0]}/`;
    counts.set(child, (counts.get(child) ?? 0) + 1);
  }
  const folderRows: FolderRow[] = subfolders(folders, folder)
    .map((path) => ({
      kind: 'folder' as const,
      key: `folder:${path}`,
      path,
      name: folderName(path),
      count: counts.get(path) ?? 0,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }));
  const documentRows = documents
    .filter((doc) => documentFolder(doc) === folder)
    .map((doc) => documentRow(doc, options.untitled))
    // Equal times (documents made in one batch, an import) in a fixed order: the newest first.
    .sort((a, b) => b.doc.updated - a.doc.updated || b.doc.id - a.doc.id);
  return [...folderRows, ...documentRows];
}

/**
 * What a selection means for moving: every selected document, plus every document below a
 * selected folder with `keep` (its path below the folder's parent) so the folder moves whole.
 */
export function moveItems(
  rows: readonly OverviewRow[],
  documents: readonly DocumentEntry[],
): { id: number; title: string; path: string; keep?: string }[] {
  const items = new Map<number, { id: number; title: string; path: string; keep?: string }>();
  for (const row of rows) {
    if (row.kind === 'document') {
      items.set(row.doc.id, { id: row.doc.id, title: row.doc.title, path: row.doc.path });
      continue;
    }
    const parent = folderOf(row.path.slice(0, -1));
    for (const doc of documents) {
      const own = documentFolder(doc);
      if (own.startsWith(row.path)) {
        items.set(doc.id, {
          id: doc.id,
          title: doc.title,
          path: doc.path,
          keep: doc.path.slice(parent.length),
        });
      }
    }
  }
  return [...items.values()];
}

/** The documents a selection covers (the documents themselves and everything below selected folders). */
export function selectedDocuments(
  rows: readonly OverviewRow[],
  documents: readonly DocumentEntry[],
): DocumentEntry[] {
  const ids = new Set(moveItems(rows, documents).map((item) => item.id));
  return documents.filter((doc) => ids.has(doc.id));
}
