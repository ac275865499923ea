import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { Dialect } from '../database';
import type { CellValue, RawConnection, RawRow } from './connection';
import { type LoadOptions, loadSite } from './load-site';
import {
  openSnapshot,
  type SiteLocation,
  sequencePositions,
  TableDigest,
  type TableSummary,
  tableBatches,
} from './site-data';
import { type SiteTable, siteTables } from './site-tables';

/**
 * A site's backup: one gzipped tar holding
 *   manifest.json        format and version, the source engine, every table (columns, key, rows,
 *                        checksum) in dependency order, the id sequences, every file with its SHA-256
 *   tables/<name>.jsonl  a table's rows, one JSON array of values (in `columns` order) a line
 *   files/...            DATA_DIR's media/, template-files/ and secret_key
 * The rows are in the engine-independent form of the migration, so a backup of either engine
 * restores into either.
 */
export const ARCHIVE_FORMAT = 'scriptorium-backup';
export const ARCHIVE_VERSION = 1;

/** What of DATA_DIR a backup holds besides the database. */
const DATA_DIR_PARTS = ['media', 'template-files', 'secret_key'];
/** What must be empty for a restore (secret_key is replaced: loading the settings may have made one). */
const USER_FILES = ['media', 'template-files'];

interface ManifestTable extends SiteTable, TableSummary {}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  created: number;
  engine: Dialect;
  tables: ManifestTable[];
  sequencePositions: Record<string, number>;
  files: { path: string; size: number; sha256: string }[];
}

/** Why an archive cannot be restored: not ours, or damaged (truncated, a file missing or altered). */
export class ArchiveError extends Error {
  constructor(
    readonly kind: 'foreign' | 'damaged',
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** A restore needs an empty DATA_DIR for the files. */
export class DataDirNotEmptyError extends Error {
  constructor(readonly part: string) {
    super(`${part} is not empty`);
  }
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

async function filesBelow(root: string, relative = ''): Promise<string[]> {
  const here = path.join(root, relative);
  if (!existsSync(here)) return [];
  if (!(await stat(here)).isDirectory()) return [relative];
  const found: string[] = [];
  for (const entry of await readdir(here))
    found.push(...(await filesBelow(root, path.join(relative, entry))));
  return found;
}

/**
 * Writes a backup of a live site to `file`: the database from one consistent snapshot (as
 * migrate reads it), then the files. Written to a temporary name and renamed at the end, so
 * `file` is whole or absent. A file deleted between the snapshot and its copy is left out (its
 * row was then being deleted too); one uploaded after the snapshot is in, unreferenced.
 */
export async function backupSite(
  site: SiteLocation,
  file: string,
  batchSize: number,
): Promise<{ tables: number; rows: number; files: number }> {
  const staging = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-backup-'));
  try {
    const snapshot = await openSnapshot(site);
    const tables: ManifestTable[] = [];
    let positions: Record<string, number>;
    try {
      const found = await siteTables(snapshot);
      positions = await sequencePositions(snapshot, found);
      await mkdir(path.join(staging, 'tables'));
      for (const table of found) {
        const digest = new TableDigest(table.columns);
        const out = createWriteStream(path.join(staging, 'tables', `${table.name}.jsonl`));
        for await (const rows of tableBatches(snapshot, table, batchSize)) {
          let text = '';
          for (const row of rows) {
            digest.add(row);
            text += `${JSON.stringify(table.columns.map((column) => row[column] ?? null))}\n`;
          }
          if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
        tables.push({ ...table, ...digest.summary() });
      }
    } finally {
      await snapshot.close();
    }
    const files: Manifest['files'] = [];
    for (const part of DATA_DIR_PARTS) {
      for (const relative of await filesBelow(site.dataDir, part)) {
        const from = path.join(site.dataDir, relative);
        const to = path.join(staging, 'files', relative);
        try {
          await mkdir(path.dirname(to), { recursive: true });
          await cp(from, to);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw error;
        }
        files.push({ path: relative, size: (await stat(to)).size, sha256: await sha256(to) });
      }
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      created: Date.now(),
      engine: snapshot.dialect,
      tables,
      sequencePositions: positions,
      files,
    };
    await writeFile(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 1));
    const partial = `${file}.partial-${randomBytes(4).toString('hex')}`;
    try {
      await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, [
        'manifest.json',
        'tables',
        ...(files.length > 0 ? ['files'] : []),
      ]);
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return {
      tables: tables.length,
      rows: tables.reduce((sum, table) => sum + table.rows, 0),
      files: files.length,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

function parseManifest(text: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new ArchiveError('damaged', 'manifest.json is not JSON');
  }
  if (manifest?.format !== ARCHIVE_FORMAT) throw new ArchiveError('foreign', 'no Scriptorium manifest');
  if (manifest.version !== ARCHIVE_VERSION) {
    throw new ArchiveError('foreign', `format version ${String(manifest.version)}`);
  }
  for (const table of manifest.tables) {
    if (!TABLE_NAME.test(table.name)) throw new ArchiveError('damaged', `table name ${table.name}`);
  }
  return manifest;
}

/** Unpacks and checks an archive into `into`: its manifest, or an ArchiveError. */
async function unpack(archive: string, into: string): Promise<Manifest> {
  try {
    // Synchronous: a damaged archive stops the unpacking with no file write still under way, so
    // the unpacked part can be removed at once. (The command does nothing else meanwhile.)
    tar.x({ file: archive, cwd: into, strict: true, sync: true });
  } catch (error) {
    throw new ArchiveError('damaged', (error as Error).message);
  }
  const manifestFile = path.join(into, 'manifest.json');
  if (!existsSync(manifestFile)) throw new ArchiveError('foreign', 'no manifest.json');
  const manifest = parseManifest(await readFile(manifestFile, 'utf8'));
  for (const table of manifest.tables) {
    if (!existsSync(path.join(into, 'tables', `${table.name}.jsonl`))) {
      throw new ArchiveError('damaged', `tables/${table.name}.jsonl is missing`);
    }
  }
  for (const file of manifest.files) {
    const unpacked = path.join(into, 'files', file.path);
    if (!existsSync(unpacked) || (await sha256(unpacked)) !== file.sha256) {
      throw new ArchiveError('damaged', `files/${file.path} is missing or altered`);
    }
  }
  return manifest;
}

async function* fileBatches(file: string, table: SiteTable, batchSize: number): AsyncGenerator<RawRow[]> {
  const lines = readline.createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let batch: RawRow[] = [];
  for await (const line of lines) {
    if (line === '') continue;
    const values = JSON.parse(line) as CellValue[];
    batch.push(Object.fromEntries(table.columns.map((column, index) => [column, values[index] ?? null])));
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Restores an archive into a site: its database (migrated, with no rows unless `force`) through
 * `target`, its files into an empty DATA_DIR. Everything is unpacked and checked (manifest,
 * every file's SHA-256) before anything is written; the files are moved into place, then the rows
 * go in one transaction verified against the manifest (loadSite); should that fail, the files
 * moved are removed again.
 */
export async function restoreSite(
  archive: string,
  site: SiteLocation,
  target: RawConnection,
  options: LoadOptions,
): Promise<{ tables: number; rows: number; files: number }> {
  for (const part of USER_FILES) {
    if ((await filesBelow(site.dataDir, part)).length > 0) throw new DataDirNotEmptyError(part);
  }
  await mkdir(site.dataDir, { recursive: true });
  const staging = await mkdtemp(path.join(site.dataDir, '.restore-'));
  const placed: string[] = [];
  try {
    const manifest = await unpack(archive, staging);
    for (const part of DATA_DIR_PARTS) {
      const from = path.join(staging, 'files', part);
      if (!existsSync(from)) continue;
      const to = path.join(site.dataDir, part);
      await rm(to, { recursive: true, force: true });
      await rename(from, to);
      placed.push(to);
    }
    const tableFile = (table: SiteTable) => path.join(staging, 'tables', `${table.name}.jsonl`);
    const summaries = await loadSite(
      {
        tables: manifest.tables.map(({ name, columns, primaryKey, parents }) => ({
          name,
          columns,
          primaryKey,
          parents,
        })),
        rowCount: async (table) => manifest.tables.find((entry) => entry.name === table.name)?.rows ?? 0,
        batches: (table) => fileBatches(tableFile(table), table, options.batchSize),
        sequencePositions: manifest.sequencePositions,
        expected: Object.fromEntries(
          manifest.tables.map((table) => [table.name, { rows: table.rows, checksum: table.checksum }]),
        ),
      },
      target,
      options,
    );
    placed.length = 0;
    const rows = Object.values(summaries).reduce((sum, summary) => sum + summary.rows, 0);
    return { tables: manifest.tables.length, rows, files: manifest.files.length };
  } finally {
    for (const part of placed) await rm(part, { recursive: true, force: true });
    await rm(staging, { recursive: true, force: true });
  }
}
