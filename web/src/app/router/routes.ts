/** A screen chosen from the address (spec 2.1). `loginRequired` screens show the login page to anonymous users. */
export type Route =
  | { page: 'documents'; path: string; loginRequired: true }
  | { page: 'editor'; id: string; path: string; loginRequired: true }
  | { page: 'bibliography'; loginRequired: true }
  | { page: 'usermedia'; loginRequired: true }
  | { page: 'templates'; loginRequired: true }
  | { page: 'template-editor'; id: string; loginRequired: true }
  | { page: 'books'; path: string; loginRequired: true }
  | { page: 'profile'; loginRequired: true }
  | { page: 'contacts'; loginRequired: true }
  | { page: 'invite'; key: string; loginRequired: false }
  | { page: 'flatpage'; name: string; loginRequired: false }
  | { page: 'confirm-email'; key: string; loginRequired: false }
  | { page: 'password-reset'; loginRequired: false }
  | {
      page: 'change-password';
      key: string | null;
      loginRequired: false;
      /** Set when the address must be replaced (the key leaves the visible URL, spec 2.1). */
      rewrite?: { path: string; state: ChangePasswordState };
    }
  | { page: 'sign-up'; loginRequired: false }
  | { page: 'not-found'; loginRequired: false };

export type RoutePage = Route['page'];

interface ChangePasswordState {
  changePasswordKey: string;
}

export const CHANGE_PASSWORD_PATH = '/account/change-password/';

const NOT_FOUND: Route = { page: 'not-found', loginRequired: false };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape is kept as typed rather than breaking the whole page.
    return segment;
  }
}

/** Non-empty, decoded segments after the first `skip` ones. */
function tail(parts: string[], skip: number): string[] {
  return parts
    .slice(skip)
    .filter((part) => part !== '')
    .map(decode);
}

function folderPath(segments: string[]): string {
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

function changePasswordKeyFrom(state: unknown): string | null {
  if (typeof state === 'object' && state !== null && 'changePasswordKey' in state) {
    const key = (state as { changePasswordKey: unknown }).changePasswordKey;
    if (typeof key === 'string' && key !== '') return key;
  }
  return null;
}

function accountRoute(parts: string[], state: unknown): Route {
  const [section, key] = tail(parts, 2);
  switch (section) {
    case 'confirm-email':
      return key ? { page: 'confirm-email', key, loginRequired: false } : NOT_FOUND;
    case 'password-reset':
      return { page: 'password-reset', loginRequired: false };
    case 'change-password':
      if (key) {
        return {
          page: 'change-password',
          key,
          loginRequired: false,
          rewrite: { path: CHANGE_PASSWORD_PATH, state: { changePasswordKey: key } },
        };
      }
      return { page: 'change-password', key: changePasswordKeyFrom(state), loginRequired: false };
    case 'sign-up':
      return { page: 'sign-up', loginRequired: false };
    default:
      return NOT_FOUND;
  }
}

/**
 * Picks the screen for an address by its first path segment (spec 2.1). `state` is the history
 * state, which carries what a rewritten address no longer shows (the change-password key).
 */
export function resolveRoute(pathname: string, state: unknown = null): Route {
  // Segment counts follow a plain split on '/', so '/templates/7/' has four: '', 'templates', '7', ''.
  const parts = pathname.split('/');
  switch (parts[1] ?? '') {
    case '':
      return parts.length <= 2 ? { page: 'documents', path: '/', loginRequired: true } : NOT_FOUND;
    case 'documents':
      return { page: 'documents', path: folderPath(tail(parts, 2)), loginRequired: true };
    case 'document': {
      const segments = tail(parts, 2);
      const id = segments.pop();
      return id ? { page: 'editor', id, path: folderPath(segments), loginRequired: true } : NOT_FOUND;
    }
    case 'bibliography':
      return { page: 'bibliography', loginRequired: true };
    case 'usermedia':
      return { page: 'usermedia', loginRequired: true };
    case 'templates':
      if (parts.length < 4 || parts[2] === '') return { page: 'templates', loginRequired: true };
      return { page: 'template-editor', id: decode(parts[2]), loginRequired: true };
    case 'books':
      return { page: 'books', path: parts.slice(2).join('/'), loginRequired: true };
    case 'user': {
      const [section] = tail(parts, 2);
      if (section === 'profile') return { page: 'profile', loginRequired: true };
      if (section === 'contacts') return { page: 'contacts', loginRequired: true };
      return NOT_FOUND;
    }
    case 'invite': {
      const [key] = tail(parts, 2);
      return key ? { page: 'invite', key, loginRequired: false } : NOT_FOUND;
    }
    case 'pages': {
      const [name] = tail(parts, 2);
      return name ? { page: 'flatpage', name, loginRequired: false } : NOT_FOUND;
    }
    case 'account':
      return accountRoute(parts, state);
    default:
      return NOT_FOUND;
  }
}
