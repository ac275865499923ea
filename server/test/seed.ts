import type { Db } from '../src/db/database';

/** Who a shared document is shared with: a user, or a pending invite. */
export type AccessHolder = { userId: number } | { inviteId: number };

/**
 * Inserts a document of `ownerId` straight into the database, shared for writing with `holder`,
 * for tests (and benchmarks) whose subject is not how a document gets created or shared.
 */
export async function insertSharedDocument(
  db: Db,
  ownerId: number,
  holder: AccessHolder,
  fields: { title?: string; content?: string } = {},
): Promise<number> {
  const now = Date.now();
  const document = await db
    .insertInto('documents')
    .values({
      owner_id: ownerId,
      title: fields.title ?? 'Paper',
      path: '',
      content: fields.content ?? '{}',
      version: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('document_access')
    .values({
      document_id: document.id,
      user_id: 'userId' in holder ? holder.userId : null,
      invite_id: 'inviteId' in holder ? holder.inviteId : null,
      rights: 'write',
      path: '',
      created_at: now,
    })
    .execute();
  return document.id;
}
