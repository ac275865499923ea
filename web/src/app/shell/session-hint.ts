import { loadAllNamespaces } from '../../i18n/i18n';

/**
 * Whether this browser was logged in when the app last started: a hint, never a permission. At
 * start it decides what to fetch beside the configuration: the logged-in shell and a login-only
 * screen for someone who is probably logged in, nothing more for a visitor, whose login page then
 * needs only its own code. A wrong hint costs one wasted or one later download, nothing else.
 */
const KEY = 'scriptorium.logged-in';

export function probablyLoggedIn(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberLoggedIn(loggedIn: boolean): void {
  try {
    if (loggedIn) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // Storage disabled: every start is a visitor's.
  }
}

/**
 * The logged-in shell's code (its menus, dialogs, live connection), split from the login page's,
 * and the texts of every screen behind it (a visitor's page loads only its own namespaces).
 */
export async function loadLoggedInShell() {
  const [shell] = await Promise.all([import('./logged-in-shell'), loadAllNamespaces()]);
  return shell;
}
