import type { ImportedDocument } from '@scriptorium/common/import/model';
import type { ImportRefusal } from '@scriptorium/common/import/problems';
import { sanitizeFlatpageHtml } from '../modules/admin/sanitize-flatpage';
import { prepareAvatar } from '../modules/user/avatar';
import { ImageRejected, type PreparedImage, type RejectReason } from '../modules/usermedia/storage';
import { cleanSvgUpload } from '../modules/usermedia/svg-sanitize';
import processImage from './image-worker';

/**
 * The body of an upload worker thread (see worker-pool.ts) for every kind of task but imports. It
 * gets bytes and answers plain data: class instances do not cross the thread boundary, so refusals
 * come back as reasons. Raster images and thumbnails, the common tasks, go to image-worker.ts,
 * which starts in a third of the time (no sanitisers).
 */

export type UploadTask =
  | { kind: 'image'; bytes: Uint8Array }
  | { kind: 'avatar'; bytes: Uint8Array }
  /** A flat page's HTML from staff (modules/admin): DOMPurify on jsdom, off the event loop. */
  | { kind: 'flatpage'; html: string }
  /** The thumbnail of a stored image, read from its file: a queued thumbnail holds no bytes. */
  | { kind: 'thumbnail'; file: string }
  /** New document > Import (issue 19): a DOCX, ODT or native zip read into our document. */
  | { kind: 'document'; bytes: Uint8Array; name: string };

export type UploadResult =
  | { ok: true; kind: 'image'; image: PreparedImage }
  | { ok: true; kind: 'avatar'; png: Uint8Array }
  | { ok: true; kind: 'flatpage'; html: string }
  | { ok: true; kind: 'thumbnail'; webp: Uint8Array }
  | { ok: true; kind: 'document'; imported: ImportedDocument | null; refusal: ImportRefusal | null }
  | { ok: false; reason: RejectReason | 'avatarType' };

export default async function processUpload(task: UploadTask): Promise<UploadResult> {
  if (task.kind === 'flatpage')
    return { ok: true, kind: 'flatpage', html: await sanitizeFlatpageHtml(task.html) };
  // Imports run document-worker.ts (worker-pool.ts names it per task), so that a worker that only
  // ever handled images never loads the document readers.
  if (task.kind === 'document') throw new Error('document tasks run document-worker.ts');
  if (task.kind !== 'avatar') return processImage(task, cleanSvgUpload);
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    const png = await prepareAvatar(bytes);
    return png ? { ok: true, kind: 'avatar', png } : { ok: false, reason: 'avatarType' };
  } catch (error) {
    if (error instanceof ImageRejected) return { ok: false, reason: error.reason };
    throw error;
  }
}
