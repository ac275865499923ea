import { withoutUnsafeLinks } from '../editor/safe-links';
import { schema } from '../editor/schema';
import { importNative, isNativeArchive } from '../exchange/native';
import { importDocx, mainPart } from './docx';
import type { ImportedDocument } from './model';
import { importOdt } from './odt';
import { ImportRefused, MAX_IMPORT_BYTES } from './problems';
import { openZip, text } from './zip';

/**
 * Reads any file New document > Import takes (DOCX, ODT, our native zip), picked by content, not
 * by name. Throws ImportRefused for what it refuses as a whole.
 */
export function importDocument(bytes: Uint8Array, fileName: string): ImportedDocument {
  const imported = readDocument(bytes, fileName);
  // A link to javascript:, data: and the like keeps its text and loses its target, whatever the
  // reader (our own zip carries stored JSON as it is).
  return { ...imported, content: withoutUnsafeLinks(imported.content) };
}

function readDocument(bytes: Uint8Array, fileName: string): ImportedDocument {
  if (bytes.length > MAX_IMPORT_BYTES) throw new ImportRefused('too_large');
  const files = openZip(bytes);
  const fallbackTitle = fileName.replace(/\.[^.]+$/, '').trim();
  const mime = text(files, 'mimetype')?.trim();
  try {
    if (isNativeArchive(files)) return checkedContent(importNative(files));
    // The main part is where _rels/.rels says (word/document2.xml in some files).
    if (mainPart(files)) return importDocx(files, fallbackTitle);
    if (mime === 'application/vnd.oasis.opendocument.text' || (files['content.xml'] && !mime)) {
      return importOdt(files, fallbackTitle);
    }
  } catch (error) {
    // Markup our readers cannot make sense of (or that breaks the schema) is a damaged file.
    if (error instanceof ImportRefused) throw error;
    throw new ImportRefused('corrupt', error instanceof Error ? error.message : String(error));
  }
  throw new ImportRefused('unknown_format');
}

/** A native file's content as it came: it must be a document of the schema (DOCX and ODT build one). */
function checkedContent(imported: ImportedDocument): ImportedDocument {
  schema.nodeFromJSON(imported.content).check();
  return imported;
}
