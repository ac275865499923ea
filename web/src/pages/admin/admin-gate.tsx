import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../app/configuration/app-context';
import { NotFoundPage } from '../../app/error-pages/not-found-page';
import type { AdminSection } from './admin-sections';

const AdminPage = lazy(() => import('./admin-page').then((m) => ({ default: m.AdminPage })));

/**
 * /admin/ exists for staff only: everybody else (visitors included) sees the 404 page, and the
 * admin screens' code is never even fetched for them. The server answers 404 to its API alike.
 */
export function AdminGate({ section }: { section: AdminSection }) {
  const { t } = useTranslation('web');
  const user = useCurrentUser();
  if (!user?.is_staff) return <NotFoundPage />;
  return (
    <Suspense
      fallback={
        <p className="page-loading" role="status">
          {t('app.loading')}
        </p>
      }
    >
      <AdminPage section={section} />
    </Suspense>
  );
}
