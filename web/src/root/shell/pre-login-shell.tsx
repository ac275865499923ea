import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoginFormShown } from '../../app/login-form-presence';
import { navigate } from '../../app/router/navigation';
import { Footer } from './footer';
import { LOGO_TARGET, Logo } from './logo';
import { SkipLink } from './skip-link';

interface PreLoginShellProps {
  children: ReactNode;
  /** The Log in button; hidden offline and during updates, and whenever a login form is shown. */
  showLogin?: boolean;
  /** The language selector needs the server, so offline and update pages hide it (spec 2.1). */
  showLanguage?: boolean;
  contactEmail?: string | null;
}

/** Spec 2.3: what visitors who are not logged in see around a page. */
export function PreLoginShell({
  children,
  showLogin = true,
  showLanguage = true,
  contactEmail,
}: PreLoginShellProps) {
  const { t } = useTranslation('web');
  const loginFormShown = useLoginFormShown();
  return (
    <div className="app pre-login">
      <SkipLink />
      <header className="app-header">
        <Logo />
        {showLogin && !loginFormShown && (
          <button type="button" className="button button-primary" onClick={() => navigate(LOGO_TARGET)}>
            {t('header.login')}
          </button>
        )}
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
      <Footer showLanguage={showLanguage} contactEmail={contactEmail} />
    </div>
  );
}
