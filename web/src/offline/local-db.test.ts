import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { pickQueue, QueueWriter, queuesOf } from './document-queue';
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
