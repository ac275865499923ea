/**
 * Whose local database the screens use: the logged-in user's username, or null. Apart from
 * local-db.ts (and its IndexedDB library) so that app start, which sets it on every page, does not
 * load that on a page that keeps no data (the login page).
 */
let username: string | null = null;
const listeners = new Set<() => void>();

export function localUser(): string | null {
  return username;
}

export function setLocalUser(name: string | null): void {
  if (name === username) return;
  username = name;
  for (const listener of listeners) listener();
}

/** Calls `listener` after every change of user (local-db.ts closes the previous user's database). */
export function onLocalUserChange(listener: () => void): void {
  listeners.add(listener);
}
