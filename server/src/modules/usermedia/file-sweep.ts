import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/database';
import { AVATAR_NAME, avatarDir } from '../user/avatar';
import { withFileLock } from './file-locks';
import { mediaRoot } from './storage';

/**
 * Removes files no row refers to any more: content-addressed images and thumbnails whose sha256
 * no image has, avatars no user has, and temporary files a crash left half-written. Runs at
 * start-up and as `npm run manage -- sweep-files`.
 *
 * Only files older than `graceMs` go: another server process may have just written the files of
 * an upload whose row is not committed yet (files are written before the row, see save-image.ts).
 */

export const SWEEP_GRACE_MS = 60 * 60 * 1000;

export interface SweepResult {
  images: number;
  thumbnails: number;
  avatars: number;
  temporary: number;
}

const CONTENT_NAME = /^([0-9a-f]{64})\.[a-z]+$/;
const TEMPORARY_NAME = /\.[0-9a-f]{12}\.tmp$/;

async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

async function olderThan(file: string, cutoff: number): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && info.mtimeMs < cutoff;
}

async function referencedHashes(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('usermedia_images').select('sha256').distinct().execute();
  return new Set(rows.map((row) => row.sha256));
}

async function sweepContentFolder(
  db: Db,
  dir: string,
  cutoff: number,
  result: SweepResult,
  kind: 'images' | 'thumbnails',
): Promise<void> {
  const referenced = await referencedHashes(db);
  for (const name of await listFiles(dir)) {
    const file = path.join(dir, name);
    if (TEMPORARY_NAME.test(name)) {
      if (await olderThan(file, cutoff)) {
        await rm(file, { force: true });
        result.temporary += 1;
      }
      continue;
    }
    const sha256 = CONTENT_NAME.exec(name)?.[1];
    if (!sha256 || referenced.has(sha256) || !(await olderThan(file, cutoff))) continue;
    // Under the file's lock, and checked again: an upload of the same file may be committing.
    await withFileLock(sha256, async () => {
      const row = await db
        .selectFrom('usermedia_images')
        .select('id')
        .where('sha256', '=', sha256)
        .executeTakeFirst();
      if (row) return;
      await rm(file, { force: true });
      result[kind] += 1;
    });
  }
}

async function sweepAvatars(db: Db, dataDir: string, cutoff: number, result: SweepResult): Promise<void> {
  const dir = avatarDir(dataDir);
  const names = await listFiles(dir);
  if (names.length === 0) return;
  const rows = await db.selectFrom('users').select('avatar').where('avatar', 'is not', null).execute();
  const used = new Set(rows.map((row) => row.avatar));
  for (const name of names) {
    const file = path.join(dir, name);
    if (used.has(name) || !(await olderThan(file, cutoff))) continue;
    // Anything else in the folder is ours too: a half-written avatar, a stray temporary file.
    await rm(file, { force: true });
    if (AVATAR_NAME.test(name)) result.avatars += 1;
    else result.temporary += 1;
  }
}

export async function sweepFiles(
  db: Db,
  dataDir: string,
  options: { now?: number; graceMs?: number } = {},
): Promise<SweepResult> {
  const cutoff = (options.now ?? Date.now()) - (options.graceMs ?? SWEEP_GRACE_MS);
  const result: SweepResult = { images: 0, thumbnails: 0, avatars: 0, temporary: 0 };
  const root = mediaRoot(dataDir);
  await sweepContentFolder(db, path.join(root, 'images'), cutoff, result, 'images');
  await sweepContentFolder(db, path.join(root, 'thumbnails'), cutoff, result, 'thumbnails');
  await sweepAvatars(db, dataDir, cutoff, result);
  return result;
}
