import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageType } from '@scriptorium/common/api/usermedia';
import { runUploadTask, UploadBudgetExceeded, type UploadPoolConfig } from '../uploads/worker-pool';
import { ImageRejected } from './image-rejected';
import type { PreparedImage } from './prepare-image';
import { EXTENSIONS } from './sniff';

/**
 * Files live in DATA_DIR/media/ under content-addressed names (sha256 of the stored bytes), so a
 * name never changes meaning, can be cached forever, and the same file is stored once.
 *   media/images/<sha256>.<ext>       the image as stored (a sanitised SVG, else the upload)
 *   media/thumbnails/<sha256>.webp    a thumbnail of at most THUMBNAIL_SIZE px
 */

/** Buffers cross the thread boundary as plain Uint8Arrays. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * prepareImage in the upload worker pool: the event loop stays free while a file is decoded, and
 * a file that needs more than the time or memory budget is refused with a reason.
 */
export async function prepareImageInWorker(config: UploadPoolConfig, upload: Buffer): Promise<PreparedImage> {
  let result: Awaited<ReturnType<typeof runUploadTask>>;
  try {
    result = await runUploadTask(config, { kind: 'image', bytes: upload });
  } catch (error) {
    if (error instanceof UploadBudgetExceeded) throw new ImageRejected('processingLimit');
    throw error;
  }
  if (!result.ok) throw new ImageRejected(result.reason === 'avatarType' ? 'invalidImage' : result.reason);
  if (result.kind !== 'image') throw new ImageRejected('invalidImage');
  const { image } = result;
  return {
    ...image,
    bytes: asBuffer(image.bytes),
    thumbnail: image.thumbnail ? asBuffer(image.thumbnail) : null,
  };
}

export function mediaRoot(dataDir: string): string {
  return path.join(dataDir, 'media');
}

export function imageFileName(sha256: string, fileType: ImageType): string {
  return `${sha256}.${EXTENSIONS[fileType]}`;
}

export function thumbnailFileName(sha256: string): string {
  return `${sha256}.webp`;
}

export function imagePath(dataDir: string, sha256: string, fileType: ImageType): string {
  return path.join(mediaRoot(dataDir), 'images', imageFileName(sha256, fileType));
}

export function thumbnailPath(dataDir: string, sha256: string): string {
  return path.join(mediaRoot(dataDir), 'thumbnails', thumbnailFileName(sha256));
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** Write to a temporary name, then rename: a reader never sees half a file under the final name. */
async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  if (await exists(file)) return;
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, file);
}

export async function storeImageFiles(dataDir: string, image: PreparedImage): Promise<void> {
  await writeAtomically(imagePath(dataDir, image.sha256, image.fileType), image.bytes);
  if (image.thumbnail) await writeAtomically(thumbnailPath(dataDir, image.sha256), image.thumbnail);
}

/** Thumbnails being made after their answer, by file: the media route waits for them. */
const pendingThumbnails = new Map<string, Promise<void>>();

/**
 * Makes the thumbnail of a stored image in the upload pool and writes it, once per file at a
 * time; resolves when it is on disk (or could not be made: then the thumbnail stays missing).
 */
export function makeThumbnail(
  config: UploadPoolConfig & { dataDir: string },
  sha256: string,
  fileType: ImageType,
): Promise<void> {
  const target = thumbnailPath(config.dataDir, sha256);
  let pending = pendingThumbnails.get(target);
  if (!pending) {
    pending = (async () => {
      if (await exists(target)) return;
      const file = imagePath(config.dataDir, sha256, fileType);
      const result = await runUploadTask(config, { kind: 'thumbnail', file });
      if (result.ok && result.kind === 'thumbnail') await writeAtomically(target, asBuffer(result.webp));
    })()
      .catch(() => undefined)
      .finally(() => pendingThumbnails.delete(target));
    pendingThumbnails.set(target, pending);
  }
  return pending;
}

export async function removeImageFiles(dataDir: string, sha256: string, fileType: ImageType): Promise<void> {
  await rm(imagePath(dataDir, sha256, fileType), { force: true });
  await rm(thumbnailPath(dataDir, sha256), { force: true });
}
