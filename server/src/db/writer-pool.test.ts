import { afterEach, describe, expect, it } from 'vitest';
import { createUser } from '../modules/user/commands/create-user';
import { sqliteWriter } from './database';
import { type TemporarySqlite, temporarySqlite } from './temporary-sqlite';

describe('the SQLite writer thread', () => {
  let sqlite: TemporarySqlite;
  afterEach(() => sqlite.remove());

  async function open() {
    sqlite = await temporarySqlite('writer-pool-');
    const user = await createUser(
      { db: sqlite.db },
      { username: 'ada', email: 'ada@example.org', password: null, firstName: 'Ada', lastName: '' },
    );
    const writer = sqliteWriter(sqlite.db);
    if (!writer) throw new Error('no writer for a SQLite database');
    return { writer, userId: user.id };
  }

  /** Records: read Ada's first name, write it with a suffix. */
  async function recordRename(
    writer: NonNullable<ReturnType<typeof sqliteWriter>>,
    userId: number,
    more?: (recording: ReturnType<typeof writer.recorder>) => Promise<void>,
  ) {
    const recording = writer.recorder();
    try {
      const row = await recording.db
        .selectFrom('users')
        .select('first_name')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      await recording.db
        .updateTable('users')
        .set({ first_name: `${row.first_name}!` })
        .where('id', '=', userId)
        .execute();
      await more?.(recording);
    } finally {
      recording.release();
    }
    return recording;
  }

  const firstName = async (userId: number) =>
    (
      await sqlite.db
        .selectFrom('users')
        .select('first_name')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).first_name;

  it('writes nothing while recording, and all of it once committed', async () => {
    const { writer, userId } = await open();
    const recording = await recordRename(writer, userId);
    expect(recording.reads).toHaveLength(1);
    expect(recording.writes).toHaveLength(1);
    expect(await firstName(userId)).toBe('Ada');
    expect((await writer.commit(recording)).kind).toBe('committed');
    expect(await firstName(userId)).toBe('Ada!');
  });

  it('refuses as a conflict, writing nothing, when what was read changed before the commit', async () => {
    const { writer, userId } = await open();
    const recording = await recordRename(writer, userId);
    await sqlite.db.updateTable('users').set({ first_name: 'Grace' }).where('id', '=', userId).execute();
    expect((await writer.commit(recording)).kind).toBe('conflict');
    expect(await firstName(userId)).toBe('Grace');
  });

  it('reports a failed statement and rolls the whole transaction back', async () => {
    const { writer, userId } = await open();
    const ada = await sqlite.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    // Ada again under her own id, after the rename: the primary key refuses it.
    const recording = await recordRename(writer, userId, async ({ db }) => {
      await db.insertInto('users').values(ada).execute();
    });
    const reply = await writer.commit(recording);
    expect(reply.kind).toBe('failed');
    expect(await firstName(userId)).toBe('Ada');
    // A recording released takes no more queries.
    await expect(recording.db.selectFrom('users').select('id').execute()).rejects.toThrow(
      'a query on a released recording',
    );
  });
});
