import type { ConfirmKeyData } from '@scriptorium/common/api/user';
import { type ReactNode, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useAppContext } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { navigate } from '../../app/router/navigation';
import { Page } from '../../components/page/page';
import { showToast } from '../../components/toast/toast';
import { WaitOverlay } from '../../components/wait-overlay/wait-overlay';
import { accountApi } from '../account/account-api';
import { AccountKeyChecking, AccountMessage } from '../account/account-page';
import { useKeyCheck } from '../account/key-check';

export interface ConfirmEmailPageProps {
  /** The confirmation key from /account/confirm-email/{key}. */
  confirmKey: string;
}

export const PROFILE_PATH = '/user/profile/';

/** A static page opened beside this one; Trans fills in the link text. */
function PageLink({ href, children }: { href: string; children?: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer">
      {children}
    </a>
  );
}

/**
 * Confirm e-mail page (spec 2.3, 4, 5): shows username and address; a first verification needs
 * the terms ticked; Confirm stays disabled until every check is ticked.
 */
export function ConfirmEmailPage({ confirmKey }: ConfirmEmailPageProps) {
  const { t } = useTranslation('web');
  const { t: ta } = useTranslation('accounts');
  const { user, reloadConfiguration } = useAppContext();
  const title = t('pages.confirmEmail.title');
  usePageTitle(title);
  const id = useId();
  const check = useKeyCheck(confirmKey, accountApi.confirmKeyData);
  const [confirmed, setConfirmed] = useState(false);
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function confirm(data: ConfirmKeyData) {
    setBusy(true);
    setFailed(false);
    try {
      // Someone else is logged in here: they are logged out first, so the owner can log in next.
      if (data.logout) await accountApi.logout();
      await accountApi.confirmEmail(confirmKey);
      if (user && !data.logout) {
        // Reloading the configuration marks the address verified in the local user data.
        await reloadConfiguration();
        showToast(ta('confirmEmail.verified'), 'info');
        navigate(PROFILE_PATH);
        return;
      }
      setConfirmed(true);
      if (data.logout) await reloadConfiguration();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  if (check.kind === 'checking') return <AccountKeyChecking />;
  if (check.kind === 'invalid') return <AccountMessage heading={title} text={ta('confirmEmail.expired')} />;
  if (confirmed) {
    return (
      <AccountMessage
        heading={ta('confirmEmail.thanks')}
        text={ta('confirmEmail.canLogin')}
        next={{ href: '/', label: ta('confirmEmail.login') }}
      />
    );
  }

  const { data } = check;
  const needsTerms = !data.verified;
  const allChecked = !needsTerms || termsAccepted;
  return (
    <Page heading={title} className="account-page">
      <p>{ta('confirmEmail.intro')}</p>
      <dl className="confirm-email-data">
        <dt>{ta('confirmEmail.username')}</dt>
        <dd data-testid="confirm-username">{data.username}</dd>
        <dt>{ta('confirmEmail.email')}</dt>
        <dd data-testid="confirm-email">{data.email}</dd>
      </dl>
      {needsTerms && (
        <div className="form-field form-field-inline">
          <input
            id={`${id}-terms`}
            type="checkbox"
            checked={termsAccepted}
            onChange={(event) => setTermsAccepted(event.target.checked)}
          />
          <label htmlFor={`${id}-terms`}>
            <Trans
              t={ta}
              i18nKey="confirmEmail.terms"
              components={{
                terms: <PageLink href="/pages/terms/" />,
                privacy: <PageLink href="/pages/privacy/" />,
              }}
            />
          </label>
        </div>
      )}
      {failed && (
        <ul className="form-errors" role="alert">
          <li>{ta('confirmEmail.failed')}</li>
        </ul>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={!allChecked || busy}
          onClick={() => void confirm(data)}
        >
          {ta('confirmEmail.confirm')}
        </button>
      </div>
      <WaitOverlay active={busy} message={ta('common.waiting')} />
    </Page>
  );
}
