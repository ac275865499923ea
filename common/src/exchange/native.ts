import { strFromU8, strToU8, type Unzipped, zipSync } from 'fflate';
import { jsonDeeperThan, jsonHasNul } from '../api/text-rules';
import type { EntryData } from '../bibliography/types';
import type { ImportedDocument, ImportedEntry, ImportedThread } from '../import/model';
import { ImportRefused, MAX_CONTENT_DEPTH } from '../import/problems';
import { openZip } from '../import/zip';

/**
 * Scriptorium's own format (issue 19): the backup and transfer format that comes back identical.
 * A zip with `scriptorium.json` (format name and version, title, the ProseMirror content, the
 * bibliography, the comment threads, the list of images) and the image files under `images/`.
 * Browser and server share it; a file of a newer version is refused rather than half-read.
 */

export const NATIVE_FORMAT = 'scriptorium-native';
export const NATIVE_VERSION = 1;
const MANIFEST = 'scriptorium.json';

export interface NativeImage {
  /** The figure's `image` attribute (the library id of the exporting user) as text. */
  key: string;
  /** The file name, with the extension of its type. */
  name: string;
  bytes: Uint8Array;
}

/** A plain description of one document: what the exporter needs and what the importer returns. */
export interface NativeDocument {
  title: string;
  content: Record<string, unknown>;
  bibliography: ImportedEntry[];
  threads: ImportedThread[];
  images: NativeImage[];
}

interface Manifest {
  format: typeof NATIVE_FORMAT;
  version: number;
  title: string;
  content: Record<string, unknown>;
  bibliography: { key: string; data: EntryData }[];
  threads: ImportedThread[];
  images: { key: string; name: string; file: string }[];
}

export function exportNative(document: NativeDocument): Uint8Array {
  const manifest: Manifest = {
    format: NATIVE_FORMAT,
    version: NATIVE_VERSION,
    title: document.title,
    content: document.content,
    bibliography: document.bibliography,
    threads: document.threads,
    images: document.images.map((image, index) => ({
      key: image.key,
      name: image.name,
      file: `images/${index + 1}-${image.name.replace(/[^\w.-]/g, '_')}`,
    })),
  };
  const files: Record<string, Uint8Array> = { [MANIFEST]: strToU8(JSON.stringify(manifest)) };
  manifest.images.forEach((entry, index) => {
    files[entry.file] = document.images[index].bytes;
  });
  // Images are compressed already: stored, not deflated again.
  return zipSync(
    Object.fromEntries(
      Object.entries(files).map(([name, data]) => [name, [data, { level: name === MANIFEST ? 6 : 0 }]]),
    ),
  );
}

export function isNativeArchive(files: Unzipped): boolean {
  return MANIFEST in files;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a native zip (bytes, or already opened with the import limits). */
export function importNative(input: Uint8Array | Unzipped): ImportedDocument {
  const files = input instanceof Uint8Array ? openZip(input) : input;
  const raw = files[MANIFEST];
  if (!raw) throw new ImportRefused('unknown_format');
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(strFromU8(raw));
  } catch {
    throw new ImportRefused('corrupt');
  }
  if (!isRecord(manifest) || manifest.format !== NATIVE_FORMAT) throw new ImportRefused('unknown_format');
  // Before anything walks it: every reader of a document (the schema, the exporters) recurses.
  if (jsonDeeperThan(manifest, MAX_CONTENT_DEPTH)) throw new ImportRefused('too_deep');
  // Our exports never hold a NUL character (PostgreSQL cannot store one): a file made by hand.
  if (jsonHasNul(manifest)) throw new ImportRefused('corrupt', 'NUL character');
  if (typeof manifest.version !== 'number' || manifest.version > NATIVE_VERSION) {
    throw new ImportRefused('future_version', String(manifest.version));
  }
  if (!isRecord(manifest.content) || typeof manifest.title !== 'string') throw new ImportRefused('corrupt');
  const images = (manifest.images ?? []).map((entry) => {
    const bytes = files[entry.file];
    if (!bytes) throw new ImportRefused('corrupt', entry.file);
    return { key: String(entry.key), name: String(entry.name), bytes };
  });
  return {
    format: 'native',
    title: manifest.title,
    content: manifest.content,
    images,
    bibliography: Array.isArray(manifest.bibliography) ? manifest.bibliography : [],
    threads: Array.isArray(manifest.threads) ? manifest.threads : [],
    notes: [],
  };
}
