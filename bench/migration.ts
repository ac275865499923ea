// Benchmark: moving a site (issue 56). A SQLite site of 10,000 documents (each with its access
// row, a step log and a revision-free history) is copied to an empty PostgreSQL database by
// `npm run manage -- migrate --to` (rows per second, verification included), and backed up with
// `npm run manage -- backup` on SQLite and on PostgreSQL. Baselines of the same run, on the same
// rows: PostgreSQL's own pg_dump | psql into another empty database (for the migration), `tar`
// of the SQLite site's DATA_DIR (what one would copy with the server stopped) and pg_dump alone
// (for the backups). Then once more with a CPU hog on every core. It prints; it asserts nothing.
// Needs PostgreSQL (BENCH_PG_URL, an admin URL; default postgres://postgres@127.0.0.1:5432/postgres).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { runManage } from '../server/src/cli/run-manage';
import { createDatabase } from '../server/src/db/database';
import { migrateToLatest } from '../server/src/db/migrate';
import { openPostgres } from '../server/src/db/transfer/connection';
import { countRows } from '../server/src/db/transfer/site-data';
import { siteTables } from '../server/src/db/transfer/site-tables';
import { temporaryDatabase } from '../server/test/processes';
import { postgresReachable } from '../server/test/services';
import { startCpuHog } from './lib/cpu';
import { createBenchUser } from './lib/server';

const DOCUMENTS = Number(process.env.BENCH_SITE_DOCUMENTS || 10_000);
const USERS = 100;
const STEPS_PER_DOCUMENT = 5;
const PG_ADMIN = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** A SQLite site in a new DATA_DIR: USERS users, DOCUMENTS documents shared once, steps after the snapshot. */
async function seedSite(dataDir: string): Promise<void> {
  const { db } = createDatabase({ databaseUrl: undefined, dataDir });
  try {
    await migrateToLatest(db, 'sqlite');
    const users: number[] = [];
    for (let index = 0; index < USERS; index++)
      users.push((await createBenchUser({ db }, `author${index}`)).id);
    const content = JSON.stringify(createDocument(schema, standardArticle, { title: 'Paper' }).toJSON());
    const step = (index: number) =>
      JSON.stringify({
        stepType: 'replace',
        from: 1,
        to: 1,
        slice: { content: [{ type: 'text', text: String.fromCharCode(97 + (index % 26)) }] },
      });
    const now = Date.now();
    for (let start = 0; start < DOCUMENTS; start += 500) {
      await db.transaction().execute(async (trx) => {
        const count = Math.min(500, DOCUMENTS - start);
        const inserted = await trx
          .insertInto('documents')
          .values(
            Array.from({ length: count }, (_, offset) => ({
              owner_id: users[(start + offset) % USERS],
              title: `Paper ${start + offset}`,
              path: '',
              content,
              version: STEPS_PER_DOCUMENT,
              content_version: 0,
              created_at: now,
              updated_at: now,
            })),
          )
          .returning('id')
          .execute();
        await trx
          .insertInto('document_access')
          .values(
            inserted.map(({ id }, offset) => ({
              document_id: id,
              user_id: users[(start + offset + 1) % USERS],
              invite_id: null,
              rights: 'write',
              path: '',
              created_at: now,
            })),
          )
          .execute();
        await trx
          .insertInto('document_steps')
          .values(
            inserted.flatMap(({ id }, offset) =>
              Array.from({ length: STEPS_PER_DOCUMENT }, (_, index) => ({
                document_id: id,
                version: index + 1,
                step: step(index),
                client_id: 'bench-session',
                user_id: users[(start + offset) % USERS],
                created_at: now,
              })),
            ),
          )
          .execute();
      });
    }
  } finally {
    await db.destroy();
  }
}

/** Every table's rows in the PostgreSQL database at `url`. */
async function totalRows(url: string): Promise<number> {
  const connection = await openPostgres(url);
  try {
    let rows = 0;
    for (const table of await siteTables(connection)) rows += await countRows(connection, table.name);
    return rows;
  } finally {
    await connection.close();
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function manage(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  const err: string[] = [];
  const code = await runManage(args, {
    env: { ...process.env, DATA_DIR: dataDir, SECRET_KEY: 'bench', ...env },
    out: () => undefined,
    err: (line) => err.push(line),
  });
  if (code !== 0) throw new Error(`manage ${args[0]} failed (${code}): ${err.slice(-3).join(' / ')}`);
}

const perSecond = (rows: number, ms: number) =>
  `${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function leg(dataDir: string, work: string, label: string): Promise<void> {
  const target = await temporaryDatabase(PG_ADMIN, 'scriptorium_bench_migrate');
  const copy = await temporaryDatabase(PG_ADMIN, 'scriptorium_bench_pgcopy');
  try {
    const migrated = await timed(() => manage(dataDir, ['migrate', '--to', target.url]));
    const rows = await totalRows(target.url);
    // PostgreSQL's own copy of the same rows: dump the migrated database, load it into another.
    const pgCopy = await timed(async () => {
      const dump = execFileSync('pg_dump', ['--no-owner', target.url], { maxBuffer: 1 << 30 });
      const loaded = spawnSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', copy.url], { input: dump });
      if (loaded.status !== 0) throw new Error(`psql failed: ${loaded.stderr}`);
    });
    const sqliteBackup = await timed(() => manage(dataDir, ['backup', path.join(work, 'sqlite.backup')]));
    const tarred = await timed(async () => {
      execFileSync('tar', ['-czf', path.join(work, 'data.tar.gz'), '-C', dataDir, '.']);
    });
    const pgBackup = await timed(() =>
      manage(dataDir, ['backup', path.join(work, 'pg.backup')], { DATABASE_URL: target.url }),
    );
    const pgDump = await timed(async () => {
      execFileSync('pg_dump', ['-Fc', '-f', path.join(work, 'pg.dump'), target.url]);
    });
    const size = (file: string) => `${(statSync(path.join(work, file)).size / 1e6).toFixed(1)} MB`;
    console.log(`${label}:`);
    console.log(
      `    migrate SQLite -> PostgreSQL: ${rows.toLocaleString('en')} rows in ${seconds(migrated.ms)}: ${perSecond(rows, migrated.ms)}` +
        ` (verification included); pg_dump | psql of the same rows ${perSecond(rows, pgCopy.ms)}; ` +
        `migrate at ${(pgCopy.ms / migrated.ms).toFixed(2)}x the speed of pg_dump | psql`,
    );
    console.log(
      `    backup on SQLite ${seconds(sqliteBackup.ms)} (${size('sqlite.backup')}), tar -czf of DATA_DIR ` +
        `${seconds(tarred.ms)}: ${(sqliteBackup.ms / tarred.ms).toFixed(2)}x`,
    );
    console.log(
      `    backup on PostgreSQL ${seconds(pgBackup.ms)} (${size('pg.backup')}), pg_dump -Fc ` +
        `${seconds(pgDump.ms)}: ${(pgBackup.ms / pgDump.ms).toFixed(2)}x`,
    );
  } finally {
    await target.drop();
    await copy.drop();
    for (const file of ['sqlite.backup', 'data.tar.gz', 'pg.backup', 'pg.dump'])
      rmSync(path.join(work, file), { force: true });
  }
}

if (!(await postgresReachable(PG_ADMIN, 2000))) {
  console.log('PostgreSQL not reachable: the migration bench is skipped.');
} else {
  const work = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bench-migration-'));
  const dataDir = path.join(work, 'site');
  try {
    const seeded = await timed(async () => {
      execFileSync('mkdir', ['-p', dataDir]);
      await seedSite(dataDir);
    });
    console.log(
      `A SQLite site of ${DOCUMENTS.toLocaleString('en')} documents (${USERS} users, ${STEPS_PER_DOCUMENT} steps each), seeded in ${seconds(seeded.ms)}.`,
    );
    await leg(dataDir, work, 'Idle machine');
    const hog = startCpuHog();
    try {
      await leg(dataDir, work, `CPU hog on all ${os.cpus().length} cores`);
    } finally {
      hog.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
