import { NotFoundPage } from '../../app/error-pages/not-found-page';
import {
  folderPath,
  privateRoute,
  publicRoute,
  type Route,
  type RouteDefinition,
  tail,
} from '../../app/router/routes';
import { eagerScreen, lazyScreen, noProps, type Screen } from '../../app/router/screen';
import { adminSectionOf, isAdminSection } from '../../pages/admin/admin-sections';
import type { HeaderItem } from '../../plugins/plugin';

export const CHANGE_PASSWORD_PATH = '/account/change-password/';

function changePasswordKeyFrom(state: unknown): string | null {
  if (typeof state === 'object' && state !== null && 'changePasswordKey' in state) {
    const key = (state as { changePasswordKey: unknown }).changePasswordKey;
    if (typeof key === 'string' && key !== '') return key;
  }
  return null;
}

function accountRoute(parts: readonly string[], state: unknown): Route | null {
  const [section, key] = tail(parts, 2);
  switch (section) {
    case 'confirm-email':
      return key ? publicRoute('confirm-email', { key }) : null;
    case 'password-reset':
      return publicRoute('password-reset');
    case 'change-password':
      if (key) {
        return {
          ...publicRoute('change-password', { key }),
          rewrite: { path: CHANGE_PASSWORD_PATH, state: { changePasswordKey: key } },
        };
      }
      return publicRoute('change-password', { key: changePasswordKeyFrom(state) });
    case 'sign-up':
      return publicRoute('sign-up');
    default:
      return null;
  }
}

/** Spec 2.1 without the plugins' rows (web/src/plugins adds those). */
export const CORE_ROUTES: readonly RouteDefinition[] = [
  { segment: '', resolve: (parts) => (parts.length <= 2 ? privateRoute('documents', { path: '/' }) : null) },
  {
    segment: 'documents',
    resolve: (parts) => privateRoute('documents', { path: folderPath(tail(parts, 2)) }),
  },
  {
    segment: 'document',
    resolve: (parts) => {
      const segments = tail(parts, 2);
      const id = segments.pop();
      return id ? privateRoute('editor', { id, path: folderPath(segments) }) : null;
    },
  },
  { segment: 'bibliography', resolve: () => privateRoute('bibliography') },
  { segment: 'usermedia', resolve: () => privateRoute('usermedia') },
  {
    segment: 'user',
    resolve: (parts) => {
      const [section] = tail(parts, 2);
      return section === 'profile' || section === 'contacts' ? privateRoute(section) : null;
    },
  },
  {
    segment: 'invite',
    resolve: (parts) => {
      const [key] = tail(parts, 2);
      return key ? publicRoute('invite', { key }) : null;
    },
  },
  {
    segment: 'pages',
    resolve: (parts) => {
      const [name] = tail(parts, 2);
      return name ? publicRoute('flatpage', { name }) : null;
    },
  },
  { segment: 'account', resolve: accountRoute },
  {
    // The API reference (issue 57): /help/api/.
    segment: 'help',
    resolve: (parts) => {
      const [section, ...rest] = tail(parts, 2);
      return section === 'api' && rest.length === 0 ? privateRoute('api-reference') : null;
    },
  },
  {
    // Staff only: the screen itself shows the 404 page to everybody else, visitors included.
    segment: 'admin',
    resolve: (parts) => {
      const [section, ...rest] = tail(parts, 2);
      if (rest.length > 0) return null;
      if (section === undefined) return publicRoute('admin', { section: 'users' });
      return isAdminSection(section) ? publicRoute('admin', { section }) : null;
    },
  },
];

/** Spec 2.2: the header items every installation has. */
export const CORE_HEADER_ITEMS: readonly HeaderItem[] = [
  {
    id: 'documents',
    title: 'header.documents',
    ns: 'web',
    path: '/',
    keys: 'Alt+D',
    order: 1,
    pages: ['documents', 'editor'],
  },
  {
    id: 'bibliography',
    title: 'header.bibliography',
    ns: 'web',
    path: '/bibliography/',
    keys: 'Alt+B',
    order: 2,
    pages: ['bibliography'],
  },
  {
    id: 'usermedia',
    title: 'header.images',
    ns: 'web',
    path: '/usermedia/',
    keys: 'Alt+M',
    order: 3,
    pages: ['usermedia'],
  },
];

const text = (value: string | null | undefined) => value ?? '';

export const CORE_SCREENS: readonly Screen[] = [
  lazyScreen(
    'documents',
    () => import('../../pages/documents/documents-page').then((m) => m.DocumentsPage),
    (params) => ({ path: text(params.path) }),
    // The overview and its dialogs; with the Templates plugin its New document menu (the shell
    // loads the plugins' namespaces).
    ['documents', 'import'],
  ),
  lazyScreen(
    'editor',
    () => import('../../pages/editor/editor-page').then((m) => m.EditorPage),
    (params) => ({ id: text(params.id), path: text(params.path) }),
  ),
  lazyScreen(
    'bibliography',
    () => import('../../pages/bibliography/bibliography-page').then((m) => m.BibliographyPage),
    noProps,
  ),
  lazyScreen(
    'usermedia',
    () => import('../../pages/usermedia/usermedia-page').then((m) => m.UsermediaPage),
    noProps,
  ),
  lazyScreen('profile', () => import('../../pages/profile/profile-page').then((m) => m.ProfilePage), noProps),
  lazyScreen(
    'contacts',
    () => import('../../pages/contacts/contacts-page').then((m) => m.ContactsPage),
    noProps,
  ),
  lazyScreen(
    'invite',
    () => import('../../pages/invite/invite-page').then((m) => m.InvitePage),
    (params) => ({ inviteKey: text(params.key) }),
  ),
  lazyScreen(
    'confirm-email',
    () => import('../../pages/confirm-email/confirm-email-page').then((m) => m.ConfirmEmailPage),
    (params) => ({ confirmKey: text(params.key) }),
  ),
  lazyScreen(
    'password-reset',
    () => import('../../pages/password-reset/password-reset-page').then((m) => m.PasswordResetPage),
    noProps,
  ),
  lazyScreen(
    'change-password',
    () => import('../../pages/change-password/change-password-page').then((m) => m.ChangePasswordPage),
    (params) => ({ resetKey: params.key ?? null }),
  ),
  lazyScreen(
    'flatpage',
    () => import('../../pages/flatpage/flatpage-page').then((m) => m.FlatPage),
    (params) => ({ name: text(params.name) }),
  ),
  lazyScreen(
    'admin',
    () => import('../../pages/admin/admin-gate').then((m) => m.AdminGate),
    (params) => ({ section: adminSectionOf(params.section) }),
  ),
  lazyScreen(
    'api-reference',
    () => import('../../pages/api-reference/api-reference-page').then((m) => m.ApiReferencePage),
    noProps,
    ['apiref'],
  ),
  lazyScreen('sign-up', () => import('../../pages/sign-up/sign-up-page').then((m) => m.SignUpPage), noProps),
  eagerScreen('not-found', NotFoundPage, noProps),
];
