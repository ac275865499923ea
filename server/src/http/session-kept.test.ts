import fastifyCookie from '@fastify/cookie';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { type TemporarySqlite, temporarySqlite } from '../db/temporary-sqlite';
import { createUser } from '../modules/user/commands/create-user';
import { hashSessionId, SESSION_LIFETIME_MS, userFromCookieHeader } from './session';

describe('the kept session lookup (SQLite)', () => {
  let sqlite: TemporarySqlite;
  afterEach(() => sqlite.remove());

  it('sees a session ended or a user deactivated, here or by another connection, at once', async () => {
    sqlite = await temporarySqlite('session-kept-');
    const { db } = sqlite;
    const ctx = { db } as AppContext;
    // The cookie parser is loaded when the plugin is registered somewhere.
    const app = Fastify();
    await app.register(fastifyCookie);
    await app.ready();
    const user = await createUser(
      { db },
      { username: 'ada', email: 'ada@example.org', password: null, lastName: '' },
    );
    const startSession = (id: string) =>
      db
        .insertInto('sessions')
        .values({
          id_hash: hashSessionId(id),
          user_id: user.id,
          expires_at: Date.now() + SESSION_LIFETIME_MS,
          created_at: 1,
        })
        .execute();
    await startSession('one');
    const lookup = async (id: string) =>
      (await userFromCookieHeader(ctx, `sessionid=${id}`))?.username ?? null;
    expect(await lookup('one')).toBe('ada');
    expect(await lookup('one')).toBe('ada');

    // Ended by this process.
    await db.deleteFrom('sessions').execute();
    expect(await lookup('one')).toBeNull();

    // Ended by another process (another connection to the same file).
    await startSession('two');
    expect(await lookup('two')).toBe('ada');
    const other = new SQLite(sqlite.file);
    other.prepare('delete from sessions').run();
    expect(await lookup('two')).toBeNull();

    // The user deactivated by another process.
    await startSession('three');
    expect(await lookup('three')).toBe('ada');
    other.prepare('update users set is_active = 0').run();
    other.close();
    expect(await lookup('three')).toBeNull();
    await app.close();
  });
});
