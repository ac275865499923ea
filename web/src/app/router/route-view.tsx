import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { FlatPage } from '../../pages/flatpage/flatpage-page';
import { SignUpPage } from '../../pages/sign-up/sign-up-page';
import { LoadErrorBoundary } from '../error-pages/load-error-boundary';
import { NotFoundPage } from '../error-pages/not-found-page';
import type { Route } from './routes';

/** Spec 9: a script chunk that has not arrived after 120000 ms counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Chunk load timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

type LazyPage<P> = LazyExoticComponent<ComponentType<P>> & { preload(): Promise<unknown> };

/**
 * Screens of later issues load as their own chunks, so the editor's weight does not slow the
 * login page. `preload` fetches a chunk ahead (see preloadPage). React's lazy suspends on its
 * first render unless its thenable answers at once, and React then holds the loaded screen back
 * for up to 300 ms (its throttle on revealing suspended content); a preloaded screen answers at
 * once and is drawn in the same frame.
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS).then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const page = lazy(() => {
    if (loaded) {
      const module = { default: loaded };
      // A thenable that calls back synchronously: React takes the screen without suspending.
      // biome-ignore lint/suspicious/noThenProperty: React's lazy needs exactly such a thenable
      return { then: (resolve: (value: typeof module) => void) => resolve(module) } as Promise<typeof module>;
    }
    return preload().then((component) => ({ default: component }));
  });
  return Object.assign(page, { preload });
}

const DocumentsPage = lazyPage(() =>
  import('../../pages/documents/documents-page').then((m) => m.DocumentsPage),
);
const EditorPage = lazyPage(() => import('../../pages/editor/editor-page').then((m) => m.EditorPage));
const BibliographyPage = lazyPage(() =>
  import('../../pages/bibliography/bibliography-page').then((m) => m.BibliographyPage),
);
const UsermediaPage = lazyPage(() =>
  import('../../pages/usermedia/usermedia-page').then((m) => m.UsermediaPage),
);
const TemplatesPage = lazyPage(() =>
  import('../../pages/templates/templates-page').then((m) => m.TemplatesPage),
);
const TemplateEditorPage = lazyPage(() =>
  import('../../pages/templates/template-editor-page').then((m) => m.TemplateEditorPage),
);
const BooksPage = lazyPage(() => import('../../pages/books/books-page').then((m) => m.BooksPage));
const ProfilePage = lazyPage(() => import('../../pages/profile/profile-page').then((m) => m.ProfilePage));
const ContactsPage = lazyPage(() => import('../../pages/contacts/contacts-page').then((m) => m.ContactsPage));
const InvitePage = lazyPage(() => import('../../pages/invite/invite-page').then((m) => m.InvitePage));
const ConfirmEmailPage = lazyPage(() =>
  import('../../pages/confirm-email/confirm-email-page').then((m) => m.ConfirmEmailPage),
);
const PasswordResetPage = lazyPage(() =>
  import('../../pages/password-reset/password-reset-page').then((m) => m.PasswordResetPage),
);
const ChangePasswordPage = lazyPage(() =>
  import('../../pages/change-password/change-password-page').then((m) => m.ChangePasswordPage),
);

const PRELOAD: Partial<Record<Route['page'], () => Promise<unknown>>> = {
  documents: DocumentsPage.preload,
  editor: EditorPage.preload,
  bibliography: BibliographyPage.preload,
  usermedia: UsermediaPage.preload,
  templates: TemplatesPage.preload,
  'template-editor': TemplateEditorPage.preload,
  books: BooksPage.preload,
  profile: ProfilePage.preload,
  contacts: ContactsPage.preload,
  invite: InvitePage.preload,
  'confirm-email': ConfirmEmailPage.preload,
  'password-reset': PasswordResetPage.preload,
  'change-password': ChangePasswordPage.preload,
};

/**
 * Starts fetching a screen's chunk, e.g. the one of the address the app starts on, while the
 * configuration loads. A failure is left to the screen's own load, which reports it.
 */
export function preloadPage(page: Route['page']): void {
  PRELOAD[page]?.().catch(() => undefined);
}

function pageFor(route: Route) {
  switch (route.page) {
    case 'documents':
      return <DocumentsPage path={route.path} />;
    case 'editor':
      return <EditorPage id={route.id} path={route.path} />;
    case 'bibliography':
      return <BibliographyPage />;
    case 'usermedia':
      return <UsermediaPage />;
    case 'templates':
      return <TemplatesPage />;
    case 'template-editor':
      return <TemplateEditorPage id={route.id} />;
    case 'books':
      return <BooksPage path={route.path} />;
    case 'profile':
      return <ProfilePage />;
    case 'contacts':
      return <ContactsPage />;
    case 'invite':
      return <InvitePage inviteKey={route.key} />;
    case 'flatpage':
      return <FlatPage name={route.name} />;
    case 'confirm-email':
      return <ConfirmEmailPage confirmKey={route.key} />;
    case 'password-reset':
      return <PasswordResetPage />;
    case 'change-password':
      return <ChangePasswordPage resetKey={route.key} />;
    case 'sign-up':
      return <SignUpPage />;
    case 'not-found':
      return <NotFoundPage />;
  }
}

/**
 * While a screen's chunk loads. Deliberately not the wait overlay: that one blocks the keyboard,
 * and a user pressing Alt-b twice in a row should reach the second screen too.
 */
function PageLoading() {
  const { t } = useTranslation('web');
  return (
    <p className="page-loading" role="status">
      {t('app.loading')}
    </p>
  );
}

/** The screen for a route, with a load-error report when its chunk cannot be fetched. */
export function RouteView({ route }: { route: Route }) {
  return (
    <LoadErrorBoundary key={route.page}>
      <Suspense fallback={<PageLoading />}>{pageFor(route)}</Suspense>
    </LoadErrorBoundary>
  );
}
