import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page/page';

/** Spec 2.1: shown on a 405 from the configuration; the app retries start-up every 5 s meanwhile. */
export function UpdatePage() {
  const { t } = useTranslation('web');
  return (
    <Page title={t('pages.update.title')} heading={t('pages.update.heading')} className="page-message">
      <p role="status">{t('pages.update.text')}</p>
    </Page>
  );
}
