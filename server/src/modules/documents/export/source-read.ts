import { createHash } from 'node:crypto';
import { type ImportReport, importBibliography } from '@scriptorium/common/bibliography/import-entries';
import type { EntryData } from '@scriptorium/common/bibliography/types';

/**
 * A bibliography source's answer read into entries (issue 57), in an export worker: the readers
 * are the interactive import's (biblatex-csl-converter); this adds only what a sync compares.
 */

export interface SourceEntry {
  /** The source's own id of the entry: its BibTeX key or CSL id as read. */
  remote_id: string;
  /** SHA-256 of the entry's type and fields: the same digest means unchanged. */
  digest: string;
  entry: EntryData;
}

export interface SourceRead {
  format: ImportReport['format'];
  entries: SourceEntry[];
  messages: ImportReport['messages'];
}

/** Object keys sorted at every level, so that the digest does not depend on key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export function entryDigest(entry: Pick<EntryData, 'bib_type' | 'fields'>): string {
  return createHash('sha256')
    .update(canonical([entry.bib_type, entry.fields]))
    .digest('hex');
}

/**
 * Reads a file (`text`) or the pages of a Zotero library (`cslPages`: its `format=csljson`
 * answers, each `{"items": [...]}`) into entries. An id that comes twice is reported and only
 * its first entry kept.
 */
export function readSource(input: { text?: string; cslPages?: string[] }): SourceRead {
  let text = input.text ?? '';
  if (input.cslPages) {
    const items: unknown[] = [];
    for (const page of input.cslPages) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(page);
      } catch {
        return {
          format: 'csl_json',
          entries: [],
          messages: [{ level: 'error', code: 'invalid_json', entry: null }],
        };
      }
      const list = Array.isArray(parsed) ? parsed : (parsed as { items?: unknown })?.items;
      if (!Array.isArray(list))
        return {
          format: 'csl_json',
          entries: [],
          messages: [{ level: 'error', code: 'invalid_json', entry: null }],
        };
      items.push(...list);
    }
    // An empty library is a library, not a broken file.
    if (items.length === 0) return { format: 'csl_json', entries: [], messages: [] };
    text = JSON.stringify(items);
  }
  const report = importBibliography(text);
  const messages = [...report.messages];
  const seen = new Set<string>();
  const entries: SourceEntry[] = [];
  for (const entry of report.entries) {
    const remote = entry.entry_key.slice(0, 255);
    if (seen.has(remote.toLowerCase())) {
      messages.push({ level: 'warning', code: 'duplicate_key', entry: remote });
      continue;
    }
    seen.add(remote.toLowerCase());
    entries.push({ remote_id: remote, digest: entryDigest(entry), entry });
  }
  return { format: report.format, entries, messages };
}
