import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { deleteQueue, pickQueue, QUEUE_DB, QueueWriter, queuesOf, writeQueue } from './document-queue';
import {
  LOCAL_DB_VERSION,
  LOCAL_STORES,
  localDb,
  readRow,
  readRows,
  setLocalUser,
  writeRows,
} from './local-db';

describe('local database (spec 3 and 4)', () => {
  it('is named after the user, version 4, one store per route table, user_data record id 1', async () => {
    setLocalUser('ada');
    const db = await localDb();
    expect(db?.name).toBe('ada');
    expect(db?.version).toBe(LOCAL_DB_VERSION);
    expect([...(db?.objectStoreNames ?? [])].sort()).toEqual([...LOCAL_STORES].sort());
    await writeRows('user_data', [{ id: 1, contacts: [{ id: 7, name: 'Bo' }] }]);
    expect(await readRow('user_data', 1)).toEqual({ id: 1, contacts: [{ id: 7, name: 'Bo' }] });
    await writeRows('document_list', [{ id: 1 }, { id: 2 }]);
    await writeRows('document_list', [{ id: 3 }]);
    expect(await readRows('document_list')).toEqual([{ id: 3 }]);
    setLocalUser(null);
  });

  it('deletes and recreates a database that misses a store', async () => {
    const broken = await openDB('bea', LOCAL_DB_VERSION, {
      upgrade(db) {
        db.createObjectStore('document_list', { keyPath: 'id' }).put({ id: 9 });
      },
    });
    broken.close();
    setLocalUser('bea');
    const db = await localDb();
    expect([...(db?.objectStoreNames ?? [])].sort()).toEqual([...LOCAL_STORES].sort());
    expect(await readRows('document_list')).toEqual([]);
    setLocalUser(null);
  });
});

describe('offline queue', () => {
  it('a reloaded tab gets its own queue back; a new tab starts from the newest document without its steps', async () => {
    const first = await pickQueue('cy', 5);
    const writer = new QueueWriter();
    writer.schedule(() => ({
      key: `cy:5:${first.clientId}`,
      username: 'cy',
      documentId: 5,
      clientId: first.clientId,
      version: 3,
      doc: { type: 'doc' },
      steps: [{ stepType: 'replace' }],
      right: 'write',
      isOwner: true,
      savedAt: Date.now(),
    }));
    await writer.idle();
    // Same tab (session storage keeps the key): the same queue, steps and all.
    const again = await pickQueue('cy', 5);
    expect(again.clientId).toBe(first.clientId);
    expect(again.saved?.steps).toHaveLength(1);
    // Another tab: a client id of its own, the document but never the other tab's steps.
    sessionStorage.clear();
    Object.defineProperty(globalThis.navigator, 'locks', {
      configurable: true,
      value: {
        request: (_n: string, _o: unknown, cb: (lock: unknown) => unknown) => Promise.resolve(cb(null)),
      },
    });
    const other = await pickQueue('cy', 5);
    Reflect.deleteProperty(globalThis.navigator, 'locks');
    expect(other.clientId).not.toBe(first.clientId);
    expect(other.saved?.version).toBe(3);
    expect(other.saved?.steps).toEqual([]);
    expect(await queuesOf('cy', 5)).toHaveLength(1);
  });
});

describe('offline queue writer', () => {
  /** A queue record of one tab of `username` on document `documentId`, at `version`. */
  const queueRecord = (username: string, documentId: number, version: number) => ({
    key: `${username}:${documentId}:tab`,
    username,
    documentId,
    clientId: 'tab',
    version,
    doc: { type: 'doc' },
    steps: [],
    right: 'write' as const,
    isOwner: true,
    savedAt: 0,
  });

  /** Builders of such records by version, each noting in `built` when the writer asks for it. */
  const recorder = (built: number[], username: string, documentId: number) => (version: number) => () => {
    built.push(version);
    return queueRecord(username, documentId, version);
  };

  it('writes a burst of changes one at a time, the newest state last', async () => {
    const writer = new QueueWriter();
    const built: number[] = [];
    const record = (version: number) => queueRecord('dee', 7, version);
    for (let version = 1; version <= 5; version++)
      writer.schedule(() => {
        built.push(version);
        return record(version);
      });
    // The first change is taken at once (a reload right after must find it); the rest wait for
    // that write and only the newest of them is written.
    expect(built).toEqual([1]);
    await writer.idle();
    expect(built).toEqual([1, 5]);
    expect((await queuesOf('dee', 7)).map((queue) => queue.version)).toEqual([5]);
  });

  it('leaving the page, writes the newest state at once beside a running write, and it lands last', async () => {
    const writer = new QueueWriter();
    const built: number[] = [];
    const record = recorder(built, 'gus', 3);
    writer.schedule(record(1));
    writer.schedule(record(2));
    // The page goes: the newest state is taken now, not after the running write (by then the page
    // would be gone); the state that waited for that write is not written apart.
    writer.writeNow(record(3));
    expect(built).toEqual([1, 3]);
    await writer.idle();
    expect(built).toEqual([1, 3]);
    expect((await queuesOf('gus', 3)).map((queue) => queue.version)).toEqual([3]);
    // With nothing running, it is a plain write.
    writer.writeNow(record(4));
    expect(built).toEqual([1, 3, 4]);
    await writer.idle();
    expect((await queuesOf('gus', 3)).map((queue) => queue.version)).toEqual([4]);
  });

  it('with defer, writes the newest state once started; a schedule without defer starts it at once', async () => {
    const writer = new QueueWriter();
    const built: number[] = [];
    const record = recorder(built, 'fay', 9);
    const starts: (() => void)[] = [];
    writer.schedule(record(1), (start) => starts.push(start));
    writer.schedule(record(2), (start) => starts.push(start));
    // Nothing is read or written before the deferred start; one start for the run.
    expect(built).toEqual([]);
    expect(starts).toHaveLength(1);
    starts[0]();
    await writer.idle();
    expect(built).toEqual([2]);
    expect((await queuesOf('fay', 9)).map((queue) => queue.version)).toEqual([2]);
    // Leaving the page: a schedule without defer does not wait for the frame.
    writer.schedule(record(3), (start) => starts.push(start));
    writer.schedule(record(4));
    await writer.idle();
    expect(built).toEqual([2, 4]);
    expect((await queuesOf('fay', 9)).map((queue) => queue.version)).toEqual([4]);
  });
});

describe('offline queue storage', () => {
  const record = (doc: unknown, steps: unknown[]) => ({
    key: 'eve:8:tab',
    username: 'eve',
    documentId: 8,
    clientId: 'tab',
    version: 4,
    doc,
    steps,
    right: 'write' as const,
    isOwner: true,
    savedAt: 0,
  });
  const storedKeys = async (store: string) => {
    const db = await openDB(QUEUE_DB);
    const keys = await db.getAllKeys(store);
    db.close();
    return keys;
  };

  it('keeps the document apart and writes it only when it is another object', async () => {
    const doc = { type: 'doc', content: [{ type: 'title' }] };
    await writeQueue(record(doc, [1]));
    const db = await openDB(QUEUE_DB);
    // The queue's own record holds no document: writing it after a keystroke copies the steps only.
    expect((await db.get('queues', 'eve:8:tab')).doc).toBeUndefined();
    await db.put('queues', { key: 'eve:8:tab#document', doc: { marker: 'not written again' } });
    db.close();
    await writeQueue(record(doc, [1, 2]));
    let [read] = await queuesOf('eve', 8);
    expect(read.steps).toEqual([1, 2]);
    expect(read.doc).toEqual({ marker: 'not written again' });
    await writeQueue(record({ ...doc }, [1, 2, 3]));
    [read] = await queuesOf('eve', 8);
    expect(read.doc).toEqual(doc);
    await deleteQueue('eve:8:tab');
    expect(await queuesOf('eve', 8)).toEqual([]);
    expect(await storedKeys('queues')).not.toContain('eve:8:tab#document');
  });

  it('reads a record of the previous version, with its document inline', async () => {
    await queuesOf('eve', 9); // opens (and upgrades) the database
    const db = await openDB(QUEUE_DB);
    await db.put('queues', { ...record({ type: 'doc' }, [7]), key: 'eve:9:old', documentId: 9 });
    db.close();
    const [read] = await queuesOf('eve', 9);
    expect(read.doc).toEqual({ type: 'doc' });
    expect(read.steps).toEqual([7]);
  });
});
