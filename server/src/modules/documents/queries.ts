import type { AccessRight } from '@scriptorium/common/api/documents';
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

/** What a listed document shows, owned or shared; the path is the owner's or the holder's own. */
const LISTED_COLUMNS = [
  'documents.id',
  'documents.title',
  'documents.owner_id',
  'users.username as owner_username',
  'users.first_name as owner_first_name',
  'users.last_name as owner_last_name',
  'documents.created_at',
  'documents.updated_at',
] as const;

function ownedQuery(db: Executor, userId: number) {
  return db
    .selectFrom('documents')
    .innerJoin('users', 'users.id', 'documents.owner_id')
    .select([...LISTED_COLUMNS, 'documents.path'])
    .where('documents.owner_id', '=', userId);
}

function sharedQuery(db: Executor, userId: number) {
  return db
    .selectFrom('document_access')
    .innerJoin('documents', 'documents.id', 'document_access.document_id')
    .innerJoin('users', 'users.id', 'documents.owner_id')
    .select([...LISTED_COLUMNS, 'document_access.path', 'document_access.rights'])
    .where('document_access.user_id', '=', userId);
}

/** Every document the user owns or holds a right to. */
export async function listVisibleDocuments(db: Executor, userId: number): Promise<VisibleDocument[]> {
  const [owned, shared] = await Promise.all([
    ownedQuery(db, userId).execute(),
    sharedQuery(db, userId).execute(),
  ]);
  return [
    ...owned.map((row) => ({ ...row, rights: null })),
    ...shared.map((row) => ({ ...row, rights: row.rights as AccessRight })),
  ];
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
  const owned = await ownedQuery(db, userId).where('documents.id', '=', id).executeTakeFirst();
  if (owned) return { ...owned, rights: null };
  const shared = await sharedQuery(db, userId).where('documents.id', '=', id).executeTakeFirst();
  return shared ? { ...shared, rights: shared.rights as AccessRight } : undefined;
}
