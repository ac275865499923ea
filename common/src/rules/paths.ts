/**
 * Document paths (spec section 3 "File or document entry for moving", section 5 "New folder" and
 * "Move"). A path is where a document sits for one user: folders are path prefixes, a path that
 * ends in a slash names a folder only (the document shows under its title), otherwise the last
 * segment is the file's own name in that folder. '' and '/' both mean the top folder.
 */

/** The English name of a document without a title; the web passes its translation instead. */
export const UNTITLED = 'Untitled';

/** The name a document shows under: its title, or 'Untitled' when the title is empty. */
export function displayTitle(title: string, untitled: string = UNTITLED): string {
  const trimmed = title.trim();
  return trimmed === '' ? untitled : trimmed;
}

/**
 * Normalises a typed path (spec 5, Move): a blank path becomes empty, otherwise it gets a leading
 * slash, repeated slashes collapse, and a file-name tail equal to the (display) title is removed
 * because the document shows under its title anyway. `several` (moving several files at once)
 * makes the path a folder by giving it a trailing slash.
 */
export function cleanPath(
  path: string,
  title: string,
  options: { several?: boolean; untitled?: string } = {},
): string {
  if (path.trim() === '') return '';
  let cleaned = `/${path}`.replace(/\/{2,}/g, '/');
  if (options.several) {
    if (!cleaned.endsWith('/')) cleaned = `${cleaned}/`;
    return cleaned;
  }
  const name = displayTitle(title, options.untitled);
  if (cleaned.endsWith(`/${name}`)) cleaned = cleaned.slice(0, cleaned.length - name.length);
  return cleaned;
}

/**
 * The path to save for one file when the user typed `typed` in the Move dialog, or null when
 * nothing is to happen because it equals the file's current path (spec 5: nothing happens then).
 */
export function movedPath(
  file: { title: string; path: string; keep?: string },
  typed: string,
  options: { several?: boolean; untitled?: string } = {},
): string | null {
  let target = cleanPath(typed, file.title, options);
  // With several files each keeps its own file-name tail inside the target folder; a document
  // inside a moved folder keeps `keep`, its path below the folder's parent ('b/c/name').
  if (options.several) target = `${target || '/'}${file.keep ?? fileNameTail(file.path)}`;
  return target === file.path ? null : target;
}

/** The folder a path puts its document in: '/a/b/' for '/a/b/' and '/a/b/name'; '/' for ''. */
export function folderOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '/' : path.slice(0, cut + 1) || '/';
}

/** The file-name tail of a path ('' when the path names a folder only). */
export function fileNameTail(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The name a document shows under in its folder: its file-name tail, else its display title. */
export function fileName(doc: { title: string; path: string }, untitled: string = UNTITLED): string {
  return fileNameTail(doc.path) || displayTitle(doc.title, untitled);
}

/**
 * A folder name typed in the New folder dialog (spec 5): slashes are stripped, and an empty name
 * is ignored (null). Surrounding blanks are dropped too: a name of only spaces is empty.
 */
export function newFolderName(typed: string): string | null {
  const name = typed.replace(/\//g, '').trim();
  return name === '' ? null : name;
}

/** The path of folder `name` inside folder `parent` ('/' + 'b' gives '/b/'). */
export function childFolder(parent: string, name: string): string {
  const base = parent.endsWith('/') ? parent : `${parent}/`;
  return `${base.startsWith('/') ? base : `/${base}`}${name}/`;
}

/**
 * Adds folder `typed` under `parent` to a list of known folder paths (spec 5, New folder): an
 * empty name is ignored and a same-named folder under `parent` is not added twice. Answers the
 * new list (unchanged when nothing was added) and the folder's path (null for an empty name).
 */
export function addFolder(
  folders: readonly string[],
  parent: string,
  typed: string,
): { folders: string[]; path: string | null } {
  const name = newFolderName(typed);
  if (name === null) return { folders: [...folders], path: null };
  const path = childFolder(parent, name);
  if (folders.includes(path)) return { folders: [...folders], path };
  return { folders: [...folders, path], path };
}

/** Every folder a set of paths implies, including all their ancestors, sorted, without '/'. */
export function foldersOf(paths: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    let folder = folderOf(path);
    while (folder !== '/' && !found.has(folder)) {
      found.add(folder);
      folder = folderOf(folder.slice(0, -1));
    }
  }
  return [...found].sort((a, b) => a.localeCompare(b));
}

/** The folders directly inside `parent` among `folders` (full paths, e.g. '/a/b/'). */
export function subfolders(folders: Iterable<string>, parent: string): string[] {
  const result: string[] = [];
  for (const folder of folders) {
    if (folder !== parent && folder.startsWith(parent) && folderOf(folder.slice(0, -1)) === parent) {
      result.push(folder);
    }
  }
  return result;
}

/** The last segment of a folder path: 'b' for '/a/b/'. */
export function folderName(folder: string): string {
  const trimmed = folder.endsWith('/') ? folder.slice(0, -1) : folder;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** The folders from the top down to `folder`, for breadcrumbs: '/a/b/' gives '/', '/a/', '/a/b/'. */
export function folderTrail(folder: string): string[] {
  const trail = ['/'];
  let current = '/';
  for (const segment of folder.split('/').filter(Boolean)) {
    current = `${current}${segment}/`;
    trail.push(current);
  }
  return trail;
}

/** Moves a path from folder `from` into folder `to` (both ending in '/'), keeping what follows. */
export function rebasePath(path: string, from: string, to: string): string {
  const normalised = path === '' ? '/' : path;
  if (!normalised.startsWith(from)) return path;
  const rebased = `${to}${normalised.slice(from.length)}`;
  return rebased === '/' ? '' : rebased;
}

function encodeSegments(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** The overview address of a folder: /documents/a/b/ (the top folder is /). */
export function folderUrl(folder: string): string {
  const encoded = encodeSegments(folder);
  return encoded === '' ? '/' : `/documents/${encoded}/`;
}

/** The editor address of a document (spec 2.1): /document/{folder...}/{id}. */
export function documentUrl(path: string, id: number | string): string {
  const encoded = encodeSegments(folderOf(path));
  return encoded === '' ? `/document/${id}` : `/document/${encoded}/${id}`;
}
