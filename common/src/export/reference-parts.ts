import { zipSync } from 'fflate';
import { ImportRefused } from '../import/problems';
import { openZipParts } from '../import/zip';

/**
 * A template's reference document (DOCX or ODT) cut down to what the writers read (issue 50): its
 * styles and what they name, never its body's media or embedded files. A 1 MB upload that
 * inflates to 1 GB used to be inflated whole on every export; now the upload is checked once with
 * the imports' zip limits (import/zip.ts) and the export reads this small archive.
 */

/** What readDocxReference and its header/footer copy read (reference-merge.ts). */
const DOCX_PARTS =
  /^(\[Content_Types\]\.xml|word\/(styles|numbering|settings|fontTable|document)\.xml|word\/theme\/theme1\.xml|word\/(header|footer)\d*\.xml|word\/_rels\/[^/]+\.rels|word\/media\/[^/]+)$/;
/** What readOdtReference reads: the styles and the pictures they name (a header's logo). */
const ODT_PARTS = /^(styles\.xml|Pictures\/[^/]+)$/;

export type ReferenceKind = 'docx' | 'odt';

/**
 * The reference document's parts the writers need, as a new small zip. Throws ImportRefused: its
 * `zip_bomb` past the imports' limits, `corrupt` for a damaged zip or one without a styles part.
 */
export function reducedReference(bytes: Uint8Array, kind: ReferenceKind): Uint8Array {
  const pattern = kind === 'docx' ? DOCX_PARTS : ODT_PARTS;
  const parts = openZipParts(bytes, (name) => pattern.test(name));
  if (!parts[kind === 'docx' ? 'word/styles.xml' : 'styles.xml']) throw new ImportRefused('corrupt');
  return zipSync(parts, { level: 6 });
}

/** Whether a stored reference holds nothing but the parts (made by reducedReference, or as small). */
export function isReducedReference(bytes: Uint8Array, kind: ReferenceKind): boolean {
  const pattern = kind === 'docx' ? DOCX_PARTS : ODT_PARTS;
  let extra = false;
  try {
    // Reads the central directory only: no entry is inflated.
    openZipParts(bytes, (name) => {
      if (!pattern.test(name)) extra = true;
      return false;
    });
  } catch {
    return false;
  }
  return !extra;
}
