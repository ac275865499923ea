import { spawn } from 'node:child_process';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { beforeAll, describe, expect, it } from 'vitest';
import { runManage } from '../src/cli/run-manage';
import { openPostgres, openSqlite, sqliteFile } from '../src/db/transfer/connection';
import { countRows } from '../src/db/transfer/site-data';
import { siteTables } from '../src/db/transfer/site-tables';
import { ENGINES, startServer, type TestServer, useServer } from './harness';
import { type TemporaryDatabase, temporaryDatabase } from './processes';
import { TEST_DATABASE_URL } from './services';
import { type SeededSite, SITE_ENV, seedSite, siteAnswers } from './site-seed';

const MANAGE = path.resolve(import.meta.dirname, '../src/cli/manage.ts');
const ENGLISH = { LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' };

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command code in this process, on the site of `env`, output captured. */
async function manage(env: Record<string, string>, args: string[]): Promise<Outcome> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runManage(args, {
    env: { ...env, ...ENGLISH },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** Every table's row count in the database at `url`. */
async function rowCounts(url: string): Promise<Record<string, number>> {
  const connection = await openPostgres(url);
  try {
    const counts: Record<string, number> = {};
    for (const table of await siteTables(connection))
      counts[table.name] = await countRows(connection, table.name);
    return counts;
  } finally {
    await connection.close();
  }
}

/** A server on the database at `url` with the source's DATA_DIR (the media files stay there). */
function serverOn(url: string, source: TestServer): Promise<TestServer> {
  return startServer('sqlite', { env: { ...SITE_ENV, DATABASE_URL: url, DATA_DIR: source.env.DATA_DIR } });
}

async function withDatabase(use: (database: TemporaryDatabase) => Promise<void>): Promise<void> {
  const database = await temporaryDatabase(TEST_DATABASE_URL, 'scriptorium_migrate');
  try {
    await use(database);
  } finally {
    await database.drop();
  }
}

const COPIED =
  /^Copied \d+ rows in \d+ tables; row counts and checksums match on both sides\. Media files stay in DATA_DIR\.$/;

describe.runIf(ENGINES.includes('postgres'))('npm run manage -- migrate --to postgres://...', () => {
  const source = useServer('sqlite', { env: SITE_ENV });
  let site: SeededSite;
  beforeAll(async () => {
    site = await seedSite(source());
  }, 60_000);

  it('copies the whole SQLite site into an empty PostgreSQL database; a server there answers as before', async () => {
    await withDatabase(async (target) => {
      const result = await manage(source().env, ['migrate', '--to', target.url]);
      expect(result.stderr).toContain(
        `Copying one snapshot of the SQLite database (a read transaction: the server may keep running) into ${target.url} in one transaction: nothing is kept unless all of it is copied and verified.`,
      );
      expect(result.stderr.split('\n')).toEqual(
        expect.arrayContaining([
          'users: 2 rows',
          'document_comments: 2 rows',
          'books: 1 row',
          'usermedia_images: 1 row',
        ]),
      );
      expect(result.stdout).toMatch(COPIED);
      expect(result.code).toBe(0);

      // Both engines' catalogs give the same tables in the same order.
      const sqlite = openSqlite(sqliteFile(source().env.DATA_DIR), { readonly: true });
      const sqliteOrder = (await siteTables(sqlite)).map((table) => table.name);
      await sqlite.close();
      expect(Object.keys(await rowCounts(target.url))).toEqual(sqliteOrder);

      const moved = await serverOn(target.url, source());
      try {
        const before = await siteAnswers(source().baseUrl, site);
        expect(JSON.stringify(before.document)).toContain('Indeed: The engine weaves algebraic patterns.');
        expect(JSON.stringify(before.images)).toContain('Analytical engine');
        expect(JSON.stringify(before.bibliography)).toContain('noether1921');
        expect(JSON.stringify(before.revisions)).toContain('First draft');
        expect(await siteAnswers(moved.baseUrl, site)).toEqual(before);
        // The sequences were set after the copy: a new document takes the next id, not 1.
        const created = await moved
          .loginAs(site.ada)
          .then((browser) => browser.call(documentsApi.create, {}));
        expect(created.json<{ id: number }>().id).toBe(site.documentId + 1);
      } finally {
        await moved.close();
      }
    });
  }, 120_000);

  it('copies from PostgreSQL too, and refuses its own database as the target', async () => {
    await withDatabase(async (first) => {
      expect((await manage(source().env, ['migrate', '--to', first.url])).code).toBe(0);
      const onPostgres = { ...source().env, DATABASE_URL: first.url };
      expect(await manage(onPostgres, ['migrate', '--to', first.url])).toEqual({
        code: 1,
        stdout: '',
        stderr: "The target is this site's own database.",
      });
      await withDatabase(async (second) => {
        const result = await manage(onPostgres, ['migrate', '--to', second.url]);
        expect(result.stderr).toContain(
          'Copying one snapshot of the PostgreSQL database (a REPEATABLE READ transaction',
        );
        expect(result.stdout).toMatch(COPIED);
        expect(await rowCounts(second.url)).toEqual(await rowCounts(first.url));
        const moved = await serverOn(second.url, source());
        try {
          expect(await siteAnswers(moved.baseUrl, site)).toEqual(await siteAnswers(source().baseUrl, site));
        } finally {
          await moved.close();
        }
      });
    });
  }, 120_000);

  it('refuses a target with data unless --force, a URL that is not PostgreSQL, and an unreachable server', async () => {
    await withDatabase(async (target) => {
      expect((await manage(source().env, ['migrate', '--to', target.url])).code).toBe(0);
      const counts = await rowCounts(target.url);
      const again = await manage(source().env, ['migrate', '--to', target.url]);
      expect(again.code).toBe(1);
      expect(again.stderr.split('\n').at(-1)).toBe(
        `The target already holds data (${counts.flatpages} rows in flatpages); nothing was copied. Use --force to replace it.`,
      );
      const forced = await manage(source().env, ['migrate', '--to', target.url, '--force']);
      expect(forced.stdout).toMatch(COPIED);
      expect(await rowCounts(target.url)).toEqual(counts);
    });
    expect(await manage(source().env, ['migrate', '--to', 'mysql://root@127.0.0.1/site'])).toEqual({
      code: 2,
      stdout: '',
      stderr: '"mysql://root@127.0.0.1/site" is not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE).',
    });
    expect(
      await manage(source().env, ['migrate', '--to', 'postgres://postgres:secret@127.0.0.1:1/site']),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Cannot reach PostgreSQL at postgres://postgres:***@127.0.0.1:1/site: connect ECONNREFUSED 127.0.0.1:1',
    });
  }, 120_000);

  it('leaves nothing behind when killed (-9) in the middle of the copy; the rerun ends correct', async () => {
    // Enough rows in the table copied right after users for the copy to be under way when killed.
    const rows = Array.from({ length: 3000 }, (_, index) => ({
      actor_id: site.ada.id,
      actor_name: 'ada',
      action: 'test',
      target: `row ${index}`,
      details: '{}',
      created_at: index,
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await source()
        .ctx.db.insertInto('audit_log')
        .values(rows.slice(start, start + 500))
        .execute();
    }
    await withDatabase(async (target) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', MANAGE, 'migrate', '--to', target.url, '--batch-size', '1'],
        { env: { ...process.env, ...source().env, ...ENGLISH }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('exit', (_code, signal) => resolve(signal)),
      );
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/^users: \d+ rows$/m.test(stderr)) child.kill('SIGKILL');
      });
      expect(await exited).toBe('SIGKILL');
      expect(stderr).not.toMatch(/^audit_log: /m);
      expect(stdout).toBe('');
      // One transaction on the target: what was copied before the kill was never committed.
      const left = await rowCounts(target.url);
      expect(Object.values(left).every((count) => count === 0)).toBe(true);
      expect(Object.keys(left)).toContain('audit_log');

      const rerun = await manage(source().env, ['migrate', '--to', target.url]);
      expect(rerun.stdout).toMatch(COPIED);
      expect(rerun.stderr.split('\n')).toContain('audit_log: 3000 rows');
      const moved = await serverOn(target.url, source());
      try {
        expect(await siteAnswers(moved.baseUrl, site)).toEqual(await siteAnswers(source().baseUrl, site));
      } finally {
        await moved.close();
      }
    });
  }, 120_000);
});
