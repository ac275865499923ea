import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../page-title';

/** The 404 text without the page title, also shown by a flat page that cannot be loaded. */
export function NotFoundContent() {
  const { t } = useTranslation('web');
  return (
    <section className="page page-message" aria-labelledby="page-heading">
      <h1 id="page-heading">{t('pages.notFound.heading')}</h1>
      <p>{t('pages.notFound.text')}</p>
    </section>
  );
}

/** Spec 2.3: title 'Page not found', heading 'Error 404'. */
export function NotFoundPage() {
  const { t } = useTranslation('web');
  usePageTitle(t('pages.notFound.title'), { exact: true });
  return <NotFoundContent />;
}
