import { cleanPath } from '@scriptorium/common/rules/paths';
import type { Db } from '../../../db/database';

/** A new document is empty; the editor fills in its structure on first open. */
export const EMPTY_CONTENT = JSON.stringify({ type: 'doc', content: [] });

/** Creates a document owned by the user (empty unless `content` is given); answers its id and its cleaned path. */
export async function createDocument(
  db: Db,
  ownerId: number,
  input: { title: string; path: string; content?: string },
): Promise<{ id: number; path: string }> {
  const title = input.title.trim();
  const path = cleanPath(input.path, title);
  const now = Date.now();
  const row = await db
    .insertInto('documents')
    .values({
      owner_id: ownerId,
      title,
      path,
      content: input.content ?? EMPTY_CONTENT,
      version: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, path };
}
