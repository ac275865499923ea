import { afterEach, describe, expect, it } from 'vitest';
import { type Db, directReader } from './database';
import { preparedQuery } from './prepared';
import { type TemporarySqlite, temporarySqlite } from './temporary-sqlite';

const usernames = preparedQuery((db: Db, lowered: string) =>
  db.selectFrom('users').select(['id', 'username']).where('username_lower', '=', lowered),
);

describe('preparedQuery on SQLite', () => {
  let sqlite: TemporarySqlite;
  afterEach(() => sqlite.remove());

  async function open() {
    sqlite = await temporarySqlite('prepared-');
    return sqlite.db;
  }

  function insert(db: Pick<Db, 'insertInto'>, username: string) {
    return db
      .insertInto('users')
      .values({
        username,
        username_lower: username.toLowerCase(),
        first_name: '',
        last_name: '',
        password_hash: null,
        is_staff: 0,
        is_active: 1,
        language: null,
        avatar: null,
        created_at: 1,
      })
      .execute();
  }

  it('reads directly with the same rows, and waits for another request’s open transaction', async () => {
    const db = await open();
    expect(directReader(db)).toBeDefined();
    await insert(db, 'Ada');
    expect(await usernames(db, 'ada')).toEqual([{ id: 1, username: 'Ada' }]);

    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    // A transaction that has written and not committed yet, while another read comes in.
    const transaction = db.transaction().execute(async (trx) => {
      await insert(trx, 'Grace');
      inserted();
      await held;
      throw new Error('rolled back');
    });
    await insertedYet;
    const read = usernames(db, 'grace');
    let answered = false;
    void read.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The uncommitted row is never seen: the read waits for the connection.
    expect(answered).toBe(false);
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(await read).toEqual([]);
  });
});
