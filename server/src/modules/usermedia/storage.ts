import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageType } from '@scriptorium/common/api/usermedia';
import sharp, { type Sharp } from 'sharp';
import { runUploadTask, UploadBudgetExceeded, type UploadPoolConfig } from '../../uploads/worker-pool';
import { EXTENSIONS, sniffImageType } from './sniff';

/**
 * Files live in DATA_DIR/media/ under content-addressed names (sha256 of the stored bytes), so a
 * name never changes meaning, can be cached forever, and the same file is stored once.
 *   media/images/<sha256>.<ext>       the image as stored (a sanitised SVG, else the upload)
 *   media/thumbnails/<sha256>.webp    a thumbnail of at most THUMBNAIL_SIZE px
 */

export const THUMBNAIL_SIZE = 240;
/** Decompression bombs: a tiny file that claims 50,000 x 50,000 px is refused before decoding. */
const MAX_INPUT_PIXELS = 100_000_000;

/** sharp's name for each accepted format (AVIF is read by libheif). */
const SHARP_FORMATS: Record<ImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/avif': 'heif',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};

export type RejectReason =
  | 'unsupportedType'
  | 'invalidImage'
  | 'unsafeSvg'
  | 'svgTooComplex'
  | 'processingLimit';

export class ImageRejected extends Error {
  constructor(readonly reason: RejectReason) {
    super(reason);
  }
}

export interface PreparedImage {
  sha256: string;
  fileType: ImageType;
  width: number;
  height: number;
  /** The bytes to store: for SVG the sanitised document. */
  bytes: Buffer;
  /** null when it is made after the answer (JPEG: see THUMBNAIL_AFTER_ANSWER). */
  thumbnail: Buffer | null;
}

/**
 * Formats whose thumbnail is made after the answer, off the request path. For JPEG the header
 * (read by metadata, up to the first scan: sizes, tables) is where libjpeg's fatal errors are;
 * damage in the scan data after it is a warning that failOn 'error' lets through anyway, so the
 * decode cannot change the answer. The other formats keep their decode, the check that the whole
 * file is an image, on the request path.
 */
const THUMBNAIL_AFTER_ANSWER: ReadonlySet<ImageType> = new Set(['image/jpeg']);

const DECODE_OPTIONS = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };

/** The WebP thumbnail of an opened image or of a stored file (at most THUMBNAIL_SIZE px, EXIF rotation applied). */
export function renderThumbnail(image: Sharp | string): Promise<Buffer> {
  const pipeline = typeof image === 'string' ? sharp(image, DECODE_OPTIONS) : image;
  return pipeline
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}

/** Makes an uploaded SVG safe to store (svg-sanitize.ts), or refuses it with a reason. */
export type SvgCleaner = (upload: Buffer) => Promise<Buffer>;

/**
 * Sniffs, checks, sanitises and measures an upload and renders its thumbnail. Nothing is written.
 * SVG needs `cleanSvg`: the sanitiser is passed in by the worker that handles drawings, so that the
 * image worker starts without it (upload-worker.ts, image-worker.ts).
 */
export async function prepareImage(upload: Buffer, cleanSvg?: SvgCleaner): Promise<PreparedImage> {
  const fileType = sniffImageType(upload);
  if (!fileType) throw new ImageRejected('unsupportedType');
  let bytes = upload;
  if (fileType === 'image/svg+xml') {
    if (!cleanSvg) throw new Error('SVG uploads are prepared by upload-worker.ts');
    bytes = await cleanSvg(upload);
  }
  let width: number;
  let height: number;
  let thumbnail: Buffer | null = null;
  // One sharp instance for the header and the thumbnail: the input is opened once. The hash is
  // computed on this thread while libvips decodes on its own threads.
  const image = sharp(bytes, DECODE_OPTIONS);
  const measured = image.metadata();
  measured.catch(() => undefined);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  try {
    const meta = await measured;
    // The bytes must decode as what their signature says (a PNG header on junk is not a PNG).
    if (meta.format !== SHARP_FORMATS[fileType]) throw new ImageRejected('invalidImage');
    // Shown size: a portrait photo with an EXIF rotation is taller than wide.
    width = meta.autoOrient?.width ?? meta.width ?? 0;
    height = meta.autoOrient?.height ?? meta.height ?? 0;
    if (!width || !height) throw new ImageRejected('invalidImage');
    // The full decode (at the thumbnail's scale where the format allows) is also the check that
    // the whole file is an image, not only its header.
    if (!THUMBNAIL_AFTER_ANSWER.has(fileType)) thumbnail = await renderThumbnail(image);
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    throw new ImageRejected('invalidImage');
  }
  return { sha256, fileType, width, height, bytes, thumbnail };
}

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
