import { useTranslation } from 'react-i18next';
import { useOnline } from './use-online';
import './cached-version-notice.css';

/**
 * Spec section 4: offline viewing says that the page shows a cached copy. `stale` also shows it
 * online, when the page fell back to its cache because the server could not be reached.
 */
export function CachedVersionNotice({ stale = false }: { stale?: boolean }) {
  const { t } = useTranslation('components');
  const online = useOnline();
  if (online && !stale) return null;
  return (
    <p className="cached-version-notice" role="status">
      {t('cachedVersion')}
    </p>
  );
}
