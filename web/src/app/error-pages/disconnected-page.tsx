import { useTranslation } from 'react-i18next';
import { TextsPage } from './texts-page';

/** Spec 2.3: the user is disconnected from the server; a full reload starts afresh. */
export function DisconnectedPage() {
  const { t } = useTranslation('web');
  return (
    <TextsPage name="disconnected">
      <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
        {t('pages.disconnected.reload')}
      </button>
    </TextsPage>
  );
}
