import type { StepJson } from '@scriptorium/common/ws/document-messages';

/**
 * A document's content as the main thread read it for an export: the stored snapshot and the
 * steps committed after it (the export worker applies them, as currentContent in store.ts does),
 * or the content as text (currentContent's answer, for a snapshot the worker cannot read).
 */
export type ContentSource = { snapshot: string; steps: StepJson[] } | { text: string };

/** The worker's error for a snapshot that is no document of our schema. */
export const UNREADABLE_SNAPSHOT = 'unreadable snapshot';
