import type { AccessRight } from '@scriptorium/common/api/documents';
import type { Node as PMNode } from 'prosemirror-model';
import type { Db } from '../src/db/database';
import { createDocument } from '../src/modules/documents/commands/create-document';
import { createUser } from '../src/modules/user/commands/create-user';

/** Who a shared document is shared with: a user, or a pending invite. */
export type AccessHolder = { userId: number } | { inviteId: number };

/** Gives `holder` a right on a document straight in the database (`write` unless told). */
export async function shareDocument(
  db: Db,
  documentId: number,
  holder: AccessHolder,
  rights: AccessRight = 'write',
): Promise<void> {
  await db
    .insertInto('document_access')
    .values({
      document_id: documentId,
      user_id: 'userId' in holder ? holder.userId : null,
      invite_id: 'inviteId' in holder ? holder.inviteId : null,
      rights,
      path: '',
      created_at: Date.now(),
    })
    .execute();
}

/**
 * Inserts a document of `ownerId` straight into the database, shared for writing with `holder`,
 * for tests (and benchmarks) whose subject is not how a document gets created or shared.
 */
export async function insertSharedDocument(
  db: Db,
  ownerId: number,
  holder: AccessHolder,
  fields: { title?: string; content?: PMNode } = {},
): Promise<number> {
  // Without content: a new document, as the create call makes it.
  const { id } = await createDocument(db, ownerId, {
    title: fields.title ?? 'Paper',
    path: '',
    ...(fields.content ? { content: fields.content } : {}),
  });
  await shareDocument(db, id, holder);
  return id;
}

/** Adds another e-mail address to a user straight in the database (not primary). */
export async function addEmailAddress(
  db: Db,
  userId: number,
  address: string,
  verified: boolean,
): Promise<void> {
  await db
    .insertInto('user_emails')
    .values({
      user_id: userId,
      address,
      address_lower: address.toLowerCase(),
      is_primary: 0,
      verified: verified ? 1 : 0,
    })
    .execute();
}

/**
 * Two verified users, ada and emmy (password `password`), and a new document of ada's titled
 * `title` that emmy may write: the co-authors of the tests that run real server processes. The
 * document's id.
 */
export async function seedTwoAuthors(db: Db, password: string, title: string): Promise<number> {
  const users: { id: number }[] = [];
  for (const username of ['ada', 'emmy'])
    users.push(
      await createUser({ db }, { username, email: `${username}@example.org`, password, emailVerified: true }),
    );
  return insertSharedDocument(db, users[0].id, { userId: users[1].id }, { title });
}
