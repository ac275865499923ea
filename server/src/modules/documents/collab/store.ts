import { type AccessRight, TITLE_MAX } from '@scriptorium/common/api/documents';
import { repairDocument } from '@scriptorium/common/editor/repair';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, documentTitle, standardArticle } from '@scriptorium/common/editor/templates';
import type { StepJson } from '@scriptorium/common/ws/document-messages';
import type { Kysely } from 'kysely';
import type { Node as PMNode } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import type { Db, Dialect } from '../../../db/database';
import type { Database } from '../../../db/schema';

/** A snapshot of the content is written at least every this many steps (issue 16: "every few hundred"). */
export const SNAPSHOT_EVERY = 200;

export interface StoredStep {
  /** The version this step produced. */
  version: number;
  step: StepJson;
  clientId: string;
}

export interface DocumentHead {
  version: number;
  contentVersion: number;
  title: string;
  /** The document at contentVersion (see storedDocument). */
  snapshot: PMNode;
  /** The stored content is not this document (never opened, or not readable): write a snapshot. */
  needsSnapshot: boolean;
}

type Executor = Kysely<Database>;

/** The stored content as a document of the schema, or null (e.g. a document created before the editor). */
export function parseSnapshot(content: string): PMNode | null {
  try {
    const doc = schema.nodeFromJSON(JSON.parse(content));
    doc.check();
    return doc;
  } catch {
    return null;
  }
}

/** A fresh Standard article carrying the overview's title. */
export function freshDocument(title: string): PMNode {
  return createDocument(schema, standardArticle, { title });
}

/**
 * A new document's content: empty, it reads as the fresh Standard article of its title until its
 * first commit writes a snapshot.
 */
export const EMPTY_CONTENT = JSON.stringify({ type: 'doc', content: [] });

/**
 * The document a row's content holds: its snapshot; for a document never opened in the editor
 * (EMPTY_CONTENT) the fresh Standard article of its title; content stored before every stored
 * document was checked (an import that left an empty table cell) repaired, keeping its text,
 * rather than replaced by a fresh document whose first commit would overwrite it. The one reading
 * of a row for the editor, exports and copies, so that each of them sees a valid document.
 */
export function storedDocument(content: string, title: string): { doc: PMNode; exact: boolean } {
  const snapshot = parseSnapshot(content);
  if (snapshot) return { doc: snapshot, exact: true };
  const repaired = content === EMPTY_CONTENT ? null : repairStored(content);
  // Without any part it would be no article to edit: the fresh one.
  return { doc: repaired && repaired.childCount > 1 ? repaired : freshDocument(title), exact: false };
}

function repairStored(content: string): PMNode | null {
  try {
    return repairDocument(schema, JSON.parse(content));
  } catch {
    return null;
  }
}

export async function readHead(db: Executor, documentId: number): Promise<DocumentHead | undefined> {
  const row = await db
    .selectFrom('documents')
    .select(['version', 'content_version', 'title', 'content'])
    .where('id', '=', documentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const stored = storedDocument(row.content, row.title);
  return {
    version: row.version,
    contentVersion: row.content_version,
    title: row.title,
    snapshot: stored.doc,
    needsSnapshot: !stored.exact,
  };
}

/** The document's current version (undefined: no such document); cheap, for use under the lock. */
export async function readVersion(db: Executor, documentId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('documents')
    .select('version')
    .where('id', '=', documentId)
    .executeTakeFirst();
  return row?.version;
}

/**
 * The document's version and the user's right to it now (null: none; the owner: write), in one
 * query: a diff is checked against the right of this moment, not the one its socket was opened
 * with, whichever process changed it (issue 50).
 */
export async function readVersionAndRight(
  db: Executor,
  documentId: number,
  userId: number,
): Promise<{ version: number; right: AccessRight | null } | undefined> {
  const row = await db
    .selectFrom('documents')
    .leftJoin('document_access', (join) =>
      join
        .onRef('document_access.document_id', '=', 'documents.id')
        .on('document_access.user_id', '=', userId),
    )
    .select(['documents.version', 'documents.owner_id', 'document_access.rights'])
    .where('documents.id', '=', documentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const right = row.owner_id === userId ? 'write' : ((row.rights as AccessRight | null) ?? null);
  return { version: row.version, right };
}

/** The steps after version `after` (up to `upTo` inclusive), oldest first. */
export async function readSteps(
  db: Executor,
  documentId: number,
  after: number,
  upTo?: number,
): Promise<StoredStep[]> {
  let query = db
    .selectFrom('document_steps')
    .select(['version', 'step', 'client_id'])
    .where('document_id', '=', documentId)
    .where('version', '>', after);
  if (upTo !== undefined) query = query.where('version', '<=', upTo);
  const rows = await query.orderBy('version').execute();
  return rows.map((row) => ({
    version: row.version,
    step: JSON.parse(row.step) as StepJson,
    clientId: row.client_id,
  }));
}

/**
 * Runs `work` holding the document's write lock until it commits: PostgreSQL locks the document
 * row (SELECT ... FOR UPDATE), SQLite takes the database's write lock up front (every SQLite
 * transaction begins IMMEDIATE, see db/database.ts), so that the version read inside is still the
 * version when the steps are written.
 */
export async function withDocumentLock<T>(
  db: Db,
  dialect: Dialect,
  documentId: number,
  work: (trx: Executor) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockDocument(trx, dialect, documentId);
    return work(trx);
  });
}

/**
 * Inside a transaction: holds the document's write lock until it ends (PostgreSQL: its row;
 * SQLite: the transaction holds the database's write lock already).
 */
export async function lockDocument(trx: Executor, dialect: Dialect, documentId: number): Promise<void> {
  if (dialect === 'postgres')
    await trx.selectFrom('documents').select('id').where('id', '=', documentId).forUpdate().execute();
}

export interface AppendInput {
  documentId: number;
  /** The version the steps apply to (the current one, checked under the lock by the caller). */
  baseVersion: number;
  steps: StepJson[];
  clientId: string;
  userId: number;
  /** The document after the steps. */
  doc: PMNode;
  /** Write a snapshot of `doc` with this commit. */
  snapshot: boolean;
  now: number;
}

/** Writes the steps, the new version and the title (and maybe a snapshot), inside withDocumentLock. */
export async function appendSteps(trx: Executor, input: AppendInput): Promise<void> {
  await appendStepRuns(trx, {
    documentId: input.documentId,
    baseVersion: input.baseVersion,
    runs: [{ steps: input.steps, clientId: input.clientId, userId: input.userId }],
    doc: input.doc,
    snapshot: input.snapshot,
    now: input.now,
  });
}

/** The steps of one diff, by one session. */
export interface StepRun {
  steps: StepJson[];
  clientId: string;
  userId: number;
}

/**
 * Writes several diffs' steps one after the other from `baseVersion` (a group commit's diffs of
 * one document): one insert for every step, one update of the version, title (and snapshot).
 */
export async function appendStepRuns(
  trx: Executor,
  input: Omit<AppendInput, 'steps' | 'clientId' | 'userId'> & { runs: StepRun[] },
): Promise<void> {
  const rows = [];
  let version = input.baseVersion;
  for (const run of input.runs) {
    await recordDocumentImages(trx, input.documentId, run.userId, run.steps);
    for (const step of run.steps)
      rows.push({
        document_id: input.documentId,
        version: ++version,
        step: JSON.stringify(step),
        client_id: run.clientId,
        user_id: run.userId,
        created_at: input.now,
      });
  }
  if (rows.length === 0) return;
  await trx.insertInto('document_steps').values(rows).execute();
  await trx
    .updateTable('documents')
    .set({
      version,
      updated_at: input.now,
      // The title node is the document's title in the overview (live, for everyone).
      title: documentTitle(input.doc).slice(0, TITLE_MAX),
      ...(input.snapshot ? { content: JSON.stringify(input.doc.toJSON()), content_version: version } : {}),
    })
    .where('id', '=', input.documentId)
    .where('version', '=', input.baseVersion)
    .execute();
}

/** The content hashes of library images a step brings into a figure (its /media/ address). */
const MEDIA_IMAGE = /\/media\/images\/([0-9a-f]{64})\./g;

/**
 * Remembers the images the steps' figures use, so that the document's authors may see them: only
 * those in the library of the step's author or of the document's owner. Anyone may write any
 * address into a figure; a former co-author who put the owner's image into a document of their own
 * shared with the owner must not be shown it through that document (issue 50).
 */
async function recordDocumentImages(
  trx: Executor,
  documentId: number,
  userId: number,
  steps: StepJson[],
): Promise<void> {
  const hashes = new Set<string>();
  for (const step of steps)
    for (const match of JSON.stringify(step).matchAll(MEDIA_IMAGE)) hashes.add(match[1]);
  if (!hashes.size) return;
  const owned = await trx
    .selectFrom('usermedia_images as i')
    .select('i.sha256')
    .distinct()
    .where('i.sha256', 'in', [...hashes])
    .where((eb) =>
      eb.or([
        eb('i.owner_id', '=', userId),
        eb(
          'i.owner_id',
          '=',
          eb.selectFrom('documents').select('documents.owner_id').where('documents.id', '=', documentId),
        ),
      ]),
    )
    .execute();
  if (!owned.length) return;
  await trx
    .insertInto('document_images')
    .values(owned.map(({ sha256 }) => ({ document_id: documentId, sha256 })))
    .onConflict((conflict) => conflict.columns(['document_id', 'sha256']).doNothing())
    .execute();
}

/** The document at its latest version (snapshot plus the steps after it) and that version. */
export async function currentDocument(
  db: Executor,
  documentId: number,
): Promise<{ doc: PMNode; version: number } | undefined> {
  const row = await db
    .selectFrom('documents')
    .select(['content', 'content_version', 'version', 'title'])
    .where('id', '=', documentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const stored = storedDocument(row.content, row.title);
  // Content that is not the snapshot counts from the version the editor starts it at (loadRoom).
  let doc = stored.doc;
  let version = stored.exact ? row.content_version : row.version;
  for (const step of await readSteps(db, documentId, version)) {
    const result = Step.fromJSON(schema, step.step).apply(doc);
    if (!result.doc) throw new Error(`step ${step.version} of document ${documentId} does not apply`);
    doc = result.doc;
    version = step.version;
  }
  return { doc, version };
}

/** The document's content at its latest version, as JSON text. */
export async function currentContent(db: Executor, documentId: number): Promise<string | undefined> {
  const current = await currentDocument(db, documentId);
  return current && JSON.stringify(current.doc.toJSON());
}
