import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../page-title';

/** Spec 2.1: shown on a 405 from the configuration; the app retries start-up every 5 s meanwhile. */
export function UpdatePage() {
  const { t } = useTranslation('web');
  usePageTitle(t('pages.update.title'));
  return (
    <section className="page page-message" aria-labelledby="page-heading">
      <h1 id="page-heading">{t('pages.update.heading')}</h1>
      <p role="status">{t('pages.update.text')}</p>
    </section>
  );
}
