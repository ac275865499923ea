import type { AccessRight } from '@scriptorium/common/api/documents';
import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** A document row as the overview needs it (no content), from the point of view of one user. */
export interface VisibleDocument {
  id: number;
  title: string;
  /** The viewer's own path: the document's for the owner, the access row's for a collaborator. */
  path: string;
  owner_id: number;
  owner_username: string;
  owner_first_name: string;
  owner_last_name: string;
  created_at: number;
  updated_at: number;
  /** null for the owner. */
  rights: AccessRight | null;
}

type Executor = Pick<Db, 'selectFrom'>;

/** A listed document without its owner's names: an overview has many rows and few owners. */
export type ListedDocument = Omit<VisibleDocument, 'owner_username' | 'owner_first_name' | 'owner_last_name'>;

export interface DocumentOwner {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
}

/** What a listed document shows, owned or shared; the path is the owner's or the holder's own. */
const LISTED_COLUMNS = [
  'documents.id',
  'documents.title',
  'documents.owner_id',
  'documents.created_at',
  'documents.updated_at',
] as const;

const OWNER_COLUMNS = [
  'users.username as owner_username',
  'users.first_name as owner_first_name',
  'users.last_name as owner_last_name',
] as const;

function ownedQuery(db: Executor, userId: number) {
  return (
    db
      .selectFrom('documents')
      .select([...LISTED_COLUMNS, 'documents.path'])
      // The owner holds no access row: rights null, straight from the query (no copy of each row).
      .select(sql<null>`null`.as('rights'))
      .where('documents.owner_id', '=', userId)
  );
}

function sharedQuery(db: Executor, userId: number) {
  return db
    .selectFrom('document_access')
    .innerJoin('documents', 'documents.id', 'document_access.document_id')
    .select([...LISTED_COLUMNS, 'document_access.path', 'document_access.rights'])
    .where('document_access.user_id', '=', userId);
}

/** Owners are looked up in batches of this many ids (far below both engines' parameter limits). */
const OWNER_BATCH = 500;

/**
 * Every document the user owns or holds a right to, and their owners once each. The owner's
 * names were columns of every row: with 5,000 documents from a few owners, a third of the list's
 * query time was making those 15,000 strings.
 */
export async function listVisibleDocumentsAndOwners(
  db: Executor,
  userId: number,
): Promise<{ documents: ListedDocument[]; owners: Map<number, DocumentOwner> }> {
  const [owned, shared] = await Promise.all([
    ownedQuery(db, userId).execute(),
    sharedQuery(db, userId).execute(),
  ]);
  const documents: ListedDocument[] = owned;
  for (const row of shared) documents.push(row as ListedDocument);
  const ownerIds = [...new Set(documents.map((doc) => doc.owner_id))];
  const owners = new Map<number, DocumentOwner>();
  for (let start = 0; start < ownerIds.length; start += OWNER_BATCH) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'username', 'first_name', 'last_name'])
      .where('id', 'in', ownerIds.slice(start, start + OWNER_BATCH))
      .execute();
    for (const row of rows) owners.set(row.id, row);
  }
  return { documents, owners };
}

/** Every document the user owns or holds a right to, each with its owner's names. */
export async function listVisibleDocuments(db: Executor, userId: number): Promise<VisibleDocument[]> {
  const { documents, owners } = await listVisibleDocumentsAndOwners(db, userId);
  return documents.map((doc) => {
    const owner = owners.get(doc.owner_id) as DocumentOwner;
    return {
      ...doc,
      owner_username: owner.username,
      owner_first_name: owner.first_name,
      owner_last_name: owner.last_name,
    };
  });
}

/** The owner and every holder of a right to the document: whoever lists it in an overview. */
export async function documentViewerIds(db: Executor, id: number): Promise<number[]> {
  const [owner, holders] = await Promise.all([
    db.selectFrom('documents').select('owner_id').where('id', '=', id).executeTakeFirst(),
    db.selectFrom('document_access').select('user_id').where('document_id', '=', id).execute(),
  ]);
  // Pending invites have no user yet.
  const users = holders.flatMap((row) => (row.user_id === null ? [] : [row.user_id]));
  return [...(owner ? [owner.owner_id] : []), ...users];
}

/** One document if the user owns it or holds a right to it; undefined otherwise (answer 404). */
export async function findVisibleDocument(
  db: Executor,
  userId: number,
  id: number,
): Promise<VisibleDocument | undefined> {
  const owned = await ownedQuery(db, userId)
    .innerJoin('users', 'users.id', 'documents.owner_id')
    .select(OWNER_COLUMNS)
    .where('documents.id', '=', id)
    .executeTakeFirst();
  if (owned) return owned;
  const shared = await sharedQuery(db, userId)
    .innerJoin('users', 'users.id', 'documents.owner_id')
    .select(OWNER_COLUMNS)
    .where('documents.id', '=', id)
    .executeTakeFirst();
  return shared ? { ...shared, rights: shared.rights as AccessRight } : undefined;
}
