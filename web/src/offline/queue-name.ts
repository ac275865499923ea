/**
 * The offline queue's IndexedDB database (document-queue.ts). Its own module so that clearing the
 * caches, which must spare it, does not load the queue's code.
 */
export const QUEUE_DB = 'scriptorium-offline';
