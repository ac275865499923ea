import i18next from 'i18next';

/** What the router reads from the address bar. `state` is history.state. */
export interface LocationSnapshot {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
}

type Listener = () => void;

const listeners = new Set<Listener>();
let snapshot: LocationSnapshot | null = null;
/** The address the app last showed, to return to when a back/forward step is refused. */
let shownHref = '';

function readLocation(): LocationSnapshot {
  return {
    pathname: window.location.pathname,
    search: window.location.search,
    hash: window.location.hash,
    state: window.history.state as unknown,
  };
}

function notify(): void {
  snapshot = readLocation();
  shownHref = window.location.href;
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: the same object until the address changes. */
export function getLocationSnapshot(): LocationSnapshot {
  if (
    snapshot === null ||
    snapshot.pathname !== window.location.pathname ||
    snapshot.search !== window.location.search
  ) {
    snapshot = readLocation();
    shownHref = window.location.href;
  }
  return snapshot;
}

function onPopState(): void {
  if (!confirmLeaving()) {
    // The browser has already moved; put the page the user stays on back into the address bar.
    window.history.pushState(snapshot?.state ?? null, '', shownHref);
    return;
  }
  notify();
}

export function subscribeLocation(listener: Listener): () => void {
  if (listeners.size === 0) window.addEventListener('popstate', onPopState);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('popstate', onPopState);
  };
}

// --- Unsaved changes ----------------------------------------------------------------------------

const unsavedGuards = new Set<symbol>();

export function hasUnsavedChanges(): boolean {
  return unsavedGuards.size > 0;
}

/** Registers a screen's unsaved state; returns the function that removes it again. */
export function addUnsavedGuard(): () => void {
  const guard = Symbol('unsaved');
  unsavedGuards.add(guard);
  return () => {
    unsavedGuards.delete(guard);
  };
}

/** Asks before in-app navigation away from unsaved work; true when leaving is fine. */
export function confirmLeaving(): boolean {
  if (!hasUnsavedChanges()) return true;
  return window.confirm(i18next.t('web:unsaved.confirm'));
}

// --- Navigation ---------------------------------------------------------------------------------

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  state?: unknown;
  /** Skip the unsaved-changes question (e.g. after the screen saved its work). */
  force?: boolean;
}

/** Shows another address of the app without reloading; false when the user chose to stay. */
export function navigate(to: string, options: NavigateOptions = {}): boolean {
  if (!options.force && !confirmLeaving()) return false;
  if (options.replace) window.history.replaceState(options.state ?? null, '', to);
  else window.history.pushState(options.state ?? null, '', to);
  notify();
  return true;
}

/** Rewrites the address in place (no history entry, no question): e.g. hiding a key from the URL. */
export function replaceAddress(to: string, state: unknown = null): void {
  window.history.replaceState(state, '', to);
  notify();
}

// --- Link interception --------------------------------------------------------------------------

/** Paths served by the server itself, never by the client router (spec 2.1). */
const SERVER_PREFIXES = ['/media/', '/api/'];

interface ClickLike {
  button: number;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
}

/**
 * The in-app address a click on `anchor` should open without reload, or null when the browser
 * should handle it (spec 2.1: links starting with '/' on the same host, except /media/ and /api/).
 */
export function internalLinkTarget(
  event: ClickLike,
  anchor: HTMLAnchorElement,
  origin: string,
): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  // Modifier keys ask the browser for a new tab, window or download.
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const target = anchor.getAttribute('target');
  if (target && target !== '_self') return null;
  if (anchor.hasAttribute('download')) return null;
  const href = anchor.getAttribute('href');
  if (!href?.startsWith('/') || href.startsWith('//')) return null;
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  if (SERVER_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

function onDocumentClick(event: MouseEvent): void {
  const element = event.target instanceof Element ? event.target : null;
  const anchor = element?.closest('a');
  if (!anchor) return;
  const to = internalLinkTarget(event, anchor, window.location.origin);
  if (to === null) return;
  event.preventDefault();
  navigate(to);
}

/** Installs the document-level click handler for internal links; returns its remover. */
export function interceptLinks(root: Document = document): () => void {
  root.addEventListener('click', onDocumentClick);
  return () => root.removeEventListener('click', onDocumentClick);
}
