/**
 * What an import reports (issue 19). Refusals stop the import and create nothing; notes list what
 * was read but could not be kept. Both are codes: the browser and the server translate them
 * (namespace `import`), so the report reads in the user's language.
 */

/** Why a file is refused as a whole. */
export const IMPORT_REFUSALS = [
  'unknown_format',
  'corrupt',
  'encrypted',
  'zip_bomb',
  'future_version',
  'too_large',
  'too_deep',
  /** Reading it ran out of the worker's time or memory budget (a small file can be that complex). */
  'over_budget',
  /** The user has an import or export running already (429, issue 50). */
  'busy',
] as const;
export type ImportRefusal = (typeof IMPORT_REFUSALS)[number];

/** What could not be kept; `detail` names the thing (an element, a link, a file). */
export const IMPORT_NOTES = [
  'external_link',
  'unsupported_element',
  'image_unreadable',
  'equation_unconverted',
  'citation_unreadable',
  'nested_footnote',
  'field_dropped',
] as const;
export type ImportNote = (typeof IMPORT_NOTES)[number];

export interface ImportNoteItem {
  code: ImportNote;
  detail: string;
  /** How many times it happened (notes of the same code and detail are counted, not repeated). */
  count: number;
}

/**
 * A document nested deeper than this many JSON levels (a node and its content list are two) is
 * refused ('too_deep'): the deepest real documents (lists in lists in tables) need a few dozen.
 */
export const MAX_CONTENT_DEPTH = 400;

/** Largest file we take (browser and server): 50 MB. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

export class ImportRefused extends Error {
  constructor(
    readonly code: ImportRefusal,
    readonly detail = '',
  ) {
    super(`import refused: ${code}${detail ? ` (${detail})` : ''}`);
  }
}

/** Collects notes, counting repeats. */
export class ImportReport {
  private readonly notes = new Map<string, ImportNoteItem>();

  note(code: ImportNote, detail = ''): void {
    const key = `${code}\u0000${detail}`;
    const found = this.notes.get(key);
    if (found) found.count++;
    else this.notes.set(key, { code, detail, count: 1 });
  }

  list(): ImportNoteItem[] {
    return [...this.notes.values()];
  }
}
