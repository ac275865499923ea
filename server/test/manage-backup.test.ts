import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runManage } from '../src/cli/run-manage';
import { createDatabase, type Db } from '../src/db/database';
import { currentContent } from '../src/modules/documents/collab/store';
import { ENGINES, type Engine, startServer, useServer } from './harness';
import { type TemporaryDatabase, temporaryDatabase } from './processes';
import { TEST_DATABASE_URL } from './services';
import { openEditor, type SeededSite, SITE_ENV, seedSite, siteAnswers } from './site-seed';
import { bodyParagraphStart } from './ws-support';

const ENGLISH = { LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' };

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function manage(env: Record<string, string | undefined>, args: string[]): Promise<Outcome> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runManage(args, {
    env: { ...env, ...ENGLISH },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** An empty site to restore into: a new DATA_DIR, and a new PostgreSQL database for that engine. */
interface EmptySite {
  env: Record<string, string | undefined>;
  dataDir: string;
  remove(): Promise<void>;
}

async function emptySite(engine: Engine, base: Record<string, string>): Promise<EmptySite> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-restore-'));
  const database: TemporaryDatabase | undefined =
    engine === 'postgres' ? await temporaryDatabase(TEST_DATABASE_URL, 'scriptorium_restore') : undefined;
  return {
    env: { ...base, DATA_DIR: dataDir, DATABASE_URL: database?.url },
    dataDir,
    async remove() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function siteDb(env: Record<string, string | undefined>): Db {
  return createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' }).db;
}

/** Every document's step log leads from its snapshot to its version, step by step, and applies. */
async function stepLogsMatchSnapshots(db: Db): Promise<number> {
  const documents = await db.selectFrom('documents').select(['id', 'version', 'content_version']).execute();
  for (const document of documents) {
    const steps = await db
      .selectFrom('document_steps')
      .select('version')
      .where('document_id', '=', document.id)
      .where('version', '>', document.content_version)
      .orderBy('version')
      .execute();
    expect(steps.map((step) => step.version)).toEqual(
      Array.from(
        { length: document.version - document.content_version },
        (_, i) => document.content_version + i + 1,
      ),
    );
    await currentContent(db, document.id);
  }
  return documents.length;
}

describe.each(ENGINES)('npm run manage -- backup and restore (%s)', (engine) => {
  const source = useServer(engine, { env: SITE_ENV });
  let site: SeededSite;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-backups-'));
  beforeAll(async () => {
    site = await seedSite(source());
  }, 60_000);
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('backs up while a client types and restores into either engine: the same site, every step log whole', async () => {
    const archive = path.join(workDir, `typing-${engine}.tar.gz`);
    const editor = await openEditor(source().baseUrl, site.adaBrowser, site.documentId);
    let typing = true;
    const typed = (async () => {
      while (typing) {
        editor.client.edit((tr) => tr.insertText('x', bodyParagraphStart(tr.doc)));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await editor.client.settled();
    })();
    const versionBefore = editor.client.version;
    const backup = await manage(source().env, ['backup', archive]);
    typing = false;
    await typed;
    editor.client.close();
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(/^Wrote .*typing-\w+\.tar\.gz: \d+ rows in \d+ tables and 2 files\.$/);
    expect(backup.code).toBe(0);
    // The typing went on during the backup (the snapshot is of some moment in the middle).
    expect(editor.client.version).toBeGreaterThan(versionBefore);

    const before = await siteAnswers(source().baseUrl, site);
    for (const into of ENGINES) {
      const target = await emptySite(into, source().env);
      try {
        const restored = await manage(target.env, ['restore', archive]);
        expect(restored.stdout).toMatch(
          /^Restored \d+ rows in \d+ tables and 2 files; row counts and checksums match the backup\.$/,
        );
        expect(restored.code).toBe(0);
        const db = siteDb(target.env);
        try {
          expect(await stepLogsMatchSnapshots(db)).toBe(1);
        } finally {
          await db.destroy();
        }
        const server = await startServer('sqlite', {
          env: {
            ...SITE_ENV,
            DATA_DIR: target.dataDir,
            ...(target.env.DATABASE_URL ? { DATABASE_URL: target.env.DATABASE_URL } : {}),
          },
        });
        try {
          const after = await siteAnswers(server.baseUrl, site);
          // (The typing may have added an automatic revision after the backup: not compared.)
          expect(JSON.stringify(after.revisions)).toContain('"name":"First draft"');
          for (const unchanged of ['bibliography', 'images', 'contacts', 'templates', 'books']) {
            expect(after[unchanged], unchanged).toEqual(before[unchanged]);
          }
          const { images } = after.images as { images: { image: string }[] };
          const file = (root: string) => readFileSync(path.join(root, images[0].image.replace(/^\//, '')));
          expect(file(target.dataDir).equals(file(source().env.DATA_DIR))).toBe(true);
        } finally {
          await server.close();
        }
      } finally {
        await target.remove();
      }
    }
  }, 180_000);

  it('refuses a truncated, a foreign and a missing archive and an existing name, writing nothing', async () => {
    const archive = path.join(workDir, `whole-${engine}.tar.gz`);
    expect((await manage(source().env, ['backup', archive])).code).toBe(0);
    expect(await manage(source().env, ['backup', archive])).toEqual({
      code: 1,
      stdout: '',
      stderr: `${archive} exists already: choose another name.`,
    });

    const truncated = path.join(workDir, `truncated-${engine}.tar.gz`);
    writeFileSync(truncated, readFileSync(archive).subarray(0, Math.floor(statSync(archive).size / 2)));
    const foreign = path.join(workDir, `foreign-${engine}.tar.gz`);
    writeFileSync(path.join(workDir, 'notes.txt'), 'not a site');
    await tar.c({ gzip: true, file: foreign, cwd: workDir }, ['notes.txt']);
    const text = path.join(workDir, 'plain.txt');
    writeFileSync(text, 'hello');

    const target = await emptySite(engine, source().env);
    try {
      const cut = await manage(target.env, ['restore', truncated]);
      expect(cut.code).toBe(1);
      expect(cut.stderr).toMatch(
        new RegExp(
          `^${truncated.replaceAll('.', '\\.')} is damaged or incomplete \\(.+\\); nothing was restored\\.$`,
        ),
      );
      expect(await manage(target.env, ['restore', foreign])).toEqual({
        code: 1,
        stdout: '',
        stderr: `${foreign} is not a Scriptorium backup (no manifest.json); nothing was restored.`,
      });
      const notTar = await manage(target.env, ['restore', text]);
      expect(notTar.stderr).toMatch(/ is damaged or incomplete \(.+\); nothing was restored\.$/);
      expect(await manage(target.env, ['restore', path.join(workDir, 'absent.tar.gz')])).toEqual({
        code: 1,
        stdout: '',
        stderr: `There is no file ${path.join(workDir, 'absent.tar.gz')}.`,
      });
      // Nothing half-written: no rows, no media, no leftover unpacking folder.
      const db = siteDb(target.env);
      try {
        expect(await db.selectFrom('users').select('id').execute()).toEqual([]);
      } finally {
        await db.destroy();
      }
      expect(
        readdirSync(target.dataDir).filter(
          (name) => name !== 'db.sqlite3' && !name.startsWith('db.sqlite3-'),
        ),
      ).toEqual([]);

      // Truncating a file by a few bytes at the end is refused too (gzip's end is checked).
      const short = path.join(workDir, `short-${engine}.tar.gz`);
      writeFileSync(short, readFileSync(archive));
      truncateSync(short, statSync(short).size - 4);
      expect((await manage(target.env, ['restore', short])).stderr).toMatch(/is damaged or incomplete/);
      expect((await manage(target.env, ['restore', archive])).code).toBe(0);
    } finally {
      await target.remove();
    }
  }, 120_000);
});
