/**
 * A screen chosen from the address (spec 2.1). `loginRequired` screens show the login page to
 * anonymous users; `params` is what the address carries for the screen (a folder path, an id, a
 * key); `rewrite` is set when the address must be replaced (the change-password key leaves the
 * visible URL).
 */
export interface Route {
  page: string;
  loginRequired: boolean;
  params: Readonly<Record<string, string | null>>;
  rewrite?: { path: string; state: Readonly<Record<string, string>> };
}

export type RoutePage = Route['page'];

/**
 * One row of the route table: the first path segment it answers ('' for the root) and how the
 * rest of the address maps to a screen. Core screens and plugins declare their rows alike.
 */
export interface RouteDefinition {
  segment: string;
  /** `parts` is the address split on '/' (so '/templates/7/' gives '', 'templates', '7', ''); null: not found. */
  resolve(parts: readonly string[], state: unknown): Route | null;
}

export const NOT_FOUND: Route = { page: 'not-found', loginRequired: false, params: {} };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape is kept as typed rather than breaking the whole page.
    return segment;
  }
}

/** Non-empty, decoded segments after the first `skip` ones. */
export function tail(parts: readonly string[], skip: number): string[] {
  return parts
    .slice(skip)
    .filter((part) => part !== '')
    .map(decode);
}

export { decode as decodeSegment };

export function folderPath(segments: readonly string[]): string {
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

/** A login-only screen. */
export function privateRoute(page: string, params: Route['params'] = {}): Route {
  return { page, loginRequired: true, params };
}

/** A screen for everybody. */
export function publicRoute(page: string, params: Route['params'] = {}): Route {
  return { page, loginRequired: false, params };
}

/**
 * Picks the screen for an address by its first path segment (spec 2.1). `state` is the history
 * state, which carries what a rewritten address no longer shows (the change-password key).
 */
export function resolveRoute(pathname: string, state: unknown, routes: readonly RouteDefinition[]): Route {
  const parts = pathname.split('/');
  const segment = parts[1] ?? '';
  const definition = routes.find((candidate) => candidate.segment === segment);
  return definition?.resolve(parts, state) ?? NOT_FOUND;
}
