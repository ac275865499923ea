import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/page/page';

/** Shown when the configuration cannot be loaded (spec 2.1 and 8); start-up runs again when back online. */
export function OfflinePage({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation('web');
  return (
    <MessagePage
      title={t('pages.offline.title')}
      heading={t('pages.offline.heading')}
      text={t('pages.offline.text')}
    >
      <button type="button" className="button button-primary" onClick={onRetry}>
        {t('pages.offline.retry')}
      </button>
    </MessagePage>
  );
}
