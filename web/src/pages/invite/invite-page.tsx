import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppContext } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { replaceAddress } from '../../app/router/navigation';
import { Page } from '../../components/page/page';
import { LoginPage } from '../login/login-page';
import { claimInvite, storeInviteKey, takeStoredInviteKey } from './invite-key';

export interface InvitePageProps {
  /** The invite key from /invite/{key}. */
  inviteKey: string;
}

/**
 * Invite page (spec 2.3). Logged in: claims the invite, rewrites the address to the answer's
 * redirect and so reselects the page. Not logged in: keeps the key and shows the login page; the
 * login reloads the configuration at this same address, and the claim follows at once.
 */
export function InvitePage({ inviteKey }: InvitePageProps) {
  const { user } = useAppContext();
  return user ? <ClaimInvite inviteKey={inviteKey} /> : <LoginForInvite inviteKey={inviteKey} />;
}

function LoginForInvite({ inviteKey }: InvitePageProps) {
  useEffect(() => storeInviteKey(inviteKey), [inviteKey]);
  return <LoginPage />;
}

function ClaimInvite({ inviteKey }: InvitePageProps) {
  const { t } = useTranslation('contacts');
  const { reloadConfiguration } = useAppContext();
  const [failed, setFailed] = useState(false);
  usePageTitle(t('invitePage.title'));

  useEffect(() => {
    // This key is being claimed now; a stored copy must not be claimed a second time elsewhere.
    takeStoredInviteKey();
    let active = true;
    claimInvite(inviteKey).then(
      (redirect) => {
        if (!active) return;
        replaceAddress(redirect);
        // A claimed invite is a waiting one: the configuration says so after a reload.
        void reloadConfiguration();
      },
      () => {
        if (active) setFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, [inviteKey, reloadConfiguration]);

  return (
    <Page heading={t('invitePage.title')} className="page-message">
      {failed ? <p role="alert">{t('invitePage.failed')}</p> : <p role="status">{t('invitePage.opening')}</p>}
    </Page>
  );
}
