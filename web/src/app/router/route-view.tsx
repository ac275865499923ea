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

/** Screens of later issues load as their own chunks, so the editor's weight does not slow the login page. */
function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: await withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS) }));
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
