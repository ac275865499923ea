import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { changeStamp, type Db } from '../../db/database';
import { type TemporarySqlite, temporarySqlite } from '../../db/temporary-sqlite';
import { createUser } from '../user/commands/create-user';
import { documentListJson, keptCompressedCopies } from './list-cache';

describe('the kept document list (SQLite)', () => {
  let sqlite: TemporarySqlite;
  let db: Db;
  afterEach(() => sqlite.remove());

  async function open() {
    sqlite = await temporarySqlite('list-cache-');
    db = sqlite.db;
    const user = await createUser(
      { db },
      { username: 'ada', email: 'ada@example.org', password: null, firstName: 'Ada', lastName: '' },
    );
    return user.id;
  }

  const titles = async (userId: number) =>
    (JSON.parse(await documentListJson(db, userId)) as { documents: { title: string }[] }).documents.map(
      (doc) => doc.title,
    );

  function insertDocument(into: Pick<Db, 'insertInto'>, ownerId: number, title: string) {
    return into
      .insertInto('documents')
      .values({
        owner_id: ownerId,
        title,
        path: '/',
        content: '{}',
        version: 0,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
  }

  it('answers the same text while nothing was written, and the new state after any write', async () => {
    const userId = await open();
    await insertDocument(db, userId, 'First');
    const first = await documentListJson(db, userId);
    expect(await documentListJson(db, userId)).toBe(first);
    const stamp = changeStamp(db);
    expect(changeStamp(db)).toBe(stamp);

    // A write on this connection, in a transaction and through insert ... returning.
    await db.transaction().execute((trx) => insertDocument(trx, userId, 'Second'));
    expect(await titles(userId)).toEqual(['First', 'Second']);
    await db
      .insertInto('documents')
      .values({
        owner_id: userId,
        title: 'Third',
        path: '/',
        content: '{}',
        version: 0,
        created_at: 1,
        updated_at: 1,
      })
      .returning('id')
      .execute();
    expect(await titles(userId)).toEqual(['First', 'Second', 'Third']);
    // An owner's new name is part of every row.
    await db.updateTable('users').set({ first_name: 'Augusta' }).where('id', '=', userId).execute();
    expect(JSON.parse(await documentListJson(db, userId)).documents[0].owner.name).toBe('Augusta');

    // A commit by another connection (another process, the manage CLI).
    const other = new SQLite(sqlite.file);
    other.prepare("update documents set title = 'Renamed' where title = 'First'").run();
    other.close();
    expect(await titles(userId)).toEqual(['Renamed', 'Second', 'Third']);
  });

  it('keeps the compressed copies with the kept answer, and drops them with it', async () => {
    const userId = await open();
    await insertDocument(db, userId, 'First');
    const first = await documentListJson(db, userId);
    const copies = keptCompressedCopies(db, userId, first);
    expect(copies).toBeInstanceOf(Map);
    expect(keptCompressedCopies(db, userId, await documentListJson(db, userId))).toBe(copies);
    expect(keptCompressedCopies(db, userId, '{"documents":[]}')).toBeNull();

    await insertDocument(db, userId, 'Second');
    const second = await documentListJson(db, userId);
    expect(keptCompressedCopies(db, userId, second)).not.toBe(copies);
    expect(keptCompressedCopies(db, userId, first)).toBeNull();
  });
});
