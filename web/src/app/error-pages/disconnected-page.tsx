import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../page-title';

/** Spec 2.3: the user is disconnected from the server; a full reload starts afresh. */
export function DisconnectedPage() {
  const { t } = useTranslation('web');
  usePageTitle(t('pages.disconnected.title'));
  return (
    <section className="page page-message" aria-labelledby="page-heading">
      <h1 id="page-heading">{t('pages.disconnected.heading')}</h1>
      <p>{t('pages.disconnected.text')}</p>
      <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
        {t('pages.disconnected.reload')}
      </button>
    </section>
  );
}
