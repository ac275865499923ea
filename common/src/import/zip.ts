import { type Unzipped, unzipSync } from 'fflate';
import { ImportRefused } from './problems';

/**
 * Opening the zip containers of DOCX, ODT and our native format with limits, so that a small
 * upload cannot make the browser or the server inflate gigabytes (a zip bomb).
 */

/** All entries together may hold at most this much once inflated. */
export const MAX_UNZIPPED_BYTES = 500 * 1024 * 1024;
/** An entry bigger than this must not have been compressed more than this ratio. */
export const MAX_RATIO = 100;
const RATIO_FLOOR = 1024 * 1024;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** An OLE compound file: what Word writes for an encrypted (password) .docx, and old .doc files. */
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

export function isZip(bytes: Uint8Array): boolean {
  return startsWith(bytes, ZIP_MAGIC);
}

export function isOleCompoundFile(bytes: Uint8Array): boolean {
  return startsWith(bytes, OLE_MAGIC);
}

/**
 * Unzips with the limits above. The sizes of the central directory are checked before anything is
 * inflated; an entry whose inflated size differs from what it declared is refused as corrupt.
 */
export function openZip(bytes: Uint8Array): Unzipped {
  return openZipParts(bytes, () => true);
}

/**
 * As openZip, with the limits applied to the whole archive, but inflating only the entries
 * `wanted` names (a reference document's styles, not its body and media).
 */
export function openZipParts(bytes: Uint8Array, wanted: (name: string) => boolean): Unzipped {
  if (isOleCompoundFile(bytes)) throw new ImportRefused('encrypted');
  if (!isZip(bytes)) throw new ImportRefused('corrupt');
  const declared = new Map<string, number>();
  let total = 0;
  let files: Unzipped;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        const ratio = file.originalSize / Math.max(file.size, 1);
        if (total > MAX_UNZIPPED_BYTES || (file.originalSize > RATIO_FLOOR && ratio > MAX_RATIO)) {
          throw new ImportRefused('zip_bomb');
        }
        if (!wanted(file.name)) return false;
        declared.set(file.name, file.originalSize);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ImportRefused) throw error;
    throw new ImportRefused('corrupt');
  }
  for (const [name, data] of Object.entries(files)) {
    if (data.length !== declared.get(name)) throw new ImportRefused('corrupt');
  }
  return files;
}

export function text(files: Unzipped, name: string): string | null {
  const data = files[name];
  return data ? new TextDecoder().decode(data) : null;
}
