import { changeStamp, type Db } from './database';

/**
 * Values computed from the database, kept per key with the database's change stamp (see
 * `changeStamp`) read before the computation, and reused while the stamp is the same: any write,
 * in this process or another, makes every kept value stale. Nothing is kept where there is no
 * stamp (PostgreSQL). At most `limit` keys per database; a full cache starts over.
 */
export function keptWhileUnchanged<Key, Value>(limit: number) {
  const byDatabase = new WeakMap<Db, Map<Key, { stamp: string; value: Value }>>();
  /** The value kept for `key` with this stamp, if any, at once (no promise: for the hot paths). */
  const peek = (db: Db, key: Key, stamp: string | undefined): { value: Value } | undefined => {
    const entry = stamp === undefined ? undefined : byDatabase.get(db)?.get(key);
    return entry?.stamp === stamp ? entry : undefined;
  };
  /** `stamp`: one read earlier in the same request (before any of its queries), else read now. */
  const keep = async (
    db: Db,
    key: Key,
    compute: () => Promise<Value>,
    stamp: string | undefined = changeStamp(db),
  ): Promise<Value> => {
    if (stamp === undefined) return compute();
    let kept = byDatabase.get(db);
    const entry = kept?.get(key);
    if (entry?.stamp === stamp) return entry.value;
    const value = await compute();
    if (!kept) {
      kept = new Map();
      byDatabase.set(db, kept);
    }
    if (kept.size >= limit && !kept.has(key)) kept.clear();
    kept.set(key, { stamp, value });
    return value;
  };
  return Object.assign(keep, { peek });
}
