import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppContext } from '../../app/configuration/app-context';
import { navigate } from '../../app/router/navigation';
import type { RoutePage } from '../../app/router/routes';
import { claimInvite, takeStoredInviteKey } from '../invite/invite-key';
import { CONTACTS_PATH } from './contacts-api';
import './contacts.css';

export interface WaitingInvitesNoticeProps {
  /** The page on show: the notice stays away from the contacts page itself. */
  page: RoutePage;
}

/**
 * Spec 2.4: after login, when the configuration says waiting_invites, every page but the contacts
 * page shows 'Other users have requested to connect with you...' with 'Go to contacts'.
 *
 * It also claims an invite key kept from /invite/{key} when the login ended somewhere else (e.g.
 * a social login returning to /), so that the invite is claimed right after any kind of login.
 */
export function WaitingInvitesNotice({ page }: WaitingInvitesNoticeProps) {
  const { t } = useTranslation('contacts');
  const { user, reloadConfiguration } = useAppContext();

  useEffect(() => {
    if (!user || page === 'invite') return;
    const key = takeStoredInviteKey();
    if (!key) return;
    claimInvite(key).then(
      () => void reloadConfiguration(),
      () => undefined,
    );
  }, [user, page, reloadConfiguration]);

  if (!user?.waiting_invites || page === 'contacts') return null;
  return (
    <div className="waiting-invites-notice" role="status">
      <span>{t('waitingInvites')}</span>
      <button type="button" className="button button-primary" onClick={() => navigate(CONTACTS_PATH)}>
        {t('goToContacts')}
      </button>
    </div>
  );
}
