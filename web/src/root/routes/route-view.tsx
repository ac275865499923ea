import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadErrorBoundary } from '../../app/error-pages/load-error-boundary';
import { NotFoundPage } from '../../app/error-pages/not-found-page';
import type { Route } from '../../app/router/routes';
import { FULL_ROUTE_TABLE, type RouteTable } from './route-table';

/**
 * Starts fetching a screen's chunk, e.g. the one of the address the app starts on, while the
 * configuration loads. A failure is left to the screen's own load, which reports it.
 */
export function preloadPage(page: Route['page']): void {
  FULL_ROUTE_TABLE.screens
    .get(page)
    ?.preload?.()
    .catch(() => undefined);
}

/**
 * While a screen's chunk loads. Deliberately not the wait overlay: that one blocks the keyboard,
 * and a user pressing Alt-b twice in a row should reach the second screen too.
 */
function PageLoading({ page }: { page: string }) {
  const { t } = useTranslation('web');
  return (
    // The editor fills the window: its footer stays below the first screen from the start, or
    // the editor pushed it down as it came (Lighthouse: layout shift on opening a document).
    <p className="page-loading" role="status" style={page === 'editor' ? { minHeight: '100dvh' } : undefined}>
      {t('app.loading')}
    </p>
  );
}

/** The screen for a route, with a load-error report when its chunk cannot be fetched. */
export function RouteView({ route, table }: { route: Route; table: RouteTable }) {
  const screen = table.screens.get(route.page);
  return (
    <LoadErrorBoundary key={route.page}>
      <Suspense fallback={<PageLoading page={route.page} />}>
        {screen ? screen.render(route) : <NotFoundPage />}
      </Suspense>
    </LoadErrorBoundary>
  );
}
