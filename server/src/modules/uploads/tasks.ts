import type { ImportedDocument } from '@scriptorium/common/import/model';
import type { ImportRefusal } from '@scriptorium/common/import/problems';
import type { PreparedImage, RejectReason } from '../usermedia/prepare-image';

/**
 * What the upload pool's workers are asked (worker-pool.ts) and answer: plain data, since class
 * instances do not cross the thread boundary (refusals come back as reasons).
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
