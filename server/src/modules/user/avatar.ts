import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAvatarFileName } from '@scriptorium/common/api/user';
import sharp from 'sharp';

/** Avatars are square images of this many pixels. */
export const AVATAR_SIZE = 200;
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
 * centre square and stores it under a new random name; answers that name.
 */
export async function storeAvatar(
  dataDir: string,
  userId: number,
  bytes: Buffer,
  filename: string,
): Promise<string> {
  if (!isAvatarFileName(filename)) throw new AvatarRejected('type');
  let output: Buffer;
  try {
    const image = sharp(bytes, { limitInputPixels: 50_000_000 });
    const { format } = await image.metadata();
    if (format !== 'png' && format !== 'jpeg') throw new AvatarRejected('type');
    output = await image
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'attention' })
      .png()
      .toBuffer();
  } catch (error) {
    if (error instanceof AvatarRejected) throw error;
    throw new AvatarRejected('invalid');
  }
  const name = `${userId}-${randomBytes(16).toString('hex')}.png`;
  await mkdir(avatarDir(dataDir), { recursive: true });
  await writeFile(path.join(avatarDir(dataDir), name), output);
  return name;
}

export async function removeAvatarFile(dataDir: string, name: string | null): Promise<void> {
  if (!name || !AVATAR_NAME.test(name)) return;
  await rm(path.join(avatarDir(dataDir), name), { force: true });
}
