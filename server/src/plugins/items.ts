import type { Generated } from 'kysely';

/**
 * What the plugins' items (books, templates) have in common: the columns their tables start with
 * (ownedItemsMigration and addItemDetails in db/migrations/tables.ts) and how those are answered.
 */
export interface PluginItemColumns {
  id: Generated<number>;
  owner_id: number;
  title: string;
  updated: number;
  added: Generated<number>;
}

/** An item's id, title and times as the list entries answer them. */
export function presentItem(row: { id: number; title: string; added: number; updated: number }) {
  // PostgreSQL returns bigint columns as strings.
  return { id: row.id, title: row.title, added: Number(row.added), updated: Number(row.updated) };
}
