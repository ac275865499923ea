/**
 * How the build groups modules into chunks (rolldown's codeSplitting groups), so that a returning
 * user's overview loads a few files instead of about eighty (issue 23). On a phone each request
 * costs a round trip, and Chromium opens at most six connections to a host over HTTP/1.1: the
 * overview's 77 requests queued behind each other before its heading could paint.
 *
 * - Each language's texts: one chunk of the namespaces a visitor needs, one of those the logged-in
 *   overview adds and one of the rest, not a chunk per namespace file (sixteen requests for a
 *   logged-in start in English).
 * - The logged-in first screen: the code only the logged-in shell and the overview reach, one chunk.
 *   What the login page (the main entry) reaches stays out, so that a visitor
 *   never downloads it.
 */

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** Every module that `roots` import statically, the roots included. */
function staticallyReached(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const reached = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (reached.has(id)) continue;
    reached.add(id);
    pending.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return reached;
}

/**
 * The namespaces of a visitor's screens: src/i18n/i18n.ts's VISITOR_NAMESPACES (its test keeps the
 * two equal). Not imported from there: that module is the app's, with i18next and Vite's globs.
 */
export const VISITOR_TEXTS: readonly string[] = ['accounts', 'components', 'contacts', 'web'];

/**
 * The other namespaces a logged-in start on the overview loads before its first paint: the
 * shell's and the overview's (src/root/shell/session-hint.ts's startNamespaces('documents'), its
 * test keeps the two equal).
 */
export const OVERVIEW_TEXTS: readonly string[] = ['admin', 'books', 'documents', 'import', 'templates', 'ws'];

/** The texts' chunks a logged-in start on the overview loads; the first group names them. */
export const FIRST_SCREEN_TEXTS = /^texts-(.+)-(visitor|overview)$/;

const LOCALE_FILE = /[\\/]locales[\\/]([^\\/]+)[\\/]([^\\/]+)\.json$/;

/** The chunk groups for modules of the app whose entries and first screen are these files. */
export function chunkGroups(files: { entries: readonly string[]; firstScreen: readonly string[] }) {
  let entries: Set<string> | undefined;
  let firstScreen: Set<string> | undefined;
  return [
    {
      name: (id: string) => {
        const file = LOCALE_FILE.exec(id);
        if (!file) return null;
        const [, language, namespace] = file;
        if (VISITOR_TEXTS.includes(namespace)) return `texts-${language}-visitor`;
        return OVERVIEW_TEXTS.includes(namespace) ? `texts-${language}-overview` : `texts-${language}`;
      },
    },
    {
      name: (id: string, graph: ModuleGraph) => {
        entries ??= staticallyReached(graph, files.entries);
        firstScreen ??= staticallyReached(graph, files.firstScreen);
        return firstScreen.has(id) && !entries.has(id) ? 'logged-in' : null;
      },
    },
  ];
}
