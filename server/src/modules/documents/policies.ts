import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import { findVisibleDocument, type VisibleDocument } from './queries';

type Executor = Pick<Db, 'selectFrom'>;

/** The document if the user may see it; 404 otherwise, so another user's ids reveal nothing. */
export async function requireVisible(db: Executor, userId: number, id: number): Promise<VisibleDocument> {
  const doc = await findVisibleDocument(db, userId, id);
  if (!doc) throw new HttpError(404);
  return doc;
}

/**
 * The document if the user owns it. A collaborator asking for an owner-only action gets 403 (they
 * know the document exists); anyone else 404.
 */
export async function requireOwner(db: Executor, userId: number, id: number): Promise<VisibleDocument> {
  const doc = await requireVisible(db, userId, id);
  if (doc.rights !== null) throw new HttpError(403);
  return doc;
}
