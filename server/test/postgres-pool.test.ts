import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createDatabase } from '../src/db/database';

const url = process.env.TEST_DATABASE_URL;

// With REQUIRE_SERVICES=1 a missing TEST_DATABASE_URL makes scripts/test.mjs fail before this.
describe.runIf(url)('PostgreSQL pool', () => {
  it('survives PostgreSQL ending an idle connection (restart, failover) and goes on working', async () => {
    // The pool reports the ended connection through its 'error' handler, which warns.
    const noticed = new Promise<void>((resolve) => {
      vi.spyOn(console, 'warn').mockImplementation((message: unknown) => {
        if (String(message).startsWith('PostgreSQL closed an idle connection')) resolve();
      });
    });
    const { db } = createDatabase({ databaseUrl: url, dataDir: '.' });
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
    await admin.end();
    // Once the pool noticed (an unhandled 'error' here would fail the whole run), it goes on working.
    await noticed;
    const again = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(again.rows[0].one).toBe(1);
    await db.destroy();
  });
});
