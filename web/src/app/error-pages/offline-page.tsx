import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../page-title';

/** Shown when the configuration cannot be loaded (spec 2.1 and 8); start-up runs again when back online. */
export function OfflinePage({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation('web');
  usePageTitle(t('pages.offline.title'));
  return (
    <section className="page page-message" aria-labelledby="page-heading">
      <h1 id="page-heading">{t('pages.offline.heading')}</h1>
      <p>{t('pages.offline.text')}</p>
      <button type="button" className="button button-primary" onClick={onRetry}>
        {t('pages.offline.retry')}
      </button>
    </section>
  );
}
