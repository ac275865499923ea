import type { Db } from '../../db/database';
import { changeStamp } from '../../db/database';
import type { CompressedCopies } from '../../http/compression';
import { presentDocumentList } from './presenters';
import { listVisibleDocumentsAndOwners } from './queries';

/** How much answer text is kept per database, at most (a 5,000-document list is about 1 MB). */
const CACHE_CHARS = 32 * 1024 * 1024;

interface Kept {
  stamp: string;
  json: string;
  /** The text compressed, once per encoding it was asked in (about 6-7 ms for a 1 MB list here). */
  compressed: CompressedCopies;
}

const caches = new WeakMap<Db, Map<number, Kept>>();

/**
 * The list answer `{ documents }` as JSON text. On SQLite the text is kept per user with the
 * database's change stamp read before the queries, and sent again while the stamp is the same:
 * any write (a keystroke's step, a move, a share, a renamed owner, another process's commit)
 * changes the stamp, so a kept answer is never older than the database. A large overview spent
 * most of its answer time in the query, presenting and stringifying.
 */
export async function documentListJson(db: Db, userId: number): Promise<string> {
  const stamp = changeStamp(db);
  let cache = caches.get(db);
  const kept = cache?.get(userId);
  if (stamp !== undefined && kept?.stamp === stamp) return kept.json;
  const { documents, owners } = await listVisibleDocumentsAndOwners(db, userId);
  const json = JSON.stringify({ documents: presentDocumentList(documents, owners) });
  if (stamp === undefined) return json;
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  // Oldest first out (a Map iterates in insertion order; a fresh answer goes to the end).
  cache.delete(userId);
  cache.set(userId, { stamp, json, compressed: new Map() });
  let chars = 0;
  for (const entry of cache.values()) chars += entry.json.length;
  for (const [id, entry] of cache) {
    if (chars <= CACHE_CHARS) break;
    cache.delete(id);
    chars -= entry.json.length;
  }
  return json;
}

/**
 * The compressed copies kept beside `json` when it is the user's kept answer, for the answer's
 * compression to fill and reuse (http/compression.ts).
 */
export function keptCompressedCopies(db: Db, userId: number, json: string): CompressedCopies | null {
  const kept = caches.get(db)?.get(userId);
  return kept?.json === json ? kept.compressed : null;
}
