import type { BibEntry, EntryData } from '@scriptorium/common/bibliography/types';
import { useEffect, useState } from 'react';
import { useCurrentUser } from '../../../../app/configuration/app-context';
import { loadLibrary } from '../../../bibliography/bibliography-api';

/** The library side of the citation dialog: the user's entries, and how one is summed up and found. */

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.text === 'string') return record.text;
    return Object.values(record).map(textOf).join(' ');
  }
  return value === undefined || value === null ? '' : String(value);
}

/** Author, title and year of an entry as plain text, for the picker's list and its search. */
export function entrySummary(entry: EntryData): { authors: string; title: string; year: string } {
  const fields = entry.fields as Record<string, unknown>;
  const names = Array.isArray(fields.author)
    ? fields.author
    : Array.isArray(fields.editor)
      ? fields.editor
      : [];
  const authors = names
    .map((name) => {
      const record = name as Record<string, unknown>;
      return textOf(record.family ?? record.literal ?? record);
    })
    .join(', ');
  const year = /\d{4}/.exec(String(fields.date ?? ''))?.[0] ?? '';
  return { authors, title: textOf(fields.title), year };
}

export function matches(entry: BibEntry, words: string[]): boolean {
  if (!words.length) return true;
  const { authors, title, year } = entrySummary(entry);
  const haystack = `${entry.entry_key} ${authors} ${title} ${year}`.toLocaleLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** The current user's library (the cached copy first, then the server's), or failed. */
export function useLibrary(): {
  userId: number;
  library: BibEntry[] | null;
  failed: boolean;
  add(entries: BibEntry[]): void;
} {
  const user = useCurrentUser();
  const userId = user?.id ?? 0;
  const [library, setLibrary] = useState<BibEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadLibrary(userId, (cached) => live && setLibrary(cached.entries)).then(
      (loaded) => live && setLibrary(loaded.entries),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [userId]);
  const add = (entries: BibEntry[]) => setLibrary((list) => [...(list ?? []), ...entries]);
  return { userId, library, failed, add };
}
