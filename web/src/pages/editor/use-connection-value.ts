import { type ReactNode, useRef, useSyncExternalStore } from 'react';
import type { DocumentConnection } from './document-connection';

/**
 * What a part of the editor page shows of the connection, read once per painted frame that
 * changed anything (the connection's version) and handed on only when it differs (`same`): the
 * component that shows it renders again then, and nothing else of the page does. The page itself
 * (DocumentEditor) renders only when what it shows changes (rights, load, the title), never on a
 * keystroke: the toolbar, status, footer and margin subscribe here each for their own part.
 *
 * `read` is called after the frame (never inside a transaction); it may close over props, and is
 * read again when `deps` change.
 */
export function useConnectionValue<T>(
  connection: DocumentConnection,
  read: () => T,
  same: (a: T, b: T) => boolean = Object.is,
  deps: readonly unknown[] = [],
): T {
  const cache = useRef<{ version: number; deps: readonly unknown[]; value: T } | null>(null);
  const latest = useRef(read);
  latest.current = read;
  const getSnapshot = (): T => {
    const known = cache.current;
    const version = connection.getVersion();
    if (known && known.version === version && sameDeps(known.deps, deps)) return known.value;
    const value = latest.current();
    const kept = known && same(known.value, value) ? known.value : value;
    cache.current = { version, deps, value: kept };
    return kept;
  };
  return useSyncExternalStore(connection.subscribe, getSnapshot);
}

function sameDeps(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}

/** Two arrays (or records) of the same items, compared one by one. */
export function shallowEqual<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}

/**
 * Renders `children(revision)` again on every painted frame that changed anything: for what
 * follows the document itself (the toolbar's pressed buttons, the review margin, an open side
 * panel), without rendering the page around it.
 */
export function FollowConnection({
  connection,
  children,
}: {
  connection: DocumentConnection;
  children: (revision: number) => ReactNode;
}) {
  const revision = useSyncExternalStore(connection.subscribe, connection.getVersion);
  return children(revision);
}
