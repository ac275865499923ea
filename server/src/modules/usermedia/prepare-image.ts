import { createHash } from 'node:crypto';
import type { ImageType } from '@scriptorium/common/api/usermedia';
import sharp, { type Sharp } from 'sharp';
import { ImageRejected } from './image-rejected';
import { sniffImageType } from './sniff';

export { ImageRejected, type RejectReason } from './image-rejected';

/**
 * The work on an uploaded image that runs in an upload worker (modules/uploads): sniffing,
 * checking, measuring, the thumbnail. Nothing here starts a task or writes a file (storage.ts).
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
