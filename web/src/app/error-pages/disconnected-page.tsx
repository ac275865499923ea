import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/page/page';

/** Spec 2.3: the user is disconnected from the server; a full reload starts afresh. */
export function DisconnectedPage() {
  const { t } = useTranslation('web');
  return (
    <MessagePage
      title={t('pages.disconnected.title')}
      heading={t('pages.disconnected.heading')}
      text={t('pages.disconnected.text')}
    >
      <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
        {t('pages.disconnected.reload')}
      </button>
    </MessagePage>
  );
}
