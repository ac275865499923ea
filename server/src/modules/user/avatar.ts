import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAvatarFileName } from '@scriptorium/common/api/user';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/rows';
import { runUploadTask } from '../uploads/worker-pool';
import { fieldError } from './field-errors';

export const AVATAR_URL_PREFIX = '/media/avatars/';
export const AVATAR_NAME = /^[0-9]+-[0-9a-f]{32}\.png$/;

export function avatarDir(dataDir: string): string {
  return path.join(dataDir, 'media', 'avatars');
}

export function avatarUrl(name: string | null): string | null {
  return name ? `${AVATAR_URL_PREFIX}${name}` : null;
}

export class AvatarRejected extends Error {}

/**
 * Checks that the upload is a PNG or JPEG (by its name and by its content), crops it to the
 * centre square in the upload worker pool and stores it under a new random name; answers that
 * name. Throws AvatarRejected for anything else, UploadBudgetExceeded past the time or memory budget.
 */
export async function storeAvatar(
  config: Config,
  userId: number,
  bytes: Buffer,
  filename: string,
): Promise<string> {
  if (!isAvatarFileName(filename)) throw new AvatarRejected('type');
  const result = await runUploadTask(config, { kind: 'avatar', bytes });
  if (!result.ok || result.kind !== 'avatar') throw new AvatarRejected('invalid');
  const name = `${userId}-${randomBytes(16).toString('hex')}.png`;
  await mkdir(avatarDir(config.dataDir), { recursive: true });
  await writeFile(path.join(avatarDir(config.dataDir), name), result.png);
  return name;
}

/**
 * The `avatar` file of a multipart request; other files are drained. A broken body (truncated
 * part, no boundary) is the client's error: a 400 field message, never a 500.
 */
export async function readAvatarUpload(
  request: FastifyRequest,
): Promise<{ bytes: Buffer; filename: string } | undefined> {
  let upload: { bytes: Buffer; filename: string } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file' && part.fieldname === 'avatar' && !upload) {
        upload = { bytes: await part.toBuffer(), filename: part.filename };
      } else if (part.type === 'file') {
        await part.toBuffer();
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw error;
    request.log.info({ err: error }, 'malformed multipart upload');
    throw fieldError('avatar', 'errors.malformedUpload');
  }
  return upload;
}

export async function removeAvatarFile(dataDir: string, name: string | null): Promise<void> {
  if (!name || !AVATAR_NAME.test(name)) return;
  await rm(path.join(avatarDir(dataDir), name), { force: true });
}

/** The user's avatar becomes `name` (null: none); the old picture's file goes. */
export async function replaceAvatar(ctx: AppContext, user: UserRow, name: string | null): Promise<void> {
  await ctx.db.updateTable('users').set({ avatar: name }).where('id', '=', user.id).execute();
  await removeAvatarFile(ctx.config.dataDir, user.avatar);
}
