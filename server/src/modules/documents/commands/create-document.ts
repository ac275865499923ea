import { TITLE_MAX } from '@scriptorium/common/api/documents';
import { hasUnsafeLink } from '@scriptorium/common/editor/safe-links';
import { checkDocument, documentTitle, withTitleCut } from '@scriptorium/common/editor/templates';
import { cleanPath } from '@scriptorium/common/rules/paths';
import type { Node as PMNode } from 'prosemirror-model';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/database';
import { HttpError } from '../../../http/errors';
import type { Actor } from '../../command';
import { EMPTY_CONTENT, parseSnapshot } from '../collab/store';

export { EMPTY_CONTENT } from '../collab/store';

/**
 * Creates a document owned by the user (empty unless `content` is given); answers its id and its
 * cleaned path. Content is stored only as a document of the schema, checked here before the
 * commit: an invalid one would open as an empty document whose first edit overwrote it. A step
 * (docs/server.md): it runs in its caller's transaction, so it takes that first.
 */
export async function createDocument(
  db: Pick<Db, 'insertInto'>,
  ownerId: number,
  input: { title: string; path: string; content?: PMNode },
): Promise<{ id: number; path: string }> {
  const title = input.title.trim();
  const path = cleanPath(input.path, title);
  const now = Date.now();
  input.content?.check();
  const row = await db
    .insertInto('documents')
    .values({
      owner_id: ownerId,
      title,
      path,
      content: input.content ? JSON.stringify(input.content.toJSON()) : EMPTY_CONTENT,
      version: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, path };
}

/** The content a document written offline brings along, if it is a document of the schema; else null. */
function offlineContent(json: string): PMNode | null {
  const doc = parseSnapshot(json);
  // As a diff would be (safe-links.ts): no link to javascript:, data: and the like.
  return doc && checkDocument(doc).length === 0 && !hasUnsafeLink(doc.toJSON()) ? doc : null;
}

/**
 * The create call (issue 20 adds `client_key` and `content` for documents written offline): with a
 * key, a retry (the first answer was lost) answers the document the first call made, never a second
 * one; with content, that is the document at version 0 and its title node is the title.
 */
export async function createRequestedDocument(
  ctx: AppContext,
  owner: Actor,
  input: { title: string; path: string; client_key?: string; content?: string },
): Promise<{ id: number; path: string }> {
  let fields: { title: string; path: string; content?: PMNode } = { title: input.title, path: input.path };
  if (input.content !== undefined) {
    const offline = offlineContent(input.content);
    if (!offline) throw new HttpError(400);
    // Typed offline without the server's title check: doc_data must take the title.
    const doc = withTitleCut(offline, TITLE_MAX);
    fields = { title: documentTitle(doc), path: input.path, content: doc };
  }
  const key = input.client_key;
  const { db } = ctx;
  if (!key) return createDocument(db, owner.id, fields);
  const made = () =>
    db
      .selectFrom('document_creation_keys')
      .innerJoin('documents', 'documents.id', 'document_creation_keys.document_id')
      .select(['documents.id', 'documents.path'])
      .where('document_creation_keys.owner_id', '=', owner.id)
      .where('document_creation_keys.client_key', '=', key)
      .executeTakeFirst();
  const earlier = await made();
  if (earlier) return earlier;
  try {
    return await db.transaction().execute(async (trx) => {
      const created = await createDocument(trx, owner.id, fields);
      await trx
        .insertInto('document_creation_keys')
        .values({ owner_id: owner.id, client_key: key, document_id: created.id })
        .execute();
      return created;
    });
  } catch (error) {
    // Two retries at once: the other one's key (and document) won, ours was rolled back.
    const winner = await made();
    if (winner) return winner;
    throw error;
  }
}
