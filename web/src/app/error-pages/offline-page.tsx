import { useTranslation } from 'react-i18next';
import { TextsPage } from './texts-page';

/** Shown when the configuration cannot be loaded (spec 2.1 and 8); start-up runs again when back online. */
export function OfflinePage({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation('web');
  return (
    <TextsPage name="offline">
      <button type="button" className="button button-primary" onClick={onRetry}>
        {t('pages.offline.retry')}
      </button>
    </TextsPage>
  );
}
