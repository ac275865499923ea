import { loadNamespaces, NAMESPACES, VISITOR_NAMESPACES } from '../../i18n/i18n';
import { allPlugins } from '../../plugins/registry';
import { FULL_ROUTE_TABLE } from '../routes/route-table';

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
 * The texts the logged-in shell itself draws: its header, menus (the staff's administration entry
 * included), notices, the feedback tab and the command palette, and the plugins' header items.
 */
export const SHELL_NAMESPACES: readonly string[] = [
  'admin',
  'components',
  'contacts',
  'web',
  'ws',
  ...allPlugins().map((plugin) => plugin.localeNamespace),
];

/**
 * The namespaces a start on `page` with the logged-in hint loads before its first paint: the
 * shell's and the screen's, or every one for a screen that does not list its own, and a visitor's
 * (the hint may be wrong: an expired session shows the login page). The rest follow after that
 * paint (loadRemainingTexts); every other screen waits for its texts before it is drawn.
 */
export function startNamespaces(page: string): readonly string[] {
  const screen = FULL_ROUTE_TABLE.screens.get(page);
  if (!screen?.namespaces) return NAMESPACES;
  return [...new Set([...VISITOR_NAMESPACES, ...SHELL_NAMESPACES, ...screen.namespaces])];
}

/**
 * The logged-in shell's code (its menus, dialogs, live connection), split from the login page's,
 * and its texts (a visitor's page loads only its own namespaces).
 */
export async function loadLoggedInShell() {
  const [shell] = await Promise.all([import('./logged-in-shell'), loadNamespaces(SHELL_NAMESPACES)]);
  return shell;
}
