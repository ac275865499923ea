import { useTranslation } from 'react-i18next';
import { reloadToNewVersion, useNewVersion } from '../../offline/service-worker';
import './cached-version-notice.css';

/** A quiet notice, once a new version of the app is installed: following it reloads (issue 20). */
export function NewVersionNotice() {
  const { t } = useTranslation('components');
  if (!useNewVersion()) return null;
  return (
    <div className="new-version-notice" role="status">
      <button type="button" className="new-version-button" onClick={reloadToNewVersion}>
        {t('newVersion')}
      </button>
    </div>
  );
}
